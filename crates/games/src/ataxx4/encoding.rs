//! The 19-byte four-player board of spec `variants.md` 2.5: 3 bits a cell (0 empty, 1 block,
//! 2 r, 3 b, 4 g, 5 y), the 49 cells of the 7×7 board in FEN order (a7, b7, …, g7, a6, …, g1),
//! packed least-significant bit first: cell i holds bits 3i to 3i+2 of the 152-bit
//! little-endian number the bytes make. The last 5 bits (147–151) are always 0.
//!
//! Like the two-player 14-byte board, it holds only the cells: the colour to move and the
//! counters travel separately.
//!
//! ```
//! use games::ataxx4::{PackedBoard, Position};
//! let pos = Position::startpos();
//! let packed = PackedBoard::from_position(&pos).unwrap();
//! assert_eq!(packed.to_string(), "02000c00000000000000000000000040010004");
//! assert_eq!(packed.to_string().parse::<PackedBoard>().unwrap().to_position(), pos);
//! ```

use ataxx::hex::BadGroup;
use ataxx::{Bitboard, Counters, Grid, Square};
use thiserror::Error;

use super::{Cell, Color, Position};

/// Side of the only board the encoding holds.
const SIZE: u8 = 7;
/// Cells on that board.
const CELLS: usize = 49;
/// Bits per cell.
const BITS: usize = 3;
/// Length of a packed board: 147 bits rounded up to whole bytes.
pub const PACKED_BYTES: usize = (CELLS * BITS).div_ceil(8);

const EMPTY: u8 = 0;
const BLOCK: u8 = 1;
/// Red's code; blue, green and yellow follow in turn order.
const FIRST_COLOUR: u8 = 2;

/// A position the encoding cannot hold.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EncodeError {
    #[error("the 19-byte four-player board holds 7x7 boards only; this board is {size}x{size}")]
    Size { size: u8 },
}

/// Bytes or hex text that are not a packed four-player board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeError {
    #[error("expected {PACKED_BYTES} bytes (38 hex digits), found {found}")]
    Length { found: usize },
    #[error("cell {cell} has code {code}; codes are 0 empty, 1 block, 2 r, 3 b, 4 g, 5 y")]
    Code { cell: Square, code: u8 },
    #[error(
        "the 5 bits after the last cell (bits 3-7 of byte 18) are {value:#07b}; they must be 0"
    )]
    Padding { value: u8 },
    #[error(transparent)]
    Hex(#[from] BadGroup),
}

/// A 7×7 four-player board in 19 bytes.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct PackedBoard([u8; PACKED_BYTES]);

/// The square of cell `i` in FEN order.
fn square(i: usize) -> Square {
    Square::new((i % 7) as u8, SIZE - 1 - (i / 7) as u8).expect("on the 7x7 board")
}

impl PackedBoard {
    /// Packs a position's cells (the colour to move and the counters are left out).
    pub fn from_position(pos: &Position) -> Result<PackedBoard, EncodeError> {
        let size = pos.grid().size();
        if size != SIZE {
            return Err(EncodeError::Size { size });
        }
        let mut bytes = [0u8; PACKED_BYTES];
        for i in 0..CELLS {
            let code = match pos.cell(square(i)).expect("on the board") {
                Cell::Empty => EMPTY,
                Cell::Blocked => BLOCK,
                Cell::Piece(color) => FIRST_COLOUR + color.index() as u8,
            };
            for b in 0..BITS {
                let bit = BITS * i + b;
                bytes[bit / 8] |= (code >> b & 1) << (bit % 8);
            }
        }
        Ok(PackedBoard(bytes))
    }

