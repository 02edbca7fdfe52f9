-- Any game through the seam (crates/games): each board names its game, seats hold its players
-- (two for Ataxx and Hexxagon, four for four-player Ataxx), and ratings are kept per game.
-- Portable SQL as in 0001: ALTER TABLE ... ADD/DROP COLUMN and INSERT ... SELECT run on SQLite
-- (3.35 or later) and PostgreSQL alike.

ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'ataxx';

-- One row per player of a board; seat 0 moves first. `accepted`, the clock (`remaining_ms`,
-- live games only), the thinking time used, and once finished the rank (1 = best, equal ranks
-- shared) and the rating change.
CREATE TABLE seats (
    board BIGINT NOT NULL REFERENCES games (board),
    seat BIGINT NOT NULL,
    name TEXT NOT NULL,
    accepted BIGINT NOT NULL,
    remaining_ms BIGINT,
    used_ms BIGINT NOT NULL,
    finish_rank BIGINT,
    rating_change DOUBLE PRECISION,
    PRIMARY KEY (board, seat)
);

CREATE INDEX seats_by_name ON seats (name);

INSERT INTO seats (board, seat, name, accepted, remaining_ms, used_ms, finish_rank, rating_change)
SELECT board, 0, x_name, x_accepted, x_remaining_ms, x_used_ms,
       CASE result WHEN '0-1' THEN 2 WHEN '1-0' THEN 1 WHEN '1/2-1/2' THEN 1 ELSE NULL END,
       x_rating_change
FROM games;

INSERT INTO seats (board, seat, name, accepted, remaining_ms, used_ms, finish_rank, rating_change)
SELECT board, 1, o_name, o_accepted, o_remaining_ms, o_used_ms,
       CASE result WHEN '1-0' THEN 2 WHEN '0-1' THEN 1 WHEN '1/2-1/2' THEN 1 ELSE NULL END,
       o_rating_change
FROM games;

DROP INDEX games_by_x;
DROP INDEX games_by_o;
ALTER TABLE games DROP COLUMN x_name;
ALTER TABLE games DROP COLUMN o_name;
ALTER TABLE games DROP COLUMN x_accepted;
ALTER TABLE games DROP COLUMN o_accepted;
ALTER TABLE games DROP COLUMN x_remaining_ms;
ALTER TABLE games DROP COLUMN o_remaining_ms;
ALTER TABLE games DROP COLUMN x_used_ms;
ALTER TABLE games DROP COLUMN o_used_ms;
ALTER TABLE games DROP COLUMN x_rating_change;
ALTER TABLE games DROP COLUMN o_rating_change;

-- Glicko-2 ratings and records per user and game; a user without a row for a game has the
-- initial rating there. Existing ratings are square Ataxx's.
CREATE TABLE ratings (
    name TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    wins BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    last_game_ms BIGINT,
    PRIMARY KEY (name, game)
);

INSERT INTO ratings (name, game, rating, deviation, volatility, wins, losses, draws, last_game_ms)
SELECT name, 'ataxx', rating, deviation, volatility, wins, losses, draws, last_game_ms
FROM users
WHERE wins + losses + draws > 0;

ALTER TABLE users DROP COLUMN rating;
ALTER TABLE users DROP COLUMN deviation;
ALTER TABLE users DROP COLUMN volatility;
ALTER TABLE users DROP COLUMN wins;
ALTER TABLE users DROP COLUMN losses;
ALTER TABLE users DROP COLUMN draws;
ALTER TABLE users DROP COLUMN last_game_ms;

ALTER TABLE rating_history ADD COLUMN game TEXT NOT NULL DEFAULT 'ataxx';
