//! Training data: positions with the search score and the game's result, in fixed-size binary
//! records that `ataxx datagen` writes and a trainer reads.
//!
//! A record is [`RECORD_BYTES`] bytes, little-endian:
//!
//! | Bytes | Field |
//! |---|---|
//! | 0–7 | x's pieces (bitboard, bit `8·rank + file`, `a1` = bit 0) |
//! | 8–15 | o's pieces |
//! | 16–23 | blocked cells of the board (cells off an n×n board are not set) |
//! | 24 | board size (3–8) |
//! | 25 | bit 0: side to move (0 x, 1 o); bit 7: the first record of a game |
//! | 26 | halfmove clock |
//! | 27 | result for the side to move: 1 win, 0 draw, −1 loss (i8) |
//! | 28–29 | search score for the side to move, in hundredths of a piece (i16; forced game ends as ±(10000 − plies), see [`crate::score`]) |
//! | 30–31 | fullmove number (u16, saturating) |
//!
//! Games are written whole, so a file is a sequence of games, each starting with a flagged
//! record; counting the flags tells how many games a file holds (how `datagen` resumes).

use std::io::{self, Read};

use ataxx::{Bitboard, Color, Position};
use thiserror::Error;

/// Size of one record.
pub const RECORD_BYTES: usize = 32;

const FIRST_OF_GAME: u8 = 0x80;

/// One training position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Record {
    pub x: u64,
    pub o: u64,
    pub blocked: u64,
    pub size: u8,
    pub turn: Color,
    pub halfmove: u8,
    pub fullmove: u16,
    /// Search score for the side to move.
    pub score: i16,
    /// The game's result for the side to move: 1, 0 or −1.
    pub result: i8,
    /// Whether this is the first recorded position of its game.
    pub first_of_game: bool,
}

/// A record that does not describe a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DataError {
    #[error("record {index}: {reason}")]
    Invalid { index: u64, reason: &'static str },
    #[error("the data ends inside a record ({0} bytes left over)")]
    Truncated(usize),
    #[error("reading the data: {0}")]
    Io(io::ErrorKind),
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
            halfmove: pos.halfmove_clock().min(255) as u8,
            fullmove: pos.fullmove_number().min(u32::from(u16::MAX)) as u16,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            result: result.signum(),
            first_of_game,
        }
    }

    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        out[0..8].copy_from_slice(&self.x.to_le_bytes());
        out[8..16].copy_from_slice(&self.o.to_le_bytes());
        out[16..24].copy_from_slice(&self.blocked.to_le_bytes());
        out[24] = self.size;
        out[25] =
            u8::from(self.turn == Color::O) | if self.first_of_game { FIRST_OF_GAME } else { 0 };
        out[26] = self.halfmove;
        out[27] = self.result as u8;
        out[28..30].copy_from_slice(&self.score.to_le_bytes());
        out[30..32].copy_from_slice(&self.fullmove.to_le_bytes());
        out
    }

    /// Reads a record, checking that it describes a position (`index` names it in errors).
    pub fn from_bytes(bytes: &[u8; RECORD_BYTES], index: u64) -> Result<Record, DataError> {
        let invalid = |reason| DataError::Invalid { index, reason };
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let (x, o, blocked) = (word(0), word(8), word(16));
        let size = bytes[24];
        if !(3..=8).contains(&size) {
            return Err(invalid("board size outside 3-8"));
        }
        let board = Bitboard::board(size).0;
        if (x | o | blocked) & !board != 0 {
            return Err(invalid("a cell off the board is set"));
        }
        if x & o != 0 || (x | o) & blocked != 0 {
            return Err(invalid("a cell holds two things"));
        }
        if bytes[25] & !(FIRST_OF_GAME | 1) != 0 {
            return Err(invalid("unknown flag bits"));
        }
        let result = bytes[27] as i8;
        if !(-1..=1).contains(&result) {
            return Err(invalid("result outside -1..1"));
        }
        Ok(Record {
            x,
            o,
            blocked,
            size,
            turn: if bytes[25] & 1 == 0 {
                Color::X
            } else {
                Color::O
            },
            halfmove: bytes[26],
            fullmove: u16::from_le_bytes([bytes[30], bytes[31]]),
            score: i16::from_le_bytes([bytes[28], bytes[29]]),
            result,
            first_of_game: bytes[25] & FIRST_OF_GAME != 0,
        })
    }

    /// The position this record describes.
    pub fn position(&self) -> Position {
        let mut rows = Vec::with_capacity(usize::from(self.size));
        for rank in (0..self.size).rev() {
            let mut row = String::new();
            let mut gap = 0;
            for file in 0..self.size {
                let bit = 1u64 << (8 * rank + file);
                let c = if self.x & bit != 0 {
                    'x'
                } else if self.o & bit != 0 {
                    'o'
                } else if self.blocked & bit != 0 {
                    '-'
                } else {
                    gap += 1;
                    continue;
                };
                if gap > 0 {
                    row += &gap.to_string();
                    gap = 0;
                }
                row.push(c);
            }
            if gap > 0 {
                row += &gap.to_string();
            }
            rows.push(row);
        }
        let turn = if self.turn == Color::X { 'x' } else { 'o' };
        let fen = format!(
            "{} {turn} {} {}",
            rows.join("/"),
            self.halfmove,
            self.fullmove.max(1)
        );
        fen.parse().expect("a checked record is a valid position")
    }
}

