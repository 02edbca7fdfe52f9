//! Hexxagon against an independent reference written here: plain maps over axial coordinates,
//! brute force everywhere, no code shared with `games::hexxagon`. 1,200 seeded random games on
//! boards n = 3, 4, 5, with no blocks, the classic blocks, random point-symmetric blocks,
//! scattered random boards (passes, sealed-off cells) and clocks near 100, compared move by
//! move: the legal-move set, the FEN after each move, game over and the result.

mod common;

use common::Rng;
use std::collections::{BTreeSet, HashMap};

use games::{hexxagon, AnyPosition, GameKind, Seat};

type Xy = (i32, i32);

/// The reference game: a map from every cell to `x`, `o`, `-` or `.`.
#[derive(Clone)]
struct Ref {
    n: i32,
    board: HashMap<Xy, char>,
    turn: char,
    halfmove: u32,
    fullmove: u32,
}

const DIRS: [Xy; 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)];

fn dist(a: Xy, b: Xy) -> i32 {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    dx.abs().max(dy.abs()).max((dx - dy).abs())
}

fn label(c: Xy) -> String {
    format!("{}{}", (b'a' + c.0 as u8) as char, c.1 + 1)
}

fn other(side: char) -> char {
    if side == 'x' {
        'o'
    } else {
        'x'
    }
}

impl Ref {
    fn empty(n: i32) -> Ref {
        let mut board = HashMap::new();
        for x in 0..2 * n - 1 {
            for y in 0..2 * n - 1 {
                if (x - y).abs() < n {
                    board.insert((x, y), '.');
                }
            }
        }
        Ref {
            n,
            board,
            turn: 'x',
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// x on (0,0), (2n−2, n−1), (n−1, 2n−2); o on (n−1, 0), (2n−2, 2n−2), (0, n−1).
    fn start(n: i32) -> Ref {
        let mut r = Ref::empty(n);
        let (m, e) = (n - 1, 2 * n - 2);
        for c in [(0, 0), (e, m), (m, e)] {
            r.board.insert(c, 'x');
        }
        for c in [(m, 0), (e, e), (0, m)] {
            r.board.insert(c, 'o');
        }
        r
    }

    fn cells(&self) -> Vec<Xy> {
        let mut v: Vec<Xy> = self.board.keys().copied().collect();
        v.sort();
        v
    }

    fn count(&self, side: char) -> usize {
        self.board.values().filter(|&&c| c == side).count()
    }

    /// Whether any piece of the given sides has an empty cell within distance 2.
    fn can_move(&self, sides: &[char]) -> bool {
        self.board.iter().any(|(&p, &c)| {
            sides.contains(&c)
                && self
                    .board
                    .iter()
                    .any(|(&q, &d)| d == '.' && (1..=2).contains(&dist(p, q)))
        })
    }

    fn over(&self) -> bool {
        self.count('x') == 0
            || self.count('o') == 0
            || self.halfmove >= 100
            || !self.can_move(&['x', 'o'])
    }

    fn result(&self) -> Option<&'static str> {
        if !self.over() {
            return None;
        }
        let counted = self.count('x') == 0 || self.count('o') == 0 || !self.can_move(&['x', 'o']);
        if !counted {
            return Some("1/2-1/2");
        }
        Some(match self.count('x').cmp(&self.count('o')) {
            std::cmp::Ordering::Greater => "1-0",
            std::cmp::Ordering::Less => "0-1",
            std::cmp::Ordering::Equal => "1/2-1/2",
        })
    }

    fn moves(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        if self.over() {
            return out;
        }
        for (&to, &c) in &self.board {
            if c != '.' {
                continue;
            }
            for (&from, &d) in &self.board {
                if d != self.turn {
                    continue;
                }
                match dist(from, to) {
                    1 => {
                        out.insert(label(to));
                    }
                    2 => {
                        out.insert(format!("{}{}", label(from), label(to)));
                    }
                    _ => {}
                }
            }
        }
        if out.is_empty() {
            out.insert("0000".to_string());
        }
        out
    }

    fn cell_of(&self, text: &str) -> Xy {
        let b = text.as_bytes();
        ((b[0] - b'a') as i32, (b[1] - b'1') as i32)
    }

    /// Plays a move from [`Ref::moves`]; returns the flips.
    fn play(&mut self, mv: &str) -> u32 {
        let mut flips = 0;
        self.halfmove += 1;
        if mv != "0000" {
            let to = self.cell_of(&mv[mv.len() - 2..]);
            if mv.len() == 4 {
                let from = self.cell_of(&mv[..2]);
                self.board.insert(from, '.');
            } else {
                self.halfmove = 0;
            }
            self.board.insert(to, self.turn);
            for (dx, dy) in DIRS {
                let q = (to.0 + dx, to.1 + dy);
                if self.board.get(&q) == Some(&other(self.turn)) {
                    self.board.insert(q, self.turn);
                    flips += 1;
                }
            }
        }
        if self.turn == 'o' {
            self.fullmove += 1;
        }
        self.turn = other(self.turn);
        flips
    }

    fn fen(&self) -> String {
        let mut rows = Vec::new();
        for y in (0..2 * self.n - 1).rev() {
            let mut row = String::new();
            let mut run = 0;
            for x in 0..2 * self.n - 1 {
                let Some(&c) = self.board.get(&(x, y)) else {
                    continue;
                };
                if c == '.' {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    row += &run.to_string();
                    run = 0;
                }
                row.push(c);
            }
            if run > 0 {
                row += &run.to_string();
            }
            rows.push(row);
        }
        format!(
            "{} {} {} {}",
            rows.join("/"),
            self.turn,
            self.halfmove,
            self.fullmove
        )
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }
}

fn result_of(pos: &dyn AnyPosition) -> Option<&'static str> {
    pos.outcome().map(|o| match o.winner() {
        Some(Seat(0)) => "1-0",
        Some(_) => "0-1",
        None => "1/2-1/2",
    })
}

