//! Mirror-symmetric layouts of blocked cells: Blocks-Config codes and 16-bit wall masks.
//!
//! Both names describe the top-left quarter of the 7×7 board (files a–d, ranks 7–4) without its
//! corner; the other three quarters mirror it across the middle file and the middle rank.
//!
//! | rank \ file | a | b | c | d |
//! |---|---|---|---|---|
//! | 7 | (corner) | `d` | `e` | `4` |
//! | 6 | `a` | `g` | `f` | `5` |
//! | 5 | `b` | `c` | `h` | `6` |
//! | 4 | `1` | `2` | `3` | `x` |
//!
//! The wall mask numbers the same cells `4·row + column` (row 0 = rank 7, column 0 = file a).
//!
//! ```
//! use ataxx::Layout;
//! let layout: Layout = "h3gx".parse().unwrap();
//! assert_eq!(layout.to_string(), "3ghx");
//! assert_eq!(layout.mask_text(), "0xC420");
//! assert_eq!(layout.blocks(), 11);
//! assert_eq!(
//!     layout.start_position().to_string(),
//!     "x5o/1-3-1/2-1-2/2---2/2-1-2/1-3-1/o5x x 0 1"
//! );
//! ```

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::{Bitboard, Position, Square};

/// Side of the only board a layout describes.
const SIZE: u8 = 7;

/// Every symbol in code order, with its wall-mask bit.
const SYMBOLS: [(char, u8); 15] = [
    ('1', 12),
    ('2', 13),
    ('3', 14),
    ('4', 3),
    ('5', 7),
    ('6', 11),
    ('a', 4),
    ('b', 8),
    ('c', 9),
    ('d', 1),
    ('e', 2),
    ('f', 6),
    ('g', 5),
    ('h', 10),
    ('x', 15),
];

/// The mask bits of `1 2 3 a b c`, the symbols that make up a code's weight, in tie-break order.
const WEIGHTED_BITS: [u8; 6] = [12, 13, 14, 4, 8, 9];

/// A layout of blocked cells on the 7×7 board, symmetric under both mirror axes, with the
/// corners free: one of the 2^15 wall masks.
///
/// `Display` writes the Blocks-Config code (`0` for no blocks) and `FromStr` reads one.
/// Layouts order as their codes do: symbol by symbol in the order `1 2 3 4 5 6 a b c d e f g h x`,
/// a code before any longer code it begins (`1` < `12` < `1x` < `2`).
///
/// ```
/// use ataxx::Layout;
/// let efh: Layout = "efh".parse().unwrap();
/// assert_eq!(efh.twin().to_string(), "bch");
/// assert_eq!(efh.canonical().to_string(), "bch");
/// assert_eq!(Layout::parse_mask("0x01a2").unwrap().to_string(), "5bdg");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Layout(u16);

/// Text that is not a Blocks-Config code.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseCodeError {
    #[error("empty Blocks-Config code: expected symbols from 123456abcdefghx, or 0 for no blocks")]
    Empty,
    #[error("Blocks-Config code {code:?}: character {position} is {found:?}; expected one of 123456abcdefghx")]
    Symbol {
        code: String,
        position: usize,
        found: char,
    },
    #[error("Blocks-Config code {code:?}: symbol {symbol:?} appears more than once")]
    Repeated { code: String, symbol: char },
    #[error("Blocks-Config code {code:?}: 0 means no blocks and stands alone")]
    ZeroWithSymbols { code: String },
}

/// A wall mask that is malformed or blocks the corner.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MaskError {
    #[error("wall mask {text:?}: expected 0x followed by 1 to 4 hex digits, such as 0x0F00")]
    Syntax { text: String },
    #[error("wall mask 0x{mask:04X} sets bit 0, the a7 corner where a player starts")]
    Corner { mask: u16 },
}

/// Blocked cells that no Blocks-Config code describes.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LayoutFromBoardError {
    #[error("Blocks-Config codes describe 7x7 boards; this board is {size}x{size}")]
    Size { size: u8 },
    #[error("the corner {corner} is blocked; Blocks-Config layouts keep the corners free for the players")]
    Corner { corner: Square },
    #[error("the blocked cells are not mirror-symmetric: {blocked} is blocked but its mirror image {open} is not")]
    Asymmetric { blocked: Square, open: Square },
}

const fn mask_bit(row: u8, column: u8) -> u8 {
    4 * row + column
}

