//! The compact 7×7 board of spec section 8, and a fixed-size position message built on it.
//!
//! [`PackedBoard`] is the 14-byte board; [`PositionMessage`] (19 bytes) adds side to move and
//! both counters.
//!
//! ```
//! use ataxx::{PackedBoard, Position, PositionMessage};
//! let pos: Position = "x5o/7/2-1-2/7/2-1-2/7/o5x o 3 12".parse().unwrap();
//! let board = PackedBoard::from_position(&pos).unwrap();
//! assert_eq!(board.to_string(), "0120000030030000300300000210");
//! let message = PositionMessage::from_position(&pos).unwrap();
//! assert_eq!(message.to_string(), "01200000300300003003000002100203000c00");
//! assert_eq!(message.to_string().parse::<PositionMessage>().unwrap().to_position(), pos);
//! ```

use thiserror::Error;

use crate::hex::BadGroup;
use crate::{Bitboard, Color, Counters, Grid, Position, Square};

/// Side of the only board the encoding holds.
const SIZE: u8 = 7;

/// Length of a packed board.
pub const BOARD_BYTES: usize = 14;

/// Length of a position message.
pub const MESSAGE_BYTES: usize = BOARD_BYTES + 5;

const EMPTY: u16 = 0;
const X: u16 = 1;
const O: u16 = 2;
const BLOCKED: u16 = 3;

/// A position the encoding cannot hold.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EncodeError {
    #[error("the 14-byte board holds 7x7 boards only; this board is {size}x{size}")]
    Size { size: u8 },
    #[error("halfmove clock {value} does not fit the message's 16 bits (at most 65535)")]
    Halfmove { value: u32 },
    #[error("fullmove number {value} does not fit the message's 16 bits (at most 65535)")]
    Fullmove { value: u32 },
}

/// Bytes or hex text that are not a packed board or message.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeError {
    #[error("expected {expected} bytes, found {found}")]
    Length { expected: usize, found: usize },
    #[error("rank {rank}: word 0x{word:04x} has bit 14 or 15 set; both must be 0")]
    HighBits { rank: u8, word: u16 },
    #[error("side-to-move byte (byte 14) is {found}; expected 1 (x) or 2 (o)")]
    Side { found: u8 },
    #[error("fullmove number (bytes 17-18) is 0; it starts at 1")]
    Fullmove,
    #[error(transparent)]
    Hex(#[from] BadGroup),
}

/// The cells of a 7×7 position in 14 bytes: 2 bits per cell (0 empty, 1 x, 2 o, 3 blocked), one
/// 16-bit word per rank, rank 7 first, file a in the low bits (`code << 2·file`), bits 14–15
/// zero, each word little-endian.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct PackedBoard([u8; BOARD_BYTES]);

impl PackedBoard {
    /// Packs a position's cells (its side to move and counters are left out).
    pub fn from_position(pos: &Position) -> Result<PackedBoard, EncodeError> {
        if pos.size() != SIZE {
            return Err(EncodeError::Size { size: pos.size() });
        }
        let mut bytes = [0; BOARD_BYTES];
        for (row, pair) in bytes.chunks_exact_mut(2).enumerate() {
            let rank = SIZE - 1 - row as u8;
            let word = (0..SIZE).fold(0u16, |word, file| {
                let sq = Square::new(file, rank).expect("on the board");
                let code = match pos.piece_at(sq) {
                    None => EMPTY,
                    Some(Ok(Color::X)) => X,
                    Some(Ok(Color::O)) => O,
                    Some(Err(())) => BLOCKED,
                };
                word | code << (2 * file)
            });
            pair.copy_from_slice(&word.to_le_bytes());
        }
        Ok(PackedBoard(bytes))
    }

    /// Reads 14 bytes, refusing a word with bit 14 or 15 set; every other value is a board.
    pub fn from_bytes(bytes: &[u8]) -> Result<PackedBoard, DecodeError> {
        let bytes: [u8; BOARD_BYTES] = bytes.try_into().map_err(|_| DecodeError::Length {
            expected: BOARD_BYTES,
            found: bytes.len(),
        })?;
        for (row, pair) in bytes.chunks_exact(2).enumerate() {
            let word = u16::from_le_bytes([pair[0], pair[1]]);
            if word >> 14 != 0 {
                return Err(DecodeError::HighBits {
                    rank: SIZE - row as u8,
                    word,
                });
            }
        }
        Ok(PackedBoard(bytes))
    }

    pub fn bytes(self) -> [u8; BOARD_BYTES] {
        self.0
    }

    /// The board with x to move and the counters at their start values (0 and 1).
    pub fn to_position(self) -> Position {
        self.with_state(Color::X, Counters::START)
    }

