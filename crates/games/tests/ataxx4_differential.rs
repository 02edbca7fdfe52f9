//! Four-player Ataxx against an independent reference written here: plain 2-D arrays and brute
//! force over every cell, sharing no code with the `games` module or the `ataxx` crate (its own
//! square names, move text, FEN writer, game-over test and ranking). Over 1,200 seeded random
//! games on 5×5 to 8×8 boards with random blocked cells, some from the corner start and some
//! from random mid-game positions, the two are compared before and after every ply: the set of
//! legal moves, the FEN, game over, the ranking, the flips a move makes, and whether assorted
//! move texts are accepted.

mod common;

use common::Rng;
use games::ataxx4::Position;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Block,
    Piece(usize),
}

const LETTERS: [char; 4] = ['r', 'b', 'g', 'y'];

/// The reference position: `grid[row][col]`, row 0 the top rank.
#[derive(Clone)]
struct Reference {
    n: usize,
    grid: Vec<Vec<Cell>>,
    turn: usize,
    half: u32,
    full: u32,
}

fn name(n: usize, row: usize, col: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, n - row)
}

fn distance(a: (usize, usize), b: (usize, usize)) -> usize {
    a.0.abs_diff(b.0).max(a.1.abs_diff(b.1))
}

impl Reference {
    fn cells(&self) -> Vec<(usize, usize)> {
        (0..self.n)
            .flat_map(|r| (0..self.n).map(move |c| (r, c)))
            .collect()
    }

    fn count(&self, player: usize) -> usize {
        self.cells()
            .into_iter()
            .filter(|&(r, c)| self.grid[r][c] == Cell::Piece(player))
            .count()
    }

    fn can_move(&self, player: usize) -> bool {
        let cells = self.cells();
        cells.iter().any(|&p| {
            self.grid[p.0][p.1] == Cell::Piece(player)
                && cells
                    .iter()
                    .any(|&q| self.grid[q.0][q.1] == Cell::Empty && distance(p, q) <= 2)
        })
    }

    fn over(&self) -> bool {
        let alive = (0..4).filter(|&p| self.count(p) > 0).count();
        self.half >= 100 || alive <= 1 || !(0..4).any(|p| self.can_move(p))
    }

    /// Ranks by piece count, 1 best, ties sharing the better rank.
    fn ranks(&self) -> Vec<u8> {
        let counts: Vec<usize> = (0..4).map(|p| self.count(p)).collect();
        counts
            .iter()
            .map(|mine| 1 + counts.iter().filter(|other| *other > mine).count() as u8)
            .collect()
    }

    fn moves(&self) -> Vec<String> {
        if self.over() {
            return vec![];
        }
        let me = self.turn;
        let cells = self.cells();
        let mut out = vec![];
        for &to in &cells {
            if self.grid[to.0][to.1] != Cell::Empty {
                continue;
            }
            if cells
                .iter()
                .any(|&p| self.grid[p.0][p.1] == Cell::Piece(me) && distance(p, to) == 1)
            {
                out.push(name(self.n, to.0, to.1));
            }
            for &from in &cells {
                if self.grid[from.0][from.1] == Cell::Piece(me) && distance(from, to) == 2 {
                    out.push(format!(
                        "{}{}",
                        name(self.n, from.0, from.1),
                        name(self.n, to.0, to.1)
                    ));
                }
            }
        }
        if out.is_empty() {
            out.push("0000".to_string());
        }
        out.sort();
        out
    }

    fn locate(&self, text: &str) -> (usize, usize) {
        let b = text.as_bytes();
        let col = (b[0] - b'a') as usize;
        let rank = (b[1] - b'0') as usize;
        (self.n - rank, col)
    }