/// The 7×7 square of quarter cell (`row`, `column`): row 0 is rank 7.
fn quarter_square(row: u8, column: u8) -> Square {
    Square::new(column, SIZE - 1 - row).expect("the quarter lies on the board")
}

/// The square and its images across the middle file, the middle rank, and both.
fn mirror_images(sq: Square) -> [Square; 4] {
    let (f, r) = (sq.file(), sq.rank());
    let (mf, mr) = (SIZE - 1 - f, SIZE - 1 - r);
    [(f, r), (mf, r), (f, mr), (mf, mr)].map(|(f, r)| Square::new(f, r).expect("on the board"))
}

impl Layout {
    /// No blocked cells: code `0`, mask `0x0000`.
    pub const EMPTY: Layout = Layout(0);

    /// Number of layouts: one per wall mask with bit 0 clear.
    pub const COUNT: usize = 1 << 15;

    /// The layout of a wall mask; bit 0 (the corner) must be clear.
    pub const fn from_mask(mask: u16) -> Result<Layout, MaskError> {
        if mask & 1 != 0 {
            Err(MaskError::Corner { mask })
        } else {
            Ok(Layout(mask))
        }
    }

    /// Reads a wall mask written `0x` and 1–4 hex digits, in either case (`0x0F00`, `0xf00`).
    pub fn parse_mask(text: &str) -> Result<Layout, MaskError> {
        let syntax = || MaskError::Syntax {
            text: text.to_string(),
        };
        let digits = text
            .strip_prefix("0x")
            .or_else(|| text.strip_prefix("0X"))
            .ok_or_else(syntax)?;
        if !(1..=4).contains(&digits.len()) || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(syntax());
        }
        let mask = u16::from_str_radix(digits, 16).map_err(|_| syntax())?;
        Layout::from_mask(mask)
    }

    /// The 16-bit wall mask.
    pub const fn mask(self) -> u16 {
        self.0
    }

    /// The wall mask as `0x` and four upper-case hex digits, e.g. `0x0F00`.
    pub fn mask_text(self) -> String {
        format!("0x{:04X}", self.0)
    }

    /// Every layout, by increasing mask.
    pub fn all() -> impl Iterator<Item = Layout> {
        (0..=u16::MAX).step_by(2).map(Layout)
    }

    /// The symbols of the code, in code order (none for the empty layout).
    pub fn symbols(self) -> impl Iterator<Item = char> {
        SYMBOLS
            .into_iter()
            .filter(move |&(_, bit)| self.0 >> bit & 1 != 0)
            .map(|(symbol, _)| symbol)
    }

    /// The mirror image across the a7–g1 diagonal: `1 2 3 a b c` trade places with
    /// `4 5 6 d e f`; `g h x` stay. On the quarter this swaps rows and columns.
    pub const fn twin(self) -> Layout {
        let mut out = 0;
        let mut row = 0;
        while row < 4 {
            let mut column = 0;
            while column < 4 {
                if self.0 >> mask_bit(row, column) & 1 != 0 {
                    out |= 1 << mask_bit(column, row);
                }
                column += 1;
            }
            row += 1;
        }
        Layout(out)
    }

    /// How many of `1 2 3 a b c` the code holds.
    pub fn weight(self) -> u32 {
        WEIGHTED_BITS
            .iter()
            .filter(|&&bit| self.0 >> bit & 1 != 0)
            .count() as u32
    }

    /// The preferred code of a twin pair: the higher weight; on equal weight, the code whose
    /// weighted symbols come first when compared one by one in the order `1 2 3 a b c`.
    ///
    /// (Seed 000's rule says "lower weight", but all of its worked examples, which its readers
    /// use, pick the higher one; the spec follows the examples.)
    pub fn canonical(self) -> Layout {
        let twin = self.twin();
        if twin.preference() > self.preference() {
            twin
        } else {
            self
        }
    }

    /// Whether this code is the preferred one of its twin pair.
    pub fn is_canonical(self) -> bool {
        self.canonical() == self
    }

    /// Ranks a code against its twin, higher preferred. Twins of equal weight hold weighted sets
    /// of equal size; the first differing symbol of their sorted lists is the smallest symbol in
    /// one set but not the other, so reading the weighted symbols as binary digits, `1` the most
    /// significant, ranks the one holding it higher.
    fn preference(self) -> (u32, u8) {
        let digits = WEIGHTED_BITS
            .iter()
            .fold(0u8, |acc, &bit| acc << 1 | (self.0 >> bit & 1) as u8);
        (self.weight(), digits)
    }

    /// The blocked cells of the 7×7 board.
    pub fn blocked(self) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for row in 0..4 {
            for column in 0..4 {
                if self.0 >> mask_bit(row, column) & 1 != 0 {
                    for sq in mirror_images(quarter_square(row, column)) {
                        out |= Bitboard::from_square(sq);
                    }
                }
            }
        }
        out
    }

    /// Number of blocked cells: 2 per digit, 4 per letter `a`–`h`, 1 for `x`.
    pub fn blocks(self) -> u32 {
        self.blocked().count()
    }

    /// The conventional 7×7 start position with these blocks.
    pub fn start_position(self) -> Position {
        Position::start(SIZE, self.blocked()).expect("a layout never blocks a corner")
    }

    /// The layout of a position's blocked cells, if they have both mirror symmetries and free
    /// corners on a 7×7 board. Pieces are ignored.
    ///
    /// ```
    /// use ataxx::{Layout, Position};
    /// let pos: Position = "x5o/7/-------/7/-------/7/o5x x 0 1".parse().unwrap();
    /// assert_eq!(Layout::from_position(&pos).unwrap().to_string(), "6bch");
    /// let lopsided: Position = "x5o/1-5/7/7/7/7/o5x".parse().unwrap();
    /// assert!(Layout::from_position(&lopsided).is_err());
    /// ```
    pub fn from_position(pos: &Position) -> Result<Layout, LayoutFromBoardError> {
        if pos.size() != SIZE {
            return Err(LayoutFromBoardError::Size { size: pos.size() });
        }
        let blocked = pos.blocked();
        if let Some(corner) = mirror_images(quarter_square(0, 0))
            .into_iter()
            .find(|&sq| blocked.contains(sq))
        {
            return Err(LayoutFromBoardError::Corner { corner });
        }
        for sq in blocked {
            if let Some(open) = mirror_images(sq)
                .into_iter()
                .find(|&image| !blocked.contains(image))
            {
                return Err(LayoutFromBoardError::Asymmetric { blocked: sq, open });
            }
        }
        let mut mask = 0;
        for row in 0..4 {
            for column in 0..4 {
                if blocked.contains(quarter_square(row, column)) {
                    mask |= 1 << mask_bit(row, column);
                }
            }
        }
        Ok(Layout(mask))
    }
}