    fn with_state(self, turn: Color, counters: Counters) -> Position {
        let mut cells = [Bitboard::EMPTY; 4];
        for (row, pair) in self.0.chunks_exact(2).enumerate() {
            let word = u16::from_le_bytes([pair[0], pair[1]]);
            let rank = SIZE - 1 - row as u8;
            for file in 0..SIZE {
                let sq = Square::new(file, rank).expect("on the board");
                cells[usize::from(word >> (2 * file) & 3)] |= Bitboard::from_square(sq);
            }
        }
        let [_, x, o, blocked] = cells;
        Position::from_parts(Grid::new(SIZE, blocked), [x, o], turn, counters)
    }
}

/// A 7×7 position in 19 bytes. The packed board holds no side to move or counters, so the
/// message carries them after it:
///
/// | bytes | field |
/// |---|---|
/// | 0–13 | the board, as [`PackedBoard`] |
/// | 14 | side to move: 1 x, 2 o (the cell codes; 0 is refused, so a zeroed buffer never reads) |
/// | 15–16 | halfmove clock, unsigned 16 bits, little-endian |
/// | 17–18 | fullmove number, unsigned 16 bits, little-endian, at least 1 |
///
/// The board stays a prefix, so a reader that wants only the cells takes the first 14 bytes;
/// little-endian counters match the board's word order. 16 bits hold any clock a game reaches
/// (play ends at 100) and any real game's move number, and keep the message a fixed size.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct PositionMessage {
    board: PackedBoard,
    turn: Color,
    halfmove: u16,
    fullmove: u16,
}

impl PositionMessage {
    pub fn from_position(pos: &Position) -> Result<PositionMessage, EncodeError> {
        let counter = |value: u32| u16::try_from(value).ok();
        Ok(PositionMessage {
            board: PackedBoard::from_position(pos)?,
            turn: pos.turn(),
            halfmove: counter(pos.halfmove_clock()).ok_or(EncodeError::Halfmove {
                value: pos.halfmove_clock(),
            })?,
            fullmove: counter(pos.fullmove_number()).ok_or(EncodeError::Fullmove {
                value: pos.fullmove_number(),
            })?,
        })
    }

    /// Reads the 19 bytes, checking the board, the side byte and a fullmove number of at least 1.
    pub fn from_bytes(bytes: &[u8]) -> Result<PositionMessage, DecodeError> {
        let bytes: &[u8; MESSAGE_BYTES] = bytes.try_into().map_err(|_| DecodeError::Length {
            expected: MESSAGE_BYTES,
            found: bytes.len(),
        })?;
        let board = PackedBoard::from_bytes(&bytes[..BOARD_BYTES])?;
        let turn = match bytes[14] {
            1 => Color::X,
            2 => Color::O,
            found => return Err(DecodeError::Side { found }),
        };
        let halfmove = u16::from_le_bytes([bytes[15], bytes[16]]);
        let fullmove = u16::from_le_bytes([bytes[17], bytes[18]]);
        if fullmove == 0 {
            return Err(DecodeError::Fullmove);
        }
        Ok(PositionMessage {
            board,
            turn,
            halfmove,
            fullmove,
        })
    }

    pub fn to_bytes(&self) -> [u8; MESSAGE_BYTES] {
        let mut out = [0; MESSAGE_BYTES];
        out[..BOARD_BYTES].copy_from_slice(&self.board.0);
        out[14] = match self.turn {
            Color::X => 1,
            Color::O => 2,
        };
        out[15..17].copy_from_slice(&self.halfmove.to_le_bytes());
        out[17..19].copy_from_slice(&self.fullmove.to_le_bytes());
        out
    }

    pub fn board(&self) -> PackedBoard {
        self.board
    }

    pub fn to_position(&self) -> Position {
        let counters = Counters {
            halfmove: u32::from(self.halfmove),
            fullmove: u32::from(self.fullmove),
        };
        self.board.with_state(self.turn, counters)
    }
}

