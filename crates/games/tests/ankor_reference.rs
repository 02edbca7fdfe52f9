//! Ankor against an independent brute-force reference written here from the spec alone: a plain
//! 3-D array, no code shared with the library. Over 320 seeded random games (sizes 3 to 6, win
//! heights 1, 0 and −1) the legal-move sets, the winners and the game ends agree move by move.

use games::ankor::Position;
use games::Rules;

/// xorshift64*: the games' only source of chance.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const EMPTY: u8 = 0;
const O: u8 = 1;
const X: u8 = 2;

type Board = [[[u8; 8]; 8]; 8];
type P = (i32, i32, i32);

/// The reference game: board[a][b][c], the rules of spec sections 2 to 4 by brute force.
#[derive(Clone)]
struct Ref {
    n: i32,
    h: i32,
    board: Board,
    side: u8,
    reserves: [u32; 3],
    ply: u32,
    passes: u32,
    /// (board, side) since the last placement or swap, the current one included.
    seen: Vec<(Board, u8)>,
    winner: u8,
    repeated: bool,
}

impl Ref {
    fn new(n: i32, h: i32) -> Ref {
        let t = n * (n + 1) * (n + 2) / 6;
        let r = ((t + 1) / 2) as u32;
        let board = [[[EMPTY; 8]; 8]; 8];
        Ref {
            n,
            h,
            board,
            side: O,
            reserves: [0, r, r],
            ply: 0,
            passes: 0,
            seen: vec![(board, O)],
            winner: 0,
            repeated: false,
        }
    }

    fn inside(&self, p: P) -> bool {
        p.0 >= 0 && p.1 >= 0 && p.2 >= 0 && p.0 + p.1 + p.2 < self.n
    }

    fn get(&self, p: P) -> u8 {
        if self.inside(p) {
            self.board[p.0 as usize][p.1 as usize][p.2 as usize]
        } else {
            EMPTY
        }
    }

    fn set(&mut self, p: P, v: u8) {
        self.board[p.0 as usize][p.1 as usize][p.2 as usize] = v;
    }

    fn level(&self, p: P) -> i32 {
        self.n - 1 - p.0 - p.1 - p.2
    }

    fn cells(&self) -> Vec<P> {
        let mut v = Vec::new();
        for a in 0..self.n {
            for b in 0..self.n {
                for c in 0..self.n {
                    if a + b + c < self.n {
                        v.push((a, b, c));
                    }
                }
            }
        }
        v
    }

    fn label(&self, p: P) -> String {
        let letter = (b'a' + (self.n - 1 - p.1) as u8) as char;
        format!(
            "{letter}{}{}",
            self.n - p.0 - p.1,
            "'".repeat(self.level(p) as usize)
        )
    }

    fn supports(&self, p: P) -> Vec<P> {
        if self.level(p) == 0 {
            return vec![];
        }
        vec![
            (p.0 + 1, p.1, p.2),
            (p.0, p.1 + 1, p.2),
            (p.0, p.1, p.2 + 1),
        ]
    }

    fn aboves(&self, p: P) -> Vec<P> {
        [
            (p.0 - 1, p.1, p.2),
            (p.0, p.1 - 1, p.2),
            (p.0, p.1, p.2 - 1),
        ]
        .into_iter()
        .filter(|&q| self.inside(q))
        .collect()
    }

    fn faces(&self, p: P) -> Vec<P> {
        let mut v = self.supports(p);
        v.extend(self.aboves(p));
        v
    }

    fn adjacent(&self, p: P) -> Vec<P> {
        let e = |i: usize| -> P {
            match i {
                0 => (1, 0, 0),
                1 => (0, 1, 0),
                _ => (0, 0, 1),
            }
        };
        let mut v = Vec::new();
        for i in 0..3 {
            for j in 0..3 {
                if i != j {
                    let q = (
                        p.0 + e(i).0 - e(j).0,
                        p.1 + e(i).1 - e(j).1,
                        p.2 + e(i).2 - e(j).2,
                    );
                    if self.inside(q) {
                        v.push(q);
                    }
                }
            }
        }
        v
    }