impl FromStr for Layout {
    type Err = ParseCodeError;

    /// Reads a code with its symbols in any order, each at most once (letters in either case),
    /// or `0`.
    fn from_str(code: &str) -> Result<Layout, ParseCodeError> {
        match code {
            "" => return Err(ParseCodeError::Empty),
            "0" => return Ok(Layout::EMPTY),
            _ => {}
        }
        let mut mask = 0u16;
        for (index, found) in code.chars().enumerate() {
            let symbol = found.to_ascii_lowercase();
            let Some(&(_, bit)) = SYMBOLS.iter().find(|&&(s, _)| s == symbol) else {
                return Err(if found == '0' {
                    ParseCodeError::ZeroWithSymbols {
                        code: code.to_string(),
                    }
                } else {
                    ParseCodeError::Symbol {
                        code: code.to_string(),
                        position: index + 1,
                        found,
                    }
                });
            };
            if mask >> bit & 1 != 0 {
                return Err(ParseCodeError::Repeated {
                    code: code.to_string(),
                    symbol,
                });
            }
            mask |= 1 << bit;
        }
        Ok(Layout(mask))
    }
}

impl fmt::Display for Layout {
    /// The code in symbol order, `0` when nothing is blocked. Never the twin: use
    /// [`Layout::canonical`] first for the preferred name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("0");
        }
        self.symbols()
            .try_for_each(|symbol| fmt::Write::write_char(f, symbol))
    }
}

impl Ord for Layout {
    fn cmp(&self, other: &Layout) -> Ordering {
        self.symbols().cmp(other.symbols())
    }
}

impl PartialOrd for Layout {
    fn partial_cmp(&self, other: &Layout) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn code(text: &str) -> Layout {
        text.parse().unwrap()
    }

    #[test]
    fn each_symbol_sets_its_mask_bit() {
        let table = "d e 4 a g f 5 b c h 6 1 2 3 x";
        for (bit, symbol) in (1..).zip(table.split(' ')) {
            assert_eq!(code(symbol).mask(), 1 << bit, "{symbol}");
            assert_eq!(Layout::from_mask(1 << bit).unwrap().to_string(), symbol);
        }
    }

