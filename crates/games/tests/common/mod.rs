//! What the games' integration tests share: a seeded generator, so every run plays the same
//! games, and the plain move-tree recursion that checks the games' counters.

#![allow(dead_code)] // each test file uses a part

use games::Rules;

/// Leaves `depth` plies deep by playing every move, the last ply too: what every faster
/// counter must agree with.
pub fn plain_perft<R: Rules>(pos: &R, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    Rules::legal_moves(pos)
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            Rules::play(&mut child, mv);
            plain_perft(&child, depth - 1)
        })
        .sum()
}

/// splitmix64: a tiny seeded generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}
