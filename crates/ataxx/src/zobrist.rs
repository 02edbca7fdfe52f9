//! Zobrist hashing with one random key per (kind of content, square).
//!
//! The hash of a set of squares is the XOR of their keys. Keys are stored pre-combined per byte of
//! the bitboard (8 tables of 256 entries per kind), so hashing a whole position costs 24 loads
//! instead of one per piece, and no incremental update is needed in `play`.

use crate::{Bitboard, Color};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Content kinds: an x piece, an o piece, a wall (blocked or off-board cell).
const KINDS: usize = 3;

const fn build() -> ([[[u64; 256]; 8]; KINDS], u64) {
    let mut keys = [[0u64; 64]; KINDS];
    let mut state = 0x00A7_A770_5EED_u64;
    let mut kind = 0;
    while kind < KINDS {
        let mut sq = 0;
        while sq < 64 {
            let (s, k) = splitmix64(state);
            state = s;
            keys[kind][sq] = k;
            sq += 1;
        }
        kind += 1;
    }
    let (_, side) = splitmix64(state);
    let mut tables = [[[0u64; 256]; 8]; KINDS];
    let mut kind = 0;
    while kind < KINDS {
        let mut byte = 0;
        while byte < 8 {
            let mut value = 0;
            while value < 256 {
                let mut acc = 0;
                let mut bit = 0;
                while bit < 8 {
                    if value >> bit & 1 == 1 {
                        acc ^= keys[kind][byte * 8 + bit];
                    }
                    bit += 1;
                }
                tables[kind][byte][value] = acc;
                value += 1;
            }
            byte += 1;
        }
        kind += 1;
    }
    (tables, side)
}

static TABLES: ([[[u64; 256]; 8]; KINDS], u64) = build();

#[inline(always)]
fn hash_set(kind: usize, set: Bitboard) -> u64 {
    let table = &TABLES.0[kind];
    set.0
        .to_le_bytes()
        .iter()
        .zip(table)
        .fold(0, |acc, (&byte, keys)| acc ^ keys[byte as usize])
}

/// The hash of a board: pieces, walls and side to move (counters excluded, as in chess engines).
#[inline]
pub(crate) fn hash(x: Bitboard, o: Bitboard, walls: Bitboard, turn: Color) -> u64 {
    let side = if turn == Color::O { TABLES.1 } else { 0 };
    hash_set(0, x) ^ hash_set(1, o) ^ hash_set(2, walls) ^ side
}
