//! The engine league: its openings and its Elo table, pure: no I/O.
//!
//! Every cycle is a double round robin; the two games of a pair of engines (boards `2k − 1` and
//! `2k` of a round, `a` v `b` then `b` v `a`) start from the same opening of the project's
//! standard book (`books/standard.txt`, made by `ataxx openings`), in an order shuffled by the
//! league's number, each pair taking the next opening. The table counts each engine's games
//! against the field as `ataxx match` counts a pairing: single games as win, draw and loss, pairs
//! pentanomially (both games' points: 0, ½, 1, 1½, 2), and the Elo estimate and its 95% error
//! from the pairs once there are any ([`::arena::stats::match_estimate`]; the crate, not the
//! arena tournaments of [`super::arena`]).

use std::collections::HashMap;
use std::sync::OnceLock;

use ::arena::stats::{match_estimate, GameScore, Pentanomial, Wdl};
use ataxx::Position;
use serde::Serialize;

use super::scores::Outcome;
use crate::model::PairingRow;

/// The book every league plays from.
const BOOK: &str = include_str!("../../../../../books/standard.txt");

fn book() -> &'static [Position] {
    static PARSED: OnceLock<Vec<Position>> = OnceLock::new();
    PARSED.get_or_init(|| {
        ::arena::book::parse(BOOK).expect("books/standard.txt is checked by this module's tests")
    })
}

/// The opening (a FEN) of the game planned as `index` (0-based) among a new cycle's games, when
/// the league has `paired` games already: games `2k` and `2k + 1` of the cycle share one.
pub fn opening(league: i64, paired: usize, index: usize) -> String {
    let mut openings = book().to_vec();
    ::arena::book::shuffle(&mut openings, league as u64);
    let pair = paired / 2 + index / 2;
    openings[pair % openings.len()].to_string()
}

/// The pairs of a cycle: every two engines twice, colours swapped, the two games together.
pub fn cycle(engines: &[String]) -> Vec<(String, String)> {
    let mut games = vec![];
    for (i, a) in engines.iter().enumerate() {
        for b in &engines[i + 1..] {
            games.push((a.clone(), b.clone()));
            games.push((b.clone(), a.clone()));
        }
    }
    games
}

/// One engine's line of the league table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeagueLine {
    pub name: String,
    /// Games played to a result (unplayed ones, `0-0`, do not count).
    pub games: u64,
    /// Wins plus half the draws.
    pub points: f64,
    /// The mean score per game against the field, 0–1.
    pub score: f64,
    /// Elo against the field; None while it is not finite (every game won, or every one lost).
    pub elo: Option<f64>,
    /// Half the width of the 95% interval, in Elo; None while it is not finite, or while there
    /// is a single pair (or game) to measure it from.
    pub error: Option<f64>,
    /// Completed pairs by the engine's points in both games: 0, ½, 1 (two draws or a win and a
    /// loss), 1½, 2 — `ataxx match`'s LL, LD, DD/WL, WD, WW.
    pub pentanomial: [u64; 5],
}

/// An engine's score in a finished game, None for one unplayed or in play.
fn score_of(row: &PairingRow, engine: &str) -> Option<GameScore> {
    let x_score = match Outcome::of(row) {
        Outcome::XWins => GameScore::Win,
        Outcome::OWins => GameScore::Loss,
        Outcome::Draw => GameScore::Draw,
        Outcome::Pending | Outcome::Void | Outcome::Bye => return None,
    };
    let flip = |score| match score {
        GameScore::Win => GameScore::Loss,
        GameScore::Loss => GameScore::Win,
        GameScore::Draw => GameScore::Draw,
    };
    match (row.x == engine, row.o.as_deref() == Some(engine)) {
        (true, _) => Some(x_score),
        (_, true) => Some(flip(x_score)),
        _ => None,
    }
}

