//! Training data: self-play games stored as their start position plus one move and one search
//! score per ply, zstd-compressed, which `ataxx datagen` writes and the trainer reads.
//!
//! A data file ([`Chunk`]) is one zstd stream; decompressed it is, little-endian, varints as
//! LEB128 (signed ones zigzag-encoded):
//!
//! | Field | Encoding |
//! |---|---|
//! | magic | the 8 bytes `ATXGAMES` |
//! | version | one byte, 1 |
//! | settings | varint length, then UTF-8 text: how the games were made |
//! | game count | varint |
//! | games | one after another |
//!
//! and a game is:
//!
//! | Field | Encoding |
//! |---|---|
//! | start | the 19-byte [`PositionMessage`] (7×7 board, side to move, both counters) |
//! | result | one byte: 0 draw, 1 x won, 2 o won |
//! | ply count | varint |
//! | plies | a move byte (bits 0–5 the target square's index `8·rank + file`, bit 6 set for a jump, which is followed by a byte with its origin's index; 255 for a pass), then, for a move that is not a pass, the search score for the side to move in hundredths of a piece (signed varint; forced ends ±(10000 − plies), see [`crate::score`]) |
//!
//! Every position before a move that is not a pass is a training position: the side to move had
//! a real move, the engine searched it, and the ply holds its score. A game's result is the one
//! the rules gave, or the one a search proved (the game is then cut after that search's move).
//! So a position costs about three bytes before compression (a single move and a two-byte
//! score) and the start's 21 bytes are shared by the game's 60–100 positions.

use std::collections::HashSet;
use std::hash::{BuildHasher, RandomState};
use std::io::{self, Read};

use ataxx::{
    Color, DecodeError, EncodeError, Move, Position, PositionMessage, Square, MESSAGE_BYTES,
};
use integer_encoding::{VarIntReader, VarIntWriter};
use thiserror::Error;

/// The usual ending of a data file's name.
pub const EXTENSION: &str = "games.zst";

const MAGIC: &[u8; 8] = b"ATXGAMES";
const VERSION: u8 = 1;
const PASS: u8 = 255;
const JUMP: u8 = 0x40;
/// zstd level: files are written once and read many times.
const LEVEL: i32 = 19;

/// One ply of a recorded game.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Ply {
    /// The side to move had to pass (not a training position).
    Pass,
    /// The engine's move and its search score for the side to move.
    Searched { mv: Move, score: i16 },
}

/// One self-play game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    /// The position the engine took over (after the random opening plies).
    pub start: Position,
    pub plies: Vec<Ply>,
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
}

/// The contents of one data file: how its games were made, and the games.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Chunk {
    pub settings: String,
    pub games: Vec<GameRecord>,
}

/// One training position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Record {
    pub x: u64,
    pub o: u64,
    pub blocked: u64,
    pub size: u8,
    pub turn: Color,
    /// Search score for the side to move.
    pub score: i16,
    /// The game's result for the side to move: 1, 0 or −1.
    pub result: i8,
    /// Whether this is the first recorded position of its game.
    pub first_of_game: bool,
}