/// Reads every record of `reader`.
pub fn read_all(mut reader: impl Read) -> Result<Vec<Record>, DataError> {
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .map_err(|e| DataError::Io(e.kind()))?;
    let chunks = bytes.chunks_exact(RECORD_BYTES);
    if !chunks.remainder().is_empty() {
        return Err(DataError::Truncated(chunks.remainder().len()));
    }
    chunks
        .enumerate()
        .map(|(i, chunk)| Record::from_bytes(chunk.try_into().expect("exact chunk"), i as u64))
        .collect()
}

/// Number of games in a stream of records: the records that start a game.
pub fn count_games(records: &[Record]) -> u64 {
    records.iter().filter(|r| r.first_of_game).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::win_in;

    #[test]
    fn records_round_trip_through_bytes_and_positions() {
        let fens = [
            "x5o/7/7/7/7/7/o5x x 0 1",
            "x5o/7/2-1-2/7/2-1-2/7/o5x o 3 12",
            "xxx2oo/xx3oo/x1x1o2/7/2o1x2/oo3xx/oo2xxx x 0 10",
            "-xxoo--/x-xoo-o/xxx-ooo/7/ooo-xxx/o-oxx-x/--ooxx- o 99 60",
            "x3o/5/5/5/o3x x 0 1",
            "x6o/8/8/8/8/8/8/o6x o 7 200",
            "x1o/1-1/o1x x 0 1",
        ];
        let mut stream = Vec::new();
        let mut written = Vec::new();
        for (i, fen) in fens.iter().enumerate() {
            let pos: Position = fen.parse().unwrap();
            let score = [0, 57, -300, win_in(9), -win_in(4), 32_767, -1][i];
            let record = Record::new(&pos, score, [1, 0, -1][i % 3], i % 3 == 0);
            let bytes = record.to_bytes();
            let back = Record::from_bytes(&bytes, i as u64).unwrap();
            assert_eq!(back, record, "{fen}");
            assert_eq!(back.position(), pos, "{fen}");
            assert_eq!(i32::from(back.score), score, "{fen}");
            stream.extend_from_slice(&bytes);
            written.push(record);
        }
        let read = read_all(stream.as_slice()).unwrap();
        assert_eq!(read, written);
        assert_eq!(count_games(&read), 3);
        // A torn record and a corrupt one are reported, not read.
        assert_eq!(
            read_all(&stream[..stream.len() - 5]),
            Err(DataError::Truncated(RECORD_BYTES - 5))
        );
        let mut corrupt = stream.clone();
        corrupt[RECORD_BYTES + 24] = 9;
        assert!(matches!(
            read_all(corrupt.as_slice()),
            Err(DataError::Invalid { index: 1, .. })
        ));
    }
}