/// A start for game `k`: the size, blocks, scattering and clock drawn from the generator.
fn random_start(rng: &mut Rng) -> (Ref, &'static str) {
    let n = 3 + rng.below(3) as i32;
    let mut r = Ref::start(n);
    let mut kind = "start";
    match rng.below(10) {
        0..=2 => {}
        3 | 4 if n == 5 => {
            for c in [(4, 3), (5, 5), (3, 4)] {
                r.board.insert(c, '-');
            }
            kind = "classic";
        }
        3..=6 => {
            // Blocks in mirrored pairs through the centre (the start is symmetric that way too).
            let e = 2 * n - 2;
            for _ in 0..1 + rng.below(4) {
                let cells = r.cells();
                let c = cells[rng.below(cells.len())];
                let mirror = (e - c.0, e - c.1);
                if r.board[&c] == '.' && r.board[&mirror] == '.' {
                    r.board.insert(c, '-');
                    r.board.insert(mirror, '-');
                }
            }
            kind = "symmetric blocks";
        }
        _ => {
            // A scattered board: dense pieces and walls make passes and sealed cells common.
            let weights = [
                rng.below(5) + 1,
                rng.below(6) + 1,
                rng.below(6) + 1,
                rng.below(3),
            ];
            let total: usize = weights.iter().sum();
            for c in r.cells() {
                let mut pick = rng.below(total);
                let mut i = 0;
                while pick >= weights[i] {
                    pick -= weights[i];
                    i += 1;
                }
                r.board.insert(c, ['.', 'x', 'o', '-'][i]);
            }
            r.turn = if rng.chance(50) { 'x' } else { 'o' };
            r.fullmove = 1 + rng.below(40) as u32;
            kind = "scattered";
        }
    }
    if rng.chance(20) {
        r.halfmove = 90 + rng.below(10) as u32;
    }
    (r, kind)
}