/// Data that cannot be read or written.
#[derive(Debug, Error)]
pub enum DataError {
    #[error("not a games file (its first bytes are not ATXGAMES)")]
    Magic,
    #[error("games file version {0} (this build reads version {VERSION})")]
    Version(u8),
    #[error("the data ends early ({0})")]
    Truncated(&'static str),
    #[error("{0} bytes follow the last game")]
    TrailingBytes(usize),
    #[error("the settings text is not UTF-8")]
    Settings,
    #[error("game {game}: start position: {source}")]
    Start { game: usize, source: DecodeError },
    #[error("game {game}: {source}")]
    Encode { game: usize, source: EncodeError },
    #[error("game {game}: result byte {found} (expected 0, 1 or 2)")]
    Result { game: usize, found: u8 },
    #[error("game {game}, ply {ply}: move byte {found:#04x} names no move")]
    MoveByte { game: usize, ply: usize, found: u8 },
    #[error("game {game}, ply {ply}: {mv} is not legal in {position}")]
    Illegal {
        game: usize,
        ply: usize,
        mv: String,
        position: String,
    },
    #[error("game {game}, ply {ply}: score {score} does not fit 16 bits")]
    Score { game: usize, ply: usize, score: i64 },
    #[error("zstd: {0}")]
    Compression(io::Error),
}

impl Record {
    /// A record of `pos` with its score and result (both for the side to move).
    pub fn new(pos: &Position, score: i32, result: i8, first_of_game: bool) -> Record {
        Record {
            x: pos.pieces(Color::X).0,
            o: pos.pieces(Color::O).0,
            blocked: pos.blocked().0,
            size: pos.size(),
            turn: pos.turn(),
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            result: result.signum(),
            first_of_game,
        }
    }
}

impl GameRecord {
    /// The training positions of the game, replayed from its start; `game` names it in errors.
    pub fn records(&self, game: usize) -> Result<Vec<Record>, DataError> {
        let mut pos = self.start;
        let mut out = Vec::with_capacity(self.plies.len());
        for (ply, step) in self.plies.iter().enumerate() {
            let (mv, score) = match *step {
                Ply::Pass => (Move::Pass, None),
                Ply::Searched { mv, score } => (mv, Some(score)),
            };
            if pos.is_game_over() || (mv == Move::Pass) != pos.must_pass() || !pos.is_legal(mv) {
                return Err(DataError::Illegal {
                    game,
                    ply,
                    mv: mv.to_string(),
                    position: pos.to_string(),
                });
            }
            if let Some(score) = score {
                let result = match self.winner {
                    None => 0,
                    Some(side) if side == pos.turn() => 1,
                    Some(_) => -1,
                };
                out.push(Record::new(&pos, i32::from(score), result, out.is_empty()));
            }
            pos.play_unchecked(mv);
        }
        Ok(out)
    }
}

impl Chunk {
    /// The file's bytes: the encoding above, compressed.
    pub fn to_bytes(&self) -> Result<Vec<u8>, DataError> {
        let mut raw = Vec::new();
        raw.extend_from_slice(MAGIC);
        raw.push(VERSION);
        raw.write_varint(self.settings.len()).expect("in memory");
        raw.extend_from_slice(self.settings.as_bytes());
        raw.write_varint(self.games.len()).expect("in memory");
        for (index, game) in self.games.iter().enumerate() {
            let start = PositionMessage::from_position(&game.start).map_err(|source| {
                DataError::Encode {
                    game: index,
                    source,
                }
            })?;
            raw.extend_from_slice(&start.to_bytes());
            raw.push(match game.winner {
                None => 0,
                Some(Color::X) => 1,
                Some(Color::O) => 2,
            });
            raw.write_varint(game.plies.len()).expect("in memory");
            for ply in &game.plies {
                match *ply {
                    Ply::Pass => raw.push(PASS),
                    Ply::Searched { mv, score } => {
                        let to = mv.to().expect("a searched move is not a pass").index();
                        match mv.from() {
                            Some(from) => raw.extend_from_slice(&[to | JUMP, from.index()]),
                            None => raw.push(to),
                        }
                        raw.write_varint(score).expect("in memory");
                    }
                }
            }
        }
        zstd::encode_all(raw.as_slice(), LEVEL).map_err(DataError::Compression)
    }

    /// Reads a file's bytes, checking every field; the games' moves are checked by
    /// [`GameRecord::records`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Chunk, DataError> {
        let raw = zstd::decode_all(bytes).map_err(DataError::Compression)?;
        let mut input = raw.as_slice();
        let mut header = [0u8; 9];
        input
            .read_exact(&mut header)
            .map_err(|_| DataError::Truncated("header"))?;
        if &header[..8] != MAGIC {
            return Err(DataError::Magic);
        }
        if header[8] != VERSION {
            return Err(DataError::Version(header[8]));
        }
        let settings_len: usize = varint(&mut input, "settings")?;
        let settings = take(&mut input, settings_len, "settings")?;
        let settings = String::from_utf8(settings.to_vec()).map_err(|_| DataError::Settings)?;
        let count: usize = varint(&mut input, "game count")?;
        let mut games = Vec::with_capacity(count.min(1 << 16));
        for game in 0..count {
            let start = PositionMessage::from_bytes(take(&mut input, MESSAGE_BYTES, "start")?)
                .map_err(|source| DataError::Start { game, source })?
                .to_position();
            let winner = match take(&mut input, 1, "result")?[0] {
                0 => None,
                1 => Some(Color::X),
                2 => Some(Color::O),
                found => return Err(DataError::Result { game, found }),
            };
            let len: usize = varint(&mut input, "ply count")?;
            let mut plies = Vec::with_capacity(len.min(1 << 12));
            for ply in 0..len {
                let byte = take(&mut input, 1, "move")?[0];
                if byte == PASS {
                    plies.push(Ply::Pass);
                    continue;
                }
                let bad = |found| DataError::MoveByte { game, ply, found };
                let square = |index: u8| Square::new(index & 7, index >> 3).ok_or(bad(index));
                let to = square(byte & 0x3f)?;
                let mv = if byte & !0x3f == JUMP {
                    let from = take(&mut input, 1, "move")?[0];
                    if from >= 64 {
                        return Err(bad(from));
                    }
                    Move::Jump {
                        from: square(from)?,
                        to,
                    }
                } else if byte & !0x3f == 0 {
                    Move::Single(to)
                } else {
                    return Err(bad(byte));
                };
                let score: i64 = varint(&mut input, "score")?;
                let score =
                    i16::try_from(score).map_err(|_| DataError::Score { game, ply, score })?;
                plies.push(Ply::Searched { mv, score });
            }
            games.push(GameRecord {
                start,
                plies,
                winner,
            });
        }
        if !input.is_empty() {
            return Err(DataError::TrailingBytes(input.len()));
        }
        Ok(Chunk { settings, games })
    }

