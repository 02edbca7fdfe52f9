//! FEN (spec section 3): `board [side [halfmove [fullmove]]]`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::fen_parts::{write_row, CounterError, Counters};
use crate::{Bitboard, Color, Position, Square, MAX_SIZE};

/// What was wrong with a FEN, and where.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("empty FEN: expected a board such as x5o/7/7/7/7/7/o5x")]
    Empty,
    #[error(
        "FEN has {found} fields; expected at most 4 (board, side, halfmove clock, fullmove number)"
    )]
    TooManyFields { found: usize },
    #[error("board field has {found} ranks; expected 3 to {max} ranks separated by '/'", max = MAX_SIZE)]
    RankCount { found: usize },
    #[error("board field: rank {rank} covers {found} files; expected {expected} (the board has {expected} ranks, and an n×n board needs n files per rank)")]
    RankWidth {
        rank: u8,
        found: usize,
        expected: u8,
    },
    #[error("board field: rank {rank} has {found:?}; expected x, o, - or a digit 1-{size}")]
    BadCell { rank: u8, found: char, size: u8 },
    #[error("side field is {found:?}; expected x or o")]
    Side { found: String },
    #[error(transparent)]
    Counter(#[from] CounterError),
}

impl FromStr for Position {
    type Err = FenError;

    /// Reads 1–4 FEN fields (missing side = x, clock 0, move 1), the keyword `startpos`, and
    /// upper-case `X`/`O`.
    fn from_str(text: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        match fields.as_slice() {
            [] => Err(FenError::Empty),
            ["startpos"] => Ok(Position::startpos()),
            f if f.len() > 4 => Err(FenError::TooManyFields { found: f.len() }),
            f => {
                let (size, x, o, blocked) = parse_board(f[0])?;
                let turn = match f.get(1) {
                    None => Color::X,
                    Some(s) => match *s {
                        "x" | "X" => Color::X,
                        "o" | "O" => Color::O,
                        other => {
                            return Err(FenError::Side {
                                found: other.to_string(),
                            })
                        }
                    },
                };
                let Counters { halfmove, fullmove } =
                    Counters::read(f.get(2).copied(), f.get(3).copied())?;
                Ok(Position::from_parts(
                    size, x, o, blocked, turn, halfmove, fullmove,
                ))
            }
        }
    }
}

fn parse_board(board: &str) -> Result<(u8, Bitboard, Bitboard, Bitboard), FenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    let size = ranks.len();
    if !(3..=MAX_SIZE as usize).contains(&size) {
        return Err(FenError::RankCount { found: size });
    }
    let size = size as u8;
    let (mut x, mut o, mut blocked) = (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
    for (row, text) in ranks.iter().enumerate() {
        let rank = size - 1 - row as u8;
        let mut file = 0usize;
        for c in text.chars() {
            let target = match c {
                'x' | 'X' => Some(&mut x),
                'o' | 'O' => Some(&mut o),
                '-' => Some(&mut blocked),
                '1'..='9' if (c as u8 - b'0') <= size => None,
                _ => {
                    return Err(FenError::BadCell {
                        rank: rank + 1,
                        found: c,
                        size,
                    })
                }
            };
            match target {
                Some(set) => {
                    if file < size as usize {
                        *set |= Bitboard::from_square(
                            Square::new(file as u8, rank).expect("file and rank below size"),
                        );
                    }
                    file += 1;
                }
                None => file += (c as u8 - b'0') as usize,
            }
        }
        if file != size as usize {
            return Err(FenError::RankWidth {
                rank: rank + 1,
                found: file,
                expected: size,
            });
        }
    }
    Ok((size, x, o, blocked))
}

impl Position {
    /// The board field alone, e.g. `x5o/7/7/7/7/7/o5x`.
    pub fn board_fen(&self) -> String {
        let mut out = String::with_capacity(64);
        for rank in (0..self.size()).rev() {
            write_row(
                &mut out,
                (0..self.size()).map(|file| {
                    let sq = Square::new(file, rank).expect("on the grid");
                    self.piece_at(sq)
                        .map(|piece| piece.map_or('-', Color::char))
                }),
            );
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }
}

impl fmt::Display for Position {
    /// The full four-field FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {}",
            self.board_fen(),
            self.turn(),
            self.halfmove_clock(),
            self.fullmove_number()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writer_is_strict_and_reader_tolerant() {
        let cases = [
            ("startpos", "x5o/7/7/7/7/7/o5x x 0 1"),
            ("x5o/7/7/7/7/7/o5x", "x5o/7/7/7/7/7/o5x x 0 1"),
            ("x5o/7/7/7/7/7/o5x o", "x5o/7/7/7/7/7/o5x o 0 1"),
            ("X5O/7/7/7/7/7/O5X x 3", "x5o/7/7/7/7/7/o5x x 3 1"),
            (
                "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
                "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
            ),
            ("x23o/7/7/7/7/7/o5x x 0 1", "x5o/7/7/7/7/7/o5x x 0 1"),
            ("7/7/7/7/7/7/7 x 0 1", "7/7/7/7/7/7/7 x 0 1"),
            ("x1o/3/o1x x 0 1", "x1o/3/o1x x 0 1"),
            ("x6o/8/8/8/8/8/8/o6x o 5 7", "x6o/8/8/8/8/8/8/o6x o 5 7"),
        ];
        for (input, output) in cases {
            let p: Position = input.parse().unwrap();
            assert_eq!(p.to_string(), output, "{input}");
        }
    }

    #[test]
    fn errors_name_the_field_and_rank() {
        let err = |s: &str| s.parse::<Position>().unwrap_err().to_string();
        assert_eq!(
            err(""),
            "empty FEN: expected a board such as x5o/7/7/7/7/7/o5x"
        );
        assert!(err("x5o/7/7/7/7/o5x").contains("rank 6 covers 7 files; expected 6"));
        assert!(err("x5o/7/7/7/7/7/7/7/7/o5x").contains("10 ranks"));
        assert!(err("x5o/7/7/6/7/7/o5x").contains("rank 4 covers 6 files; expected 7"));
        assert!(err("x5b/7/7/7/7/7/o5x").contains("rank 7 has 'b'"));
        assert!(err("x5o/7/7/7/7/7/o5x w").contains("side field"));
        assert!(err("x5o/7/7/7/7/7/o5x x -1").contains("halfmove"));
        assert!(err("x5o/7/7/7/7/7/o5x x 0 0").contains("fullmove"));
        assert!(err("x5o/7/7/7/7/7/o5x x 0 1 extra").contains("5 fields"));
        assert!(err("x5o/8/7/7/7/7/o5x").contains("has '8'"));
        assert!(err("x5o/7/7/7/7/7/o5x x 99999999999").contains("halfmove"));
    }
}