#[test]
fn a_thousand_random_games_agree_with_the_reference() {
    let mut rng = Rng(0x4845_5858_4147_4f4e);
    let (mut plies, mut passes, mut clock_draws, mut counted, mut perfts) = (0, 0, 0, 0, 0);
    let mut kinds: HashMap<&str, usize> = HashMap::new();
    for game in 0..1200 {
        let (mut r, kind) = random_start(&mut rng);
        *kinds.entry(kind).or_default() += 1;
        let start = r.fen();
        let mut pos = GameKind::Hexxagon
            .parse_position(&start)
            .unwrap_or_else(|e| panic!("game {game}: {e}"));
        let mut direct: hexxagon::Position = start.parse().unwrap();
        for ply in 0..500 {
            let ctx = || format!("game {game} ({kind}) ply {ply} from {start}: {}", r.fen());
            assert_eq!(pos.fen(), r.fen(), "{}", ctx());
            assert_eq!(direct.to_string(), r.fen(), "{}", ctx());
            let moves = r.moves();
            let got: BTreeSet<String> = pos.legal_moves().into_iter().collect();
            assert_eq!(got, moves, "{}", ctx());
            assert_eq!(direct.count_moves(), moves.len() as u64, "{}", ctx());
            assert_eq!(direct.is_game_over(), r.over(), "{}", ctx());
            assert_eq!(result_of(pos.as_ref()), r.result(), "{}", ctx());
            let counts = pos.piece_counts();
            assert_eq!(counts, vec![r.count('x') as u32, r.count('o') as u32]);
            if ply % 16 == 5 {
                assert_eq!(pos.perft(2), r.perft(2), "{}", ctx());
                perfts += 1;
            }
            if moves.is_empty() {
                match r.result() {
                    Some("1/2-1/2") if r.halfmove >= 100 && r.can_move(&['x', 'o']) => {
                        clock_draws += 1
                    }
                    _ => counted += 1,
                }
                break;
            }
            let list: Vec<&String> = moves.iter().collect();
            let mv = list[rng.below(list.len())].clone();
            if mv == "0000" {
                passes += 1;
            }
            let expected_flips = r.clone().play(&mv);
            let played = pos
                .play(&mv)
                .unwrap_or_else(|e| panic!("{}: {mv}: {e}", ctx()));
            assert_eq!(played.text, mv);
            assert_eq!(played.flips, expected_flips, "{}: {mv}", ctx());
            direct.play(direct.parse_move(&mv).unwrap()).unwrap();
            r.play(&mv);
            plies += 1;
        }
    }
    eprintln!(
        "{plies} plies, {passes} passes, {clock_draws} clock draws, {counted} counted ends, {perfts} perft(2) checks, starts {kinds:?}"
    );
    // The games must have reached what they are meant to test.
    assert!(plies > 50_000, "{plies}");
    assert!(passes >= 20, "{passes}");
    assert!(clock_draws >= 20, "{clock_draws}");
    assert!(counted >= 500, "{counted}");
    assert!(kinds.len() == 4, "{kinds:?}");
}

#[test]
fn spec_positions_agree_with_the_reference_perft() {
    for (fen, depth) in [
        ("x3o/6/7/8/o7x/8/7/6/x3o x 0 1", 3),
        ("x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1", 3),
        ("x3o/6/7/8/o7x/8/7/6/x3o x 99 1", 3),
        ("5/6/7/8/9/8/ooo4/ooo3/xoo2 x 0 1", 3),
        ("x1o/4/o3x/4/x1o x 0 1", 4),
    ] {
        let pos = GameKind::Hexxagon.parse_position(fen).unwrap();
        // The reference reads the board field itself.
        let board = fen.split(' ').next().unwrap();
        let rows: Vec<&str> = board.split('/').collect();
        let mut r = Ref::empty((rows.len() as i32 + 1) / 2);
        for (k, row) in rows.iter().enumerate() {
            let y = rows.len() as i32 - 1 - k as i32;
            let mut x = (y - r.n + 1).max(0);
            for c in row.chars() {
                match c.to_digit(10) {
                    Some(d) => x += d as i32,
                    None => {
                        r.board.insert((x, y), c);
                        x += 1;
                    }
                }
            }
        }
        r.halfmove = fen.split(' ').nth(2).unwrap().parse().unwrap();
        assert_eq!(r.fen(), pos.fen());
        assert_eq!(pos.perft(depth), r.perft(depth), "{fen}");
    }
}