    fn supported(&self, p: P) -> bool {
        self.supports(p).iter().all(|&q| self.get(q) != EMPTY)
    }

    /// The column resting on `s`, or `None` if more than one above-cell is occupied.
    fn column(&self, s: P) -> Option<Vec<P>> {
        let occupied: Vec<P> = self
            .aboves(s)
            .into_iter()
            .filter(|&q| self.get(q) != EMPTY)
            .collect();
        match occupied.len() {
            0 => Some(vec![]),
            1 => {
                let d = (
                    s.0 - occupied[0].0,
                    s.1 - occupied[0].1,
                    s.2 - occupied[0].2,
                );
                let mut col = vec![];
                let mut q = occupied[0];
                while self.inside(q) && self.get(q) != EMPTY {
                    col.push(q);
                    q = (q.0 - d.0, q.1 - d.1, q.2 - d.2);
                }
                Some(col)
            }
            _ => None,
        }
    }

    fn over(&self) -> bool {
        self.winner != 0 || self.repeated || self.passes >= 2
    }

    fn legal(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.over() {
            return out;
        }
        let cells = self.cells();
        if self.reserves[self.side as usize] > 0 {
            for &p in &cells {
                if self.level(p) == 0 && self.get(p) == EMPTY {
                    out.push(self.label(p));
                }
            }
        }
        if self.ply == 1 && self.side == X {
            out.push("swap".to_string());
        }
        for &s in &cells {
            if self.get(s) != self.side {
                continue;
            }
            let Some(col) = self.column(s) else { continue };
            // Cells reachable from s through own cubes outside the column.
            let mut reached = vec![s];
            let mut k = 0;
            while k < reached.len() {
                let f = reached[k];
                k += 1;
                let mut next = self.faces(f);
                next.extend(self.adjacent(f));
                for q in next {
                    if self.get(q) == self.side && !col.contains(&q) && !reached.contains(&q) {
                        reached.push(q);
                    }
                }
            }
            for &d in &cells {
                if d == s || self.get(d) != EMPTY || !self.supported(d) {
                    continue;
                }
                if self.supports(d).iter().any(|q| *q == s || col.contains(q)) {
                    continue;
                }
                let next_to_path = reached
                    .iter()
                    .any(|&f| self.faces(f).contains(&d) || self.adjacent(f).contains(&d));
                if next_to_path {
                    out.push(format!("{}-{}", self.label(s), self.label(d)));
                }
            }
        }
        if out.is_empty() {
            out.push("0000".to_string());
        }
        out
    }

    fn cell_of(&self, label: &str) -> P {
        self.cells()
            .into_iter()
            .find(|&p| self.label(p) == label)
            .expect("a label of this board")
    }

    fn play(&mut self, mv: &str) {
        let me = self.side;
        self.ply += 1;
        if mv == "swap" {
            self.passes = 0;
            self.seen = vec![(self.board, self.side)];
            return;
        }
        if mv == "0000" {
            self.passes += 1;
        } else if let Some((from, to)) = mv.split_once('-') {
            let (s, d) = (self.cell_of(from), self.cell_of(to));
            let col = self.column(s).expect("a movable cube");
            self.set(s, EMPTY);
            let mut below = s;
            for q in col {
                let v = self.get(q);
                self.set(below, v);
                self.set(q, EMPTY);
                below = q;
            }
            self.set(d, me);
            self.passes = 0;
        } else {
            let p = self.cell_of(mv);
            self.set(p, me);
            self.reserves[me as usize] -= 1;
            self.passes = 0;
            self.seen.clear();
        }
        self.side = if me == O { X } else { O };
        self.seen.push((self.board, self.side));
        let now = (self.board, self.side);
        self.repeated = self.seen.iter().filter(|&&e| e == now).count() >= 3;
        if mv != "0000" {
            let other = self.side;
            self.winner = if self.wins(me) {
                me
            } else if self.wins(other) {
                other
            } else {
                0
            };
        }
    }

