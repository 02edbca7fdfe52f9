//! The pyramid of cells for one board size: cell indices and the precomputed neighbour tables.
//!
//! A cell is (a, b, c), integers ≥ 0 with a + b + c ≤ n − 1, at level n − 1 − (a + b + c). Cells
//! are indexed in position-text order (by level from 0 up, then by letter, then by number), so
//! a set of cells is a `u128` (T(8) = 120 cells).

use std::sync::OnceLock;

use super::cell::{Cell, MAX_SIZE, MIN_SIZE};

/// A set of cells of one pyramid, bit i = cell index i.
pub(crate) type Cells = u128;

/// No cell (outside the pyramid).
pub(crate) const NONE: u8 = u8::MAX;

/// Iterates over the indices of a set's cells, lowest first.
pub(crate) fn bits(mut set: Cells) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(i)
    })
}

/// T(n) = n(n + 1)(n + 2) / 6, the cells of a full pyramid.
pub const fn tetrahedral(n: u8) -> usize {
    let n = n as usize;
    n * (n + 1) * (n + 2) / 6
}

/// The tables of one board size.
#[derive(Debug)]
pub(crate) struct Pyramid {
    pub n: u8,
    /// T(n).
    pub len: usize,
    /// (a, b, c) of each cell.
    pub abc: Vec<[u8; 3]>,
    pub level: Vec<u8>,
    pub label: Vec<Cell>,
    /// Index of (a, b, c), or [`NONE`].
    index: Vec<u8>,
    /// The three cells a cell rests on (empty at level 0).
    pub supports: Vec<Cells>,
    /// P − e_i for i = a, b, c, or [`NONE`].
    pub above: Vec<[u8; 3]>,
    pub above_set: Vec<Cells>,
    /// Supports ∪ above: the cells sharing a face.
    pub connected: Vec<Cells>,
    /// Connected ∪ adjacent (same level, sharing an edge): one step of a cube's path.
    pub steps: Vec<Cells>,
    pub ground: Cells,
    pub all: Cells,
    /// Cells with a = 0, b = 0, c = 0 (the three sides).
    pub sides: [Cells; 3],
    /// Cells at level ℓ or lower, per ℓ.
    pub up_to_level: Vec<Cells>,
}

impl Pyramid {
    fn build(n: u8) -> Pyramid {
        let len = tetrahedral(n);
        let mut abc = Vec::with_capacity(len);
        let mut level = Vec::with_capacity(len);
        let mut label = Vec::with_capacity(len);
        let mut index = vec![NONE; 512];
        for l in 0..n {
            for letter in l..n {
                for number in l + 1..=letter + 1 {
                    let b = n - 1 - letter;
                    let a = letter + 1 - number;
                    let c = n - 1 - a - b - l;
                    index[usize::from(a) * 64 + usize::from(b) * 8 + usize::from(c)] =
                        abc.len() as u8;
                    abc.push([a, b, c]);
                    level.push(l);
                    label.push(Cell::new(letter, number, l).expect("a pyramid cell"));
                }
            }
        }
        debug_assert_eq!(abc.len(), len);
        let at = |p: [i16; 3]| -> u8 {
            if p.iter().any(|&x| x < 0) || p.iter().sum::<i16>() > i16::from(n) - 1 {
                NONE
            } else {
                index[p[0] as usize * 64 + p[1] as usize * 8 + p[2] as usize]
            }
        };
        let bit = |i: u8| -> Cells {
            if i == NONE {
                0
            } else {
                1 << i
            }
        };
        let mut pyr = Pyramid {
            n,
            len,
            abc: abc.clone(),
            level,
            label,
            index: index.clone(),
            supports: vec![0; len],
            above: vec![[NONE; 3]; len],
            above_set: vec![0; len],
            connected: vec![0; len],
            steps: vec![0; len],
            ground: 0,
            all: 0,
            sides: [0; 3],
            up_to_level: vec![0; usize::from(n)],
        };
        for (i, p) in abc.iter().enumerate() {
            let p = p.map(i16::from);
            let unit = |k: usize| {
                let mut e = [0i16; 3];
                e[k] = 1;
                e
            };
            let plus = |k: usize| [p[0] + unit(k)[0], p[1] + unit(k)[1], p[2] + unit(k)[2]];
            let minus = |k: usize| [p[0] - unit(k)[0], p[1] - unit(k)[1], p[2] - unit(k)[2]];
            if pyr.level[i] > 0 {
                pyr.supports[i] = (0..3).map(|k| bit(at(plus(k)))).fold(0, |s, b| s | b);
            } else {
                pyr.ground |= 1 << i;
            }
            for (k, &coord) in p.iter().enumerate() {
                pyr.above[i][k] = at(minus(k));
                pyr.above_set[i] |= bit(at(minus(k)));
                if coord == 0 {
                    pyr.sides[k] |= 1 << i;
                }
            }
            let mut adjacent = 0;
            for k in 0..3 {
                for j in 0..3 {
                    if k != j {
                        let q = plus(k);
                        adjacent |= bit(at([
                            q[0] - unit(j)[0],
                            q[1] - unit(j)[1],
                            q[2] - unit(j)[2],
                        ]));
                    }
                }
            }
            pyr.connected[i] = pyr.supports[i] | pyr.above_set[i];
            pyr.steps[i] = pyr.connected[i] | adjacent;
            pyr.all |= 1 << i;
            for l in usize::from(pyr.level[i])..usize::from(n) {
                pyr.up_to_level[l] |= 1 << i;
            }
        }
        pyr
    }

    /// The index of a labelled cell, if it lies in this pyramid.
    pub fn index_of(&self, cell: Cell) -> Option<usize> {
        if cell.letter() >= self.n {
            return None;
        }
        let b = self.n - 1 - cell.letter();
        let a = cell.letter() + 1 - cell.number();
        let c = self.n - 1 - a - b - cell.level();
        Some(usize::from(
            self.index[usize::from(a) * 64 + usize::from(b) * 8 + usize::from(c)],
        ))
    }
}

/// The tables for board size `n` (3 to 8), built on first use.
pub(crate) fn pyramid(n: u8) -> &'static Pyramid {
    static ALL: OnceLock<Vec<Pyramid>> = OnceLock::new();
    let all = ALL.get_or_init(|| (MIN_SIZE..=MAX_SIZE).map(Pyramid::build).collect());
    &all[usize::from(n - MIN_SIZE)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_labels() {
        let p = pyramid(6);
        assert_eq!(p.len, 56);
        let per_level: Vec<usize> = (0..6)
            .map(|l| p.level.iter().filter(|&&x| x == l).count())
            .collect();
        assert_eq!(per_level, [21, 15, 10, 6, 3, 1]);
        let names: Vec<String> = p.label[..7].iter().map(Cell::to_string).collect();
        assert_eq!(names, ["a1", "b1", "b2", "c1", "c2", "c3", "d1"]);
        assert_eq!(p.label[55].to_string(), "f6'''''");
        let d3 = p.index_of("d3'".parse().unwrap()).unwrap();
        let rests: Vec<String> = bits(p.supports[d3])
            .map(|i| p.label[i].to_string())
            .collect();
        assert_eq!(rests, ["c2", "d2", "d3"]);
        for n in MIN_SIZE..=MAX_SIZE {
            let p = pyramid(n);
            for i in 0..p.len {
                assert_eq!(p.index_of(p.label[i]), Some(i));
                assert!((p.steps[i] & !p.connected[i]).count_ones() <= 6);
                assert!(p.connected[i].count_ones() <= 6);
            }
        }
    }
}