    #[test]
    fn fen_examples_from_the_spec() {
        let table = [
            ("0", 0x0000, 0, "x5o/7/7/7/7/7/o5x x 0 1"),
            ("h", 0x0400, 4, "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"),
            (
                "3ghx",
                0xC420,
                11,
                "x5o/1-3-1/2-1-2/2---2/2-1-2/1-3-1/o5x x 0 1",
            ),
            ("6bch", 0x0F00, 14, "x5o/7/-------/7/-------/7/o5x x 0 1"),
            (
                "123456",
                0x7888,
                12,
                "x2-2o/3-3/3-3/---1---/3-3/3-3/o2-2x x 0 1",
            ),
        ];
        for (text, mask, blocks, fen) in table {
            let layout = code(text);
            assert_eq!(layout.mask(), mask, "{text}");
            assert_eq!(layout.blocks(), blocks, "{text}");
            assert_eq!(layout.start_position().to_string(), fen, "{text}");
            let pos: Position = fen.parse().unwrap();
            assert_eq!(Layout::from_position(&pos), Ok(layout), "{fen}");
            assert_eq!(layout.to_string(), text);
        }
    }

    #[test]
    fn seed_002_masks_decode_to_their_codes() {
        let mask = |text| Layout::parse_mask(text).unwrap();
        assert_eq!(mask("0x7888").to_string(), "123456");
        let l = mask("0x01A2");
        assert_eq!(
            (l.to_string(), l.canonical().to_string()),
            ("5bdg".into(), "2aeg".into())
        );
        let l = mask("0x8124");
        assert_eq!(l.to_string(), "begx");
        assert_eq!(l.twin(), l);
        assert_eq!(code("6bch").mask_text(), "0x0F00");
        assert_eq!(mask("0xf00"), mask("0X0F00"));
        assert_eq!(mask("0x0"), Layout::EMPTY);
    }

    #[test]
    fn twins_weights_and_preferences_from_seed_000() {
        assert_eq!(code("bch").twin(), code("efh"));
        assert_eq!((code("bch").weight(), code("efh").weight()), (2, 0));
        assert_eq!(code("2fg").twin(), code("5cg"));
        assert_eq!(code("35chx").twin(), code("26fhx"));
        assert_eq!(code("62fhx"), code("26fhx"));
        let preferred = [
            ("bch", "efh"),
            ("2fh", "5ch"),
            ("5ac", "2df"),
            ("15chx", "24fhx"),
            ("afg", "cdg"),
            ("156a", "234d"),
            ("3h", "6h"),
            ("2fg", "5cg"),
            ("35chx", "26fhx"),
        ];
        for (good, other) in preferred {
            assert_eq!(
                code(other).twin(),
                code(good),
                "{good} and {other} are twins"
            );
            assert_eq!(code(good).canonical(), code(good), "{good}");
            assert_eq!(code(other).canonical(), code(good), "{other}");
        }
        for own_twin in ["ghx", "0", "14", "25", "36"] {
            assert_eq!(code(own_twin).twin(), code(own_twin));
        }
    }

    #[test]
    fn block_counts_from_seed_000() {
        assert_eq!(code("3bhx").blocks(), 11);
        assert_eq!(code("2bg").blocks(), 10);
    }

    #[test]
    fn the_seed_lists_the_canonical_codes_with_fewest_blocks() {
        let listed = [
            "0",
            "x",
            "1 2 3",
            "1x 2x 3x",
            "12 13 14 15 16 23 25 26 36 a b c g h",
        ];
        for (blocks, expected) in listed.into_iter().enumerate() {
            let mut found: Vec<Layout> = Layout::all()
                .filter(|l| l.is_canonical() && l.blocks() == blocks as u32)
                .collect();
            found.sort();
            let text: Vec<String> = found.iter().map(Layout::to_string).collect();
            assert_eq!(text.join(" "), expected, "{blocks} blocks");
        }
    }

    #[test]
    fn counts_over_all_layouts() {
        assert_eq!(Layout::all().count(), Layout::COUNT);
        assert_eq!(Layout::all().filter(|l| l.is_canonical()).count(), 16_640);
        assert_eq!(Layout::all().filter(|l| l.twin() == *l).count(), 512);
        let at_most_6 = Layout::all().filter(|l| l.mask().count_ones() <= 6);
        assert_eq!(at_most_6.count(), 9_949);
    }