    /// Every game's training positions, in order.
    pub fn records(&self) -> Result<Vec<Record>, DataError> {
        let mut out = Vec::new();
        for (index, game) in self.games.iter().enumerate() {
            out.extend(game.records(index)?);
        }
        Ok(out)
    }
}

fn varint<V: integer_encoding::VarInt>(
    input: &mut &[u8],
    what: &'static str,
) -> Result<V, DataError> {
    input.read_varint().map_err(|_| DataError::Truncated(what))
}

fn take<'a>(input: &mut &'a [u8], len: usize, what: &'static str) -> Result<&'a [u8], DataError> {
    if input.len() < len {
        return Err(DataError::Truncated(what));
    }
    let (head, rest) = input.split_at(len);
    *input = rest;
    Ok(head)
}

/// Number of games in a stream of records: the records that start a game.
pub fn count_games(records: &[Record]) -> u64 {
    records.iter().filter(|r| r.first_of_game).count() as u64
}

/// How many of `records` are distinct positions (cells and side to move; the scores and
/// results may differ).
pub fn distinct_positions(records: &[Record]) -> usize {
    let hasher = RandomState::new();
    records
        .iter()
        .map(|r| hasher.hash_one((r.x, r.o, r.blocked, r.size, r.turn == Color::X)))
        .collect::<HashSet<u64>>()
        .len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::win_in;

    /// A game of `len` plies from `fen`, each ply the first legal move (a pass where forced),
    /// scored by a formula of the ply.
    fn game(fen: &str, len: usize, winner: Option<Color>) -> GameRecord {
        let start: Position = fen.parse().unwrap();
        let mut pos = start;
        let mut plies = Vec::new();
        for i in 0..len {
            if pos.is_game_over() {
                break;
            }
            let mv = pos.legal_moves()[i % pos.legal_moves().len()];
            plies.push(if mv == Move::Pass {
                Ply::Pass
            } else {
                let score = [0, 57, -300, win_in(9), -win_in(4), 9999, -1][i % 7];
                Ply::Searched {
                    mv,
                    score: score as i16,
                }
            });
            pos.play_unchecked(mv);
        }
        GameRecord {
            start,
            plies,
            winner,
        }
    }

    fn chunk() -> Chunk {
        Chunk {
            settings: "nodes=5000 test".into(),
            games: vec![
                game("x5o/7/7/7/7/7/o5x x 0 1", 40, Some(Color::X)),
                game("x5o/7/2-1-2/7/2-1-2/7/o5x o 3 12", 30, None),
                // x has no move: the first ply is a pass.
                game("x-o4/--o4/ooo4/7/7/7/7 x 0 30", 5, Some(Color::O)),
            ],
        }
    }

    #[test]
    fn games_round_trip_through_bytes_and_replay_to_their_positions() {
        let chunk = chunk();
        assert_eq!(chunk.games[2].plies[0], Ply::Pass);
        assert!(chunk.games[0]
            .plies
            .iter()
            .any(|p| matches!(p, Ply::Searched { mv, .. } if mv.is_jump())));
        let bytes = chunk.to_bytes().unwrap();
        let back = Chunk::from_bytes(&bytes).unwrap();
        assert_eq!(back, chunk);

        let records = back.records().unwrap();
        let searched = |g: &GameRecord| g.plies.iter().filter(|p| **p != Ply::Pass).count();
        assert_eq!(
            records.len(),
            chunk.games.iter().map(searched).sum::<usize>()
        );
        assert_eq!(count_games(&records), 3);
        // The first record is the start, scored by the first ply, won by the side to move.
        let first = Record::new(&chunk.games[0].start, 0, 1, true);
        assert_eq!(records[0], first);
        // Results alternate with the side to move in a decided game, and are 0 in a draw.
        let game0 = &records[..searched(&chunk.games[0])];
        assert!(game0
            .iter()
            .all(|r| r.result == if r.turn == Color::X { 1 } else { -1 }));
        assert!(records[game0.len()..]
            .iter()
            .take(searched(&chunk.games[1]))
            .all(|r| r.result == 0));
        // A few bytes per position.
        assert!(
            bytes.len() < 4 * records.len() + 100,
            "{} bytes",
            bytes.len()
        );
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let chunk = chunk();
        let bytes = chunk.to_bytes().unwrap();
        assert!(matches!(
            Chunk::from_bytes(&bytes[..bytes.len() - 3]),
            Err(DataError::Compression(_))
        ));
        let raw = zstd::decode_all(bytes.as_slice()).unwrap();
        let pack = |raw: &[u8]| zstd::encode_all(raw, 1).unwrap();
        let read = |raw: &[u8]| Chunk::from_bytes(&pack(raw));
        assert!(matches!(
            read(&raw[..raw.len() - 1]),
            Err(DataError::Truncated(_))
        ));
        assert!(matches!(
            read(&[&raw[..], &[0]].concat()),
            Err(DataError::TrailingBytes(1))
        ));
        let mut bad = raw.clone();
        bad[0] = b'B';
        assert!(matches!(read(&bad), Err(DataError::Magic)));
        bad = raw.clone();
        bad[8] = 7;
        assert!(matches!(read(&bad), Err(DataError::Version(7))));
        // The first game's result byte follows the header, settings, count and start.
        let start_at = 9 + 1 + chunk.settings.len() + 1;
        bad = raw.clone();
        bad[start_at + MESSAGE_BYTES] = 3;
        assert!(matches!(
            read(&bad),
            Err(DataError::Result { game: 0, found: 3 })
        ));
        bad = raw.clone();
        bad[start_at + 14] = 0;
        assert!(matches!(read(&bad), Err(DataError::Start { game: 0, .. })));
        // A move byte naming a square off the 8×8 grid.
        bad = raw.clone();
        bad[start_at + MESSAGE_BYTES + 2] = 0xbf;
        assert!(matches!(
            read(&bad),
            Err(DataError::MoveByte {
                game: 0,
                ply: 0,
                ..
            })
        ));
        // A well-formed but illegal move is found when the game is replayed.
        let mut wrong = chunk.clone();
        wrong.games[1].plies[3] = wrong.games[1].plies[0];
        let wrong = Chunk::from_bytes(&wrong.to_bytes().unwrap()).unwrap();
        assert!(matches!(
            wrong.records(),
            Err(DataError::Illegal {
                game: 1,
                ply: 3,
                ..
            })
        ));
        // A pass where a move exists is refused as well.
        let mut pass = chunk;
        pass.games[0].plies[5] = Ply::Pass;
        assert!(matches!(
            pass.records(),
            Err(DataError::Illegal {
                game: 0,
                ply: 5,
                ..
            })
        ));
    }

    #[test]
    fn other_board_sizes_are_refused_when_writing() {
        let chunk = Chunk {
            settings: String::new(),
            games: vec![game("x3o/5/5/5/o3x x 0 1", 4, None)],
        };
        assert!(matches!(
            chunk.to_bytes(),
            Err(DataError::Encode { game: 0, .. })
        ));
    }

    #[test]
    fn distinct_positions_ignores_scores_and_results() {
        let pos = Position::startpos();
        let records = [
            Record::new(&pos, 0, 1, true),
            Record::new(&pos, 50, -1, true),
            Record::new(&"x5o/7/7/7/7/7/o5x o 0 1".parse().unwrap(), 0, 1, true),
        ];
        assert_eq!(distinct_positions(&records), 2);
    }
}
