-- The mail door (crates/server/src/mail): inbound messages stored before the SMTP 250, the
-- outbound queue, and how far each board's mails have gone. Portable SQL as in 0001.

-- One received message: the raw bytes in base64 (TEXT is portable, raw mail may not be UTF-8).
-- `status`: new (to process), done, ignored (auto-reply, bounce, over the rate).
CREATE TABLE mail_inbox (
    id BIGINT PRIMARY KEY,
    received_ms BIGINT NOT NULL,
    envelope_from TEXT NOT NULL,
    raw_base64 TEXT NOT NULL,
    size BIGINT NOT NULL,
    truncated BIGINT NOT NULL,
    status TEXT NOT NULL,
    note TEXT NOT NULL
);

CREATE INDEX mail_inbox_by_status ON mail_inbox (status);

-- One outbound message to one recipient. `status`: queued, sent, failed (gave up). The relay
-- retries a queued message at `next_try_ms`, backing off.
CREATE TABLE mail_outbox (
    id BIGINT PRIMARY KEY,
    created_ms BIGINT NOT NULL,
    recipient TEXT NOT NULL,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    message_id TEXT NOT NULL,
    in_reply_to TEXT NOT NULL,
    refs TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts BIGINT NOT NULL,
    next_try_ms BIGINT NOT NULL,
    last_error TEXT NOT NULL,
    sent_ms BIGINT
);

CREATE INDEX mail_outbox_by_status ON mail_outbox (status, next_try_ms);

-- What the board mails have told so far, per board; boards that already exist count as told.
CREATE TABLE mail_boards (
    board BIGINT PRIMARY KEY,
    version BIGINT NOT NULL,
    plies BIGINT NOT NULL,
    status TEXT NOT NULL,
    nagged_ply BIGINT NOT NULL,
    chat_seq BIGINT NOT NULL
);

INSERT INTO mail_boards (board, version, plies, status, nagged_ply, chat_seq)
SELECT board, version, plies, status, nagged_ply,
       COALESCE((SELECT MAX(seq) FROM chat WHERE chat.board = games.board), 0)
FROM games;

-- Which events mail a user (space-separated): challenge, move, chat, nag, end, message.
ALTER TABLE users ADD COLUMN mail_events TEXT NOT NULL DEFAULT 'challenge move chat nag end message';
-- A `change address` waiting for its confirmation mail: the new addresses and the token.
ALTER TABLE users ADD COLUMN pending_addresses TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN address_token TEXT NOT NULL DEFAULT '';