    #[test]
    fn eight_bits_are_the_fewest_that_end_the_game_at_once() {
        let over: Vec<Layout> = Layout::all()
            .filter(|l| l.mask().count_ones() <= 8 && l.start_position().is_game_over())
            .collect();
        assert_eq!(over, [code("abcdefgh")]);
        assert_eq!(over[0].mask(), 0x0776);
    }

    #[test]
    fn code_errors_name_the_problem() {
        let err = |s: &str| s.parse::<Layout>().unwrap_err();
        assert_eq!(err(""), ParseCodeError::Empty);
        assert!(matches!(
            err("12z"),
            ParseCodeError::Symbol {
                position: 3,
                found: 'z',
                ..
            }
        ));
        assert!(matches!(
            err("1a1"),
            ParseCodeError::Repeated { symbol: '1', .. }
        ));
        assert!(matches!(
            err("aA"),
            ParseCodeError::Repeated { symbol: 'a', .. }
        ));
        assert!(matches!(err("0x"), ParseCodeError::ZeroWithSymbols { .. }));
        assert!(matches!(err("x0"), ParseCodeError::ZeroWithSymbols { .. }));
        assert!(matches!(
            err("7"),
            ParseCodeError::Symbol { found: '7', .. }
        ));
        assert_eq!(code("XHG3"), code("3ghx"));
    }

    #[test]
    fn mask_errors_name_the_problem() {
        for bad in ["", "0x", "0x12345", "F00", "0xg0", "0x+f", " 0x0F00"] {
            assert!(
                matches!(Layout::parse_mask(bad), Err(MaskError::Syntax { .. })),
                "{bad:?}"
            );
        }
        assert_eq!(
            Layout::parse_mask("0x0777"),
            Err(MaskError::Corner { mask: 0x0777 })
        );
    }

    #[test]
    fn boards_without_a_code_are_refused_with_the_reason() {
        let layout = |fen: &str| Layout::from_position(&fen.parse().unwrap());
        assert_eq!(
            layout("x6o/8/8/8/8/8/8/o6x"),
            Err(LayoutFromBoardError::Size { size: 8 })
        );
        assert_eq!(
            layout("-5-/7/7/7/7/7/-5-"),
            Err(LayoutFromBoardError::Corner {
                corner: "a7".parse().unwrap()
            })
        );
        assert_eq!(
            layout("x5o/7/2-4/7/2-1-2/7/o5x"),
            Err(LayoutFromBoardError::Asymmetric {
                blocked: "c3".parse().unwrap(),
                open: "e5".parse().unwrap()
            })
        );
    }

    fn any_layout() -> impl Strategy<Value = Layout> {
        (0..=u16::MAX).prop_map(|mask| Layout(mask & !1))
    }

    proptest! {
        #[test]
        fn code_and_mask_round_trip(layout in any_layout()) {
            prop_assert_eq!(layout.to_string().parse::<Layout>(), Ok(layout));
            prop_assert_eq!(Layout::parse_mask(&layout.mask_text()), Ok(layout));
            let pos = layout.start_position();
            prop_assert_eq!(Layout::from_position(&pos), Ok(layout));
        }

        #[test]
        fn twins_pair_up_and_share_one_canonical_code(layout in any_layout()) {
            prop_assert_eq!(layout.twin().twin(), layout);
            prop_assert_eq!(layout.canonical().canonical(), layout.canonical());
            prop_assert_eq!(layout.twin().canonical(), layout.canonical());
            prop_assert!(layout.canonical().weight() >= layout.canonical().twin().weight());
            prop_assert_eq!(layout.twin().blocks(), layout.blocks());
        }

        #[test]
        fn block_count_follows_the_symbol_rule(layout in any_layout()) {
            let rule: u32 = layout
                .symbols()
                .map(|s| match s { '1'..='6' => 2, 'x' => 1, _ => 4 })
                .sum();
            prop_assert_eq!(layout.blocks(), rule);
        }

        #[test]
        fn readers_never_panic(text in "\\PC{0,20}", near_code in "[0-9a-zA-Z]{0,17}") {
            let _ = text.parse::<Layout>();
            let _ = Layout::parse_mask(&text);
            let _ = near_code.parse::<Layout>();
        }

        #[test]
        fn mask_text_of_any_case_reads(text in "0[xX][0-9a-fA-F]{1,4}") {
            let value = u16::from_str_radix(&text[2..], 16).unwrap();
            let read = Layout::parse_mask(&text);
            prop_assert_eq!(read.is_ok(), value & 1 == 0);
        }
    }
}
