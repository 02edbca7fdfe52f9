//! The win test: a connected group of one colour touching all three sides low enough.

use super::cell::Cell;
use super::position::{Colour, Position};
use super::pyramid::{bits, Cells};

impl Position {
    /// The cells that count as touching each side: coordinate 0 on that side and level ≤ H
    /// (any level for H = −1).
    pub(crate) fn side_targets(&self) -> [Cells; 3] {
        let pyr = self.pyr;
        let low = match self.win_height {
            -1 => pyr.all,
            h => pyr.up_to_level[h as usize],
        };
        pyr.sides.map(|s| s & low)
    }

    /// Whether a colour has a component (cubes joined by shared faces, covered cubes
    /// included) that touches all three sides.
    pub fn has_winning_path(&self, colour: Colour) -> bool {
        self.winning_group(colour) != 0
    }

    /// The cells of a colour's first component that touches all three sides (the browser
    /// highlights it), empty if it has none.
    pub fn winning_path(&self, colour: Colour) -> Vec<Cell> {
        bits(self.winning_group(colour))
            .map(|i| self.pyr.label[i])
            .collect()
    }

    /// A component of `colour` touching all three sides, or 0.
    fn winning_group(&self, colour: Colour) -> Cells {
        let pyr = self.pyr;
        let mine = self.cubes[colour.index()];
        let [a, b, c] = self.side_targets();
        if mine & a == 0 || mine & b == 0 || mine & c == 0 {
            return 0;
        }
        let mut unseen = mine & a;
        while unseen != 0 {
            let seed: Cells = 1 << unseen.trailing_zeros();
            let mut group = seed;
            let mut frontier = seed;
            while frontier != 0 {
                let mut next = 0;
                for i in bits(frontier) {
                    next |= pyr.connected[i];
                }
                frontier = next & mine & !group;
                group |= frontier;
            }
            if group & b != 0 && group & c != 0 {
                return group;
            }
            unseen &= !group;
        }
        0
    }

    /// Who has won after `mover`'s move: the mover if they have a winning path (even when the
    /// opponent has one too), else the opponent if they have one.
    pub(crate) fn decide_winner(&self, mover: Colour) -> Option<Colour> {
        [mover, mover.opponent()]
            .into_iter()
            .find(|&c| self.has_winning_path(c))
    }
}