    fn wins(&self, colour: u8) -> bool {
        let low = |p: P| self.h == -1 || self.level(p) <= self.h;
        let mut done: Vec<P> = Vec::new();
        for start in self.cells() {
            if self.get(start) != colour || done.contains(&start) {
                continue;
            }
            let mut group = vec![start];
            let mut k = 0;
            while k < group.len() {
                let f = group[k];
                k += 1;
                for q in self.faces(f) {
                    if self.get(q) == colour && !group.contains(&q) {
                        group.push(q);
                    }
                }
            }
            let touches = |side: usize| {
                group.iter().any(|&p| {
                    let coord = [p.0, p.1, p.2][side];
                    coord == 0 && low(p)
                })
            };
            if touches(0) && touches(1) && touches(2) {
                return true;
            }
            done.extend(group);
        }
        false
    }

    fn physically_valid(&self) -> bool {
        self.cells()
            .into_iter()
            .all(|p| self.get(p) == EMPTY || self.supported(p))
    }
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn random_games_agree_with_the_brute_force_reference() {
    let mut rng = Rng(0x00a1_b2c3_d4e5_f607);
    let mut plies = 0usize;
    let mut endings = [0usize; 4]; // won, repetition, deadlock, cut off at 160 plies
    let mut moves_of_cubes = 0usize;
    for game in 0..320 {
        let n = 3 + (game % 4) as u8;
        let h = [1i8, 0, -1][game / 4 % 3];
        let mut pos = Position::new(n, h).unwrap();
        let mut reference = Ref::new(i32::from(n), i32::from(h));
        for ply in 0..160 {
            let ours = sorted(
                Rules::legal_moves(&pos)
                    .iter()
                    .map(ToString::to_string)
                    .collect(),
            );
            let theirs = sorted(reference.legal());
            assert_eq!(ours, theirs, "game {game} ply {ply}: {pos}");
            assert_eq!(
                pos.winner().map(|c| c.char()),
                match reference.winner {
                    O => Some('o'),
                    X => Some('x'),
                    _ => None,
                },
                "game {game} ply {ply}: {pos}"
            );
            assert_eq!(Rules::outcome(&pos).is_some(), reference.over());
            assert!(reference.physically_valid());
            if ours.is_empty() {
                endings[if reference.winner != 0 {
                    0
                } else if reference.repeated {
                    1
                } else {
                    2
                }] += 1;
                break;
            }
            if ply == 159 {
                endings[3] += 1;
            }
            // Placements a third of the time when there are any, to build stacks and fill up.
            let places: Vec<&String> = ours
                .iter()
                .filter(|m| !m.contains('-') && m.as_str() != "swap" && m.as_str() != "0000")
                .collect();
            let chosen = if !places.is_empty() && rng.below(3) == 0 {
                places[rng.below(places.len())].clone()
            } else {
                ours[rng.below(ours.len())].clone()
            };
            moves_of_cubes += usize::from(chosen.contains('-'));
            let mv = pos.parse_move(&chosen).unwrap();
            Rules::play(&mut pos, mv);
            reference.play(&chosen);
            plies += 1;
        }
    }
    // The sample exercises every way a game ends but deadlock (rare by the help page's note).
    assert!(plies > 5_000, "{plies} plies");
    assert!(moves_of_cubes > 1_000, "{moves_of_cubes} moves of cubes");
    assert!(endings[0] > 100 && endings[1] > 0, "{endings:?}");
    eprintln!(
        "{plies} plies, {moves_of_cubes} moves of cubes; won {}, repetition {}, deadlock {}, cut off {}",
        endings[0], endings[1], endings[2], endings[3]
    );
}

fn reference_perft(r: &Ref, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    r.legal()
        .iter()
        .map(|mv| {
            let mut child = r.clone();
            child.play(mv);
            reference_perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn perft_agrees_with_the_reference() {
    for (n, h, depth, nodes) in [
        (6, 1, 3, 10_110),
        (6, 1, 4, 223_530),
        (3, -1, 5, 0),
        (4, 0, 4, 0),
    ] {
        let ours = Rules::perft(&Position::new(n, h).unwrap(), depth);
        let theirs = reference_perft(&Ref::new(i32::from(n), i32::from(h)), depth);
        assert_eq!(ours, theirs, "size {n}, H {h}, depth {depth}");
        if nodes > 0 {
            assert_eq!(ours, nodes);
        }
    }
}
