-- Issue #28: an inbound message's Message-ID, so that the same message delivered twice (an MTA
-- retrying, mbox delivery without duplicate suppression) is stored and run once; and no raw
-- message kept after it is processed (the Subject holds the command's password).
ALTER TABLE mail_inbox ADD COLUMN message_id TEXT NOT NULL DEFAULT '';
CREATE INDEX mail_inbox_by_message_id ON mail_inbox (message_id);
UPDATE mail_inbox SET raw_base64 = '' WHERE status <> 'new';