    /// Reads 19 bytes, refusing codes 6 and 7 and set padding bits.
    pub fn from_bytes(bytes: &[u8]) -> Result<PackedBoard, DecodeError> {
        let bytes: [u8; PACKED_BYTES] = bytes
            .try_into()
            .map_err(|_| DecodeError::Length { found: bytes.len() })?;
        let packed = PackedBoard(bytes);
        for i in 0..CELLS {
            let code = packed.code(i);
            if code > FIRST_COLOUR + 3 {
                return Err(DecodeError::Code {
                    cell: square(i),
                    code,
                });
            }
        }
        let padding = bytes[PACKED_BYTES - 1] >> (CELLS * BITS % 8);
        if padding != 0 {
            return Err(DecodeError::Padding { value: padding });
        }
        Ok(packed)
    }

    fn code(&self, i: usize) -> u8 {
        (0..BITS).fold(0, |code, b| {
            let bit = BITS * i + b;
            code | (self.0[bit / 8] >> (bit % 8) & 1) << b
        })
    }

    pub fn bytes(self) -> [u8; PACKED_BYTES] {
        self.0
    }

    /// The board with counters 0 and 1 and the first colour in play (red, unless red is out)
    /// to move, as a game on this board would continue after a full round.
    pub fn to_position(self) -> Position {
        let mut pieces = [Bitboard::EMPTY; 4];
        let mut blocked = Bitboard::EMPTY;
        for i in 0..CELLS {
            let sq = Bitboard::from_square(square(i));
            match self.code(i) {
                EMPTY => {}
                BLOCK => blocked |= sq,
                code => pieces[usize::from(code - FIRST_COLOUR)] |= sq,
            }
        }
        let turn = Color::ALL
            .into_iter()
            .find(|c| !pieces[c.index()].is_empty())
            .unwrap_or(Color::Red);
        Position::from_parts(Grid::new(SIZE, blocked), pieces, turn, Counters::START)
    }
}

// As text, 38 lower-case hex digits, read in either case with spaces between bytes.
ataxx::impl_hex_text!(PackedBoard, bytes, DecodeError);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_packs_by_hand() {
        // a7 red (2) in bits 0-2; g7 blue (3) in bits 18-20 = byte 2 bits 2-4; a1 yellow (5 =
        // 0b101) in bits 126-128 = byte 15 bit 6 and byte 16 bit 0; g1 green (4) in bits
        // 144-146 = byte 18 bit 2.
        let mut expected = [0u8; PACKED_BYTES];
        expected[0] = 0x02;
        expected[2] = 0x0c;
        expected[15] = 0x40;
        expected[16] = 0x01;
        expected[18] = 0x04;
        let packed = PackedBoard::from_position(&Position::startpos()).unwrap();
        assert_eq!(packed.bytes(), expected);
    }

    #[test]
    fn blocks_and_turn_after_decoding() {
        let pos: Position = "-5b/7/2-1-2/7/2-1-2/7/y5g b 0 1".parse().unwrap();
        let packed = PackedBoard::from_position(&pos).unwrap();
        assert_eq!(packed.bytes()[0] & 7, BLOCK);
        // Red is out, so blue has the move in the decoded position.
        assert_eq!(packed.to_position(), pos);
    }

    #[test]
    fn errors_name_the_problem() {
        let pos: Position = "r3b/5/5/5/y3g".parse().unwrap();
        assert_eq!(
            PackedBoard::from_position(&pos).unwrap_err().to_string(),
            "the 19-byte four-player board holds 7x7 boards only; this board is 5x5"
        );
        let err = |hex: &str| hex.parse::<PackedBoard>().unwrap_err().to_string();
        assert!(err("0200").contains("expected 19 bytes (38 hex digits), found 2"));
        let mut bytes = [0u8; PACKED_BYTES];
        bytes[0] = 0x06;
        assert_eq!(
            PackedBoard::from_bytes(&bytes).unwrap_err().to_string(),
            "cell a7 has code 6; codes are 0 empty, 1 block, 2 r, 3 b, 4 g, 5 y"
        );
        bytes[0] = 0;
        bytes[18] = 0x38;
        assert_eq!(
            PackedBoard::from_bytes(&bytes).unwrap_err(),
            DecodeError::Padding { value: 7 }
        );
        assert!(err("0 2000c00000000000000000000000040010004").contains("not hex bytes"));
    }
}
