-- Open seeks (issue 17): a game anyone may take. Live seeks (with a clock) last while their
-- owner has a page open; correspondence seeks until taken or withdrawn. Portable SQL as in 0001.
CREATE TABLE seeks (
    id BIGINT PRIMARY KEY,
    owner TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    game TEXT NOT NULL,
    size BIGINT,
    blocks TEXT NOT NULL,
    clock_base_ms BIGINT,
    clock_increment_ms BIGINT,
    rated BIGINT NOT NULL,
    color TEXT NOT NULL,
    rating_min BIGINT,
    rating_max BIGINT,
    created_ms BIGINT NOT NULL
);

CREATE INDEX seeks_by_owner ON seeks (owner);

-- Why a finished game does not count for ratings although it was rated when it began (a side
-- never moved: aborted unrated, as lichess does); empty otherwise.
ALTER TABLE games ADD COLUMN unrated_reason TEXT NOT NULL DEFAULT '';