// As text, 28 and 38 lower-case hex digits, read in either case with spaces between bytes.
crate::impl_hex_text!(PackedBoard, bytes, DecodeError);
crate::impl_hex_text!(PositionMessage, to_bytes, DecodeError);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const VECTORS: [(&str, &str); 4] = [
        (
            "x5o/7/7/7/7/7/o5x",
            "01 20 00 00 00 00 00 00 00 00 00 00 02 10",
        ),
        (
            "x5o/7/2-1-2/7/2-1-2/7/o5x",
            "01 20 00 00 30 03 00 00 30 03 00 00 02 10",
        ),
        (
            "7/7/7/7/4ooo/4ooo/4oox",
            "00 00 00 00 00 00 00 00 00 2a 00 2a 00 1a",
        ),
        (
            "2ooox1/xxooooo/xxoxxoo/ooxxxoo/xxxxxoo/xxxoxxx/1xxoxxx",
            "a0 06 a5 2a 65 29 5a 29 55 29 95 15 94 15",
        ),
    ];

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    #[test]
    fn spec_vectors_both_ways() {
        for (fen, hex) in VECTORS {
            let board = PackedBoard::from_position(&pos(fen)).unwrap();
            assert_eq!(board.to_string(), hex.replace(' ', ""), "{fen}");
            let read: PackedBoard = hex.parse().unwrap();
            assert_eq!(read, board);
            assert_eq!(read.to_position().to_string(), format!("{fen} x 0 1"));
        }
    }

    #[test]
    fn message_appends_side_and_little_endian_counters() {
        let p = pos("7/7/7/7/4ooo/4ooo/4oox o 99 300");
        let message = PositionMessage::from_position(&p).unwrap();
        let bytes = message.to_bytes();
        assert_eq!(
            &bytes[..14],
            &PackedBoard::from_position(&p).unwrap().bytes()
        );
        assert_eq!(&bytes[14..], &[2, 99, 0, 0x2c, 0x01]);
        assert_eq!(
            PositionMessage::from_bytes(&bytes).unwrap().to_position(),
            p
        );
    }

    #[test]
    fn only_7x7_boards_and_16_bit_counters_encode() {
        assert_eq!(
            PackedBoard::from_position(&pos("x6o/8/8/8/8/8/8/o6x")),
            Err(EncodeError::Size { size: 8 })
        );
        assert_eq!(
            PositionMessage::from_position(&pos("x5o/7/7/7/7/7/o5x x 65536 1")),
            Err(EncodeError::Halfmove { value: 65536 })
        );
        assert_eq!(
            PositionMessage::from_position(&pos("x5o/7/7/7/7/7/o5x x 0 70000")),
            Err(EncodeError::Fullmove { value: 70000 })
        );
    }

    #[test]
    fn readers_refuse_bad_bytes_with_the_reason() {
        let start = PackedBoard::from_position(&Position::startpos())
            .unwrap()
            .bytes();
        let mut high = start;
        high[5] |= 0x40; // rank 5's high byte
        assert_eq!(
            PackedBoard::from_bytes(&high),
            Err(DecodeError::HighBits {
                rank: 5,
                word: 0x4000
            })
        );
        assert_eq!(
            PackedBoard::from_bytes(&start[..13]),
            Err(DecodeError::Length {
                expected: 14,
                found: 13
            })
        );
        let mut message = [0; MESSAGE_BYTES];
        message[..14].copy_from_slice(&start);
        assert_eq!(
            PositionMessage::from_bytes(&message),
            Err(DecodeError::Side { found: 0 })
        );
        message[14] = 1;
        assert_eq!(
            PositionMessage::from_bytes(&message),
            Err(DecodeError::Fullmove)
        );
        message[17] = 1;
        assert_eq!(
            PositionMessage::from_bytes(&message).unwrap().to_position(),
            Position::startpos()
        );
    }

    #[test]
    fn hex_text_may_space_bytes_but_not_split_them() {
        let spaced: PackedBoard = "0120 00 000000000000000000 0210".parse().unwrap();
        assert_eq!(spaced.to_position(), Position::startpos());
        let upper: PackedBoard = "0120000000000000000000000210"
            .to_uppercase()
            .parse()
            .unwrap();
        assert_eq!(upper, spaced);
        for bad in [
            "0 120000000000000000000000210",
            "01200000000000000000000002g0",
        ] {
            assert!(matches!(
                bad.parse::<PackedBoard>(),
                Err(DecodeError::Hex { .. })
            ));
        }
    }

    fn random_7x7_fen() -> impl Strategy<Value = String> {
        let cells = proptest::collection::vec(prop::sample::select(vec!['x', 'o', '-', '1']), 49);
        (cells, any::<bool>(), 0..=u16::MAX, 1..=u16::MAX).prop_map(
            |(cells, o_to_move, halfmove, fullmove)| {
                let ranks: Vec<String> = cells.chunks(7).map(|r| r.iter().collect()).collect();
                let side = if o_to_move { 'o' } else { 'x' };
                format!("{} {side} {halfmove} {fullmove}", ranks.join("/"))
            },
        )
    }

    proptest! {
        #[test]
        fn fen_survives_bytes_and_back(fen in random_7x7_fen()) {
            let p = pos(&fen);
            let board = PackedBoard::from_position(&p).unwrap();
            let read: PackedBoard = board.to_string().parse().unwrap();
            prop_assert_eq!(read.to_position().board_fen(), p.board_fen());
            let message = PositionMessage::from_position(&p).unwrap();
            let read: PositionMessage = message.to_string().parse().unwrap();
            prop_assert_eq!(read.to_position().to_string(), p.to_string());
        }

        #[test]
        fn any_accepted_bytes_are_a_board_that_packs_back(bytes in any::<[u8; 14]>()) {
            match PackedBoard::from_bytes(&bytes) {
                Ok(board) => {
                    let p = board.to_position();
                    prop_assert_eq!(p.to_string().parse::<Position>(), Ok(p));
                    prop_assert_eq!(PackedBoard::from_position(&p).unwrap().bytes(), bytes);
                }
                Err(_) => prop_assert!(bytes.chunks(2).any(|w| w[1] & 0xc0 != 0)),
            }
        }

        #[test]
        fn hex_readers_never_panic(text in "\\PC{0,50}") {
            let _ = text.parse::<PackedBoard>();
            let _ = text.parse::<PositionMessage>();
        }
    }
}