    /// Plays a move from `moves()`; returns how many pieces changed colour.
    fn play(&mut self, text: &str) -> usize {
        let me = self.turn;
        let mut flipped = 0;
        if text == "0000" {
            self.half += 1;
        } else {
            let to = self.locate(&text[text.len() - 2..]);
            if text.len() == 4 {
                let from = self.locate(&text[..2]);
                self.grid[from.0][from.1] = Cell::Empty;
                self.half += 1;
            } else {
                self.half = 0;
            }
            self.grid[to.0][to.1] = Cell::Piece(me);
            for (r, c) in self.cells() {
                if distance((r, c), to) == 1 {
                    if let Cell::Piece(other) = self.grid[r][c] {
                        if other != me {
                            self.grid[r][c] = Cell::Piece(me);
                            flipped += 1;
                        }
                    }
                }
            }
        }
        let mut next = (me + 1) % 4;
        while next != me && self.count(next) == 0 {
            next = (next + 1) % 4;
        }
        if next <= me {
            self.full += 1;
        }
        self.turn = next;
        flipped
    }

    fn fen(&self) -> String {
        let mut rows = vec![];
        for row in &self.grid {
            let mut text = String::new();
            let mut run = 0;
            for cell in row {
                let c = match cell {
                    Cell::Empty => {
                        run += 1;
                        continue;
                    }
                    Cell::Block => '-',
                    Cell::Piece(p) => LETTERS[*p],
                };
                if run > 0 {
                    text += &run.to_string();
                    run = 0;
                }
                text.push(c);
            }
            if run > 0 {
                text += &run.to_string();
            }
            rows.push(text);
        }
        format!(
            "{} {} {} {}",
            rows.join("/"),
            LETTERS[self.turn],
            self.half,
            self.full
        )
    }

    /// The corner start on an n×n board with random blocked cells (corners kept free).
    fn start(n: usize, rng: &mut Rng) -> Reference {
        let density = [0, 5, 12, 25][rng.below(4)];
        let mut grid = vec![vec![Cell::Empty; n]; n];
        for row in grid.iter_mut() {
            for cell in row.iter_mut() {
                if rng.chance(density) {
                    *cell = Cell::Block;
                }
            }
        }
        let last = n - 1;
        for (p, (r, c)) in [(0, 0), (0, last), (last, last), (last, 0)]
            .into_iter()
            .enumerate()
        {
            grid[r][c] = Cell::Piece(p);
        }
        Reference {
            n,
            grid,
            turn: 0,
            half: 0,
            full: 1,
        }
    }

    /// A random mid-game position: scattered pieces (some colours perhaps missing), blocks,
    /// and a clock that may be close to 100, the colour to move one that has pieces.
    fn scattered(n: usize, rng: &mut Rng) -> Reference {
        let fill = 20 + rng.below(60);
        let block = rng.below(20);
        let present: Vec<bool> = (0..4).map(|_| rng.chance(80)).collect();
        let mut grid = vec![vec![Cell::Empty; n]; n];
        for row in grid.iter_mut() {
            for cell in row.iter_mut() {
                if rng.chance(block) {
                    *cell = Cell::Block;
                } else if rng.chance(fill) {
                    let p = rng.below(4);
                    if present[p] {
                        *cell = Cell::Piece(p);
                    }
                }
            }
        }
        let mut pos = Reference {
            n,
            grid,
            turn: rng.below(4),
            half: if rng.chance(30) {
                90 + rng.below(10) as u32
            } else {
                rng.below(20) as u32
            },
            full: 1 + rng.below(50) as u32,
        };
        for _ in 0..4 {
            if pos.count(pos.turn) > 0 {
                break;
            }
            pos.turn = (pos.turn + 1) % 4;
        }
        pos
    }
}

#[derive(Default, Debug)]
struct Tally {
    games: usize,
    plies: usize,
    passes: usize,
    eliminations: usize,
    ended_lone_colour: usize,
    ended_stuck: usize,
    ended_clock: usize,
    shared_first_place: usize,
}

/// Compares everything but the move texts; returns the reference's legal moves.
fn compare(pos: &Position, reference: &Reference, context: &str) -> Vec<String> {
    assert_eq!(pos.to_string(), reference.fen(), "{context}");
    let moves = reference.moves();
    let mut mine: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    mine.sort();
    assert_eq!(mine, moves, "{context}: legal moves");
    assert_eq!(pos.count_moves() as usize, mine.len(), "{context}: count");
    assert_eq!(pos.is_game_over(), reference.over(), "{context}: game over");
    match pos.outcome() {
        Some(outcome) => {
            let ranks: Vec<u8> = (0..4).map(|s| outcome.rank(games::Seat(s))).collect();
            assert_eq!(ranks, reference.ranks(), "{context}: ranking");
        }
        None => assert!(!reference.over(), "{context}: outcome"),
    }
    moves
}

