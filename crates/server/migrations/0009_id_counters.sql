-- Seek and mail ids from counter rows, as board numbers are since 0007: MAX(id) + 1 hands two
-- nodes (or two writers on one PostgreSQL database) the same id at the same moment.
INSERT INTO counters (name, value) SELECT 'seek', COALESCE(MAX(id), 0) FROM seeks;
INSERT INTO counters (name, value) SELECT 'mail_inbox', COALESCE(MAX(id), 0) FROM mail_inbox;
INSERT INTO counters (name, value) SELECT 'mail_outbox', COALESCE(MAX(id), 0) FROM mail_outbox;