/// The table of `engines`: best score against the field first (engines without a game last).
pub fn table(engines: &[String], pairings: &[PairingRow]) -> Vec<LeagueLine> {
    // The games of each pair, by round and pair number.
    let mut pairs: HashMap<(i64, i64), Vec<&PairingRow>> = HashMap::new();
    for row in pairings {
        pairs
            .entry((row.round, (row.board + 1) / 2))
            .or_default()
            .push(row);
    }
    let finite = |v: f64| v.is_finite().then_some(v);
    let mut lines: Vec<LeagueLine> = engines
        .iter()
        .map(|engine| {
            let mut wdl = Wdl::default();
            for row in pairings {
                if let Some(score) = score_of(row, engine) {
                    wdl.add(score);
                }
            }
            let mut pentanomial = Pentanomial::default();
            for games in pairs.values() {
                if let [first, second] = games[..] {
                    if let (Some(a), Some(b)) = (score_of(first, engine), score_of(second, engine))
                    {
                        pentanomial.add(a, b);
                    }
                }
            }
            let estimate = match_estimate(&wdl, &pentanomial);
            // One pair (or, before any pair, one game) shows no spread: its interval is
            // unknown, not zero wide.
            let units = match pentanomial.pairs() {
                0 => wdl.games(),
                pairs => pairs,
            };
            LeagueLine {
                name: engine.clone(),
                games: wdl.games(),
                points: wdl.wins as f64 + wdl.draws as f64 / 2.0,
                score: estimate.score,
                elo: finite(estimate.elo),
                error: finite(estimate.error).filter(|_| units >= 2),
                pentanomial: pentanomial.0,
            }
        })
        .collect();
    lines.sort_by(|a, b| {
        (b.games > 0)
            .cmp(&(a.games > 0))
            .then(b.score.partial_cmp(&a.score).expect("scores are finite"))
            .then(b.points.partial_cmp(&a.points).expect("points are finite"))
            .then(a.name.cmp(&b.name))
    });
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::tournaments::scores::row;

    fn board(round: i64, board: i64, x: &str, o: &str, result: &str) -> PairingRow {
        PairingRow {
            board,
            ..row(round, x, Some(o), result)
        }
    }

    #[test]
    fn the_book_parses_and_a_pair_shares_its_opening() {
        assert!(book().len() >= 100);
        assert_eq!(opening(7, 0, 0), opening(7, 0, 1));
        assert_ne!(opening(7, 0, 1), opening(7, 0, 2));
        // The next cycle goes on in the book; another league has its own order.
        assert_eq!(opening(7, 6, 0), opening(7, 0, 6));
        assert_ne!(opening(7, 0, 0), opening(8, 0, 0));
    }

    #[test]
    fn a_cycle_meets_every_pair_twice_with_colours_swapped() {
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let games = cycle(&names);
        assert_eq!(games.len(), 6);
        for pair in games.chunks(2) {
            assert_eq!((&pair[0].0, &pair[0].1), (&pair[1].1, &pair[1].0));
        }
    }

    #[test]
    fn the_table_counts_pairs_pentanomially_and_orders_by_score() {
        let names: Vec<String> = ["weak", "strong", "middle"].map(String::from).to_vec();
        let pairings = vec![
            // strong beats weak twice: WW for strong, LL for weak.
            board(1, 1, "strong", "weak", "1-0"),
            board(1, 2, "weak", "strong", "0-1"),
            // strong and middle: a win each, DD/WL.
            board(1, 3, "strong", "middle", "0-1"),
            board(1, 4, "middle", "strong", "0-1"),
            // middle beats weak, then draws: WD; the next pair is not complete.
            board(1, 5, "middle", "weak", "1-0"),
            board(1, 6, "weak", "middle", "1/2-1/2"),
            board(2, 1, "strong", "weak", "1-0"),
            board(2, 2, "weak", "strong", "*"),
        ];
        let table = table(&names, &pairings);
        let order: Vec<&str> = table.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(order, ["strong", "middle", "weak"]);
        let strong = &table[0];
        assert_eq!(strong.pentanomial, [0, 0, 1, 0, 1]);
        assert_eq!((strong.games, strong.points), (5, 4.0));
        // As `ataxx match` computes it: from the two pairs (scores 1 and ½).
        let expected = arena::stats::EloEstimate::new(&Pentanomial([0, 0, 1, 0, 1]).sample());
        assert_eq!(strong.score, 0.75);
        assert_eq!(strong.elo, Some(expected.elo));
        // Two pairs leave the interval's top past a score of 1: no finite error, as `ataxx
        // match` would print `inf`.
        assert!(expected.error.is_nan());
        assert_eq!(strong.error, None);
        assert_eq!(table[1].pentanomial, [0, 0, 1, 1, 0]);
        assert_eq!(table[2].pentanomial, [1, 1, 0, 0, 0]);
        assert_eq!(table[2].points, 0.5);
    }

    #[test]
    fn an_engine_that_won_everything_has_no_finite_elo() {
        let names: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let pairings = vec![board(1, 1, "a", "b", "1-0"), board(1, 2, "b", "a", "0-1")];
        let table = table(&names, &pairings);
        assert_eq!((table[0].elo, table[0].error), (None, None));
        assert_eq!(table[0].pentanomial, [0, 0, 0, 0, 1]);
    }
}