/// Move texts to try against both: every single, some jumps (legal or not), a pass.
fn probes(n: usize, rng: &mut Rng) -> Vec<String> {
    let square = |rng: &mut Rng| {
        format!(
            "{}{}",
            (b'a' + rng.below(n + 1) as u8) as char,
            1 + rng.below(n + 1)
        )
    };
    let mut out = vec!["0000".to_string()];
    for _ in 0..6 {
        out.push(square(rng));
        out.push(format!("{}{}", square(rng), square(rng)));
    }
    out
}

#[test]
fn random_games_agree_with_the_reference() {
    let mut rng = Rng(0x4A7A_0004);
    let mut tally = Tally::default();
    for game in 0..1200 {
        let n = 5 + game % 4;
        let mut reference = if game % 3 == 2 {
            Reference::scattered(n, &mut rng)
        } else {
            Reference::start(n, &mut rng)
        };
        let mut pos: Position = reference.fen().parse().expect("the reference writes FEN");
        tally.games += 1;
        let start = reference.fen();
        for ply in 0.. {
            let context = format!("game {game} from {start}, ply {ply}");
            let moves = compare(&pos, &reference, &context);
            for text in probes(n, &mut rng) {
                let legal = moves.contains(&text);
                let read = pos.parse_move(&text);
                // The tolerant reader reads same-square pairs as passes, and pairs at distance 1
                // as singles; those are not in the reference's strict list, so check only texts
                // the strict writer could produce.
                let strict = read.as_ref().map_or(true, |m| m.to_string() == text);
                if strict {
                    assert_eq!(read.is_ok(), legal, "{context}: {text}: {read:?}");
                }
            }
            if moves.is_empty() {
                break;
            }
            if moves == ["0000"] {
                tally.passes += 1;
            }
            let mv = &moves[rng.below(moves.len())];
            let alive_before: Vec<bool> = (0..4).map(|p| reference.count(p) > 0).collect();
            let flipped = reference.play(mv);
            let flips = pos
                .play(mv.parse().unwrap())
                .expect("legal by the reference");
            assert_eq!(flips.count() as usize, flipped, "{context}: flips of {mv}");
            tally.plies += 1;
            tally.eliminations += (0..4)
                .filter(|&p| alive_before[p] && reference.count(p) == 0)
                .count();
        }
        let alive = (0..4).filter(|&p| reference.count(p) > 0).count();
        if alive <= 1 {
            tally.ended_lone_colour += 1;
        } else if reference.half >= 100 {
            tally.ended_clock += 1;
        } else {
            tally.ended_stuck += 1;
        }
        if reference.ranks().iter().filter(|&&r| r == 1).count() > 1 {
            tally.shared_first_place += 1;
        }
    }
    println!("{tally:?}");
    assert_eq!(tally.games, 1200);
    assert!(tally.passes >= 50, "forced passes: {tally:?}");
    assert!(tally.eliminations >= 200, "eliminations: {tally:?}");
    assert!(tally.ended_lone_colour >= 10, "{tally:?}");
    assert!(tally.ended_clock >= 10, "{tally:?}");
    assert!(tally.ended_stuck >= 100, "{tally:?}");
    assert!(tally.shared_first_place >= 1, "{tally:?}");
}

#[test]
fn reference_start_is_the_module_s_start() {
    let mut rng = Rng(7);
    for n in 5..=8 {
        let mut reference = Reference::start(n, &mut rng);
        for row in reference.grid.iter_mut() {
            for cell in row.iter_mut() {
                if *cell == Cell::Block {
                    *cell = Cell::Empty;
                }
            }
        }
        let start = Position::start(n as u8, ataxx::Bitboard::EMPTY).unwrap();
        assert_eq!(start.to_string(), reference.fen());
    }
}
