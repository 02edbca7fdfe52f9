//! Scores and standings from the pairings of a tournament, pure: no I/O.
//!
//! Swiss and league: a win is 1 point, a draw ½, a loss 0, a bye 1. Tie breaks (FIDE handbook
//! C.02): **Buchholz**, the sum of the final scores of the player's opponents; and
//! **Sonneborn–Berger**, the scores of the opponents the player beat plus half the scores of
//! those drawn. A bye has no opponent and adds nothing to either tie break.
//!
//! Arena (as lichess scores arenas): a win is 2 points, a draw 1, a loss 0; after two wins in a
//! row a player is "on fire" and every game counts double (a win 4, a draw 2) until a game is
//! not won. Games count in the order they were paired (one player's arena games never
//! overlap). Berserk and lichess's rule against early draws are not played here.

use std::collections::HashMap;

use serde::Serialize;

use crate::model::PairingRow;

/// The result of one pairing from the first player's (`x`'s) side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Still in play.
    Pending,
    XWins,
    OWins,
    Draw,
    /// Neither played: both score nothing (a game aborted for both or cancelled).
    Void,
    /// `x` had no opponent.
    Bye,
}

impl Outcome {
    /// Reads a pairing's stored result.
    pub fn of(row: &PairingRow) -> Outcome {
        if row.o.is_none() {
            return Outcome::Bye;
        }
        match row.result.as_str() {
            "1-0" => Outcome::XWins,
            "0-1" => Outcome::OWins,
            "1/2-1/2" => Outcome::Draw,
            "0-0" => Outcome::Void,
            _ => Outcome::Pending,
        }
    }

    /// The score of `x` and of `o`, out of 1 (Swiss points); None while in play.
    fn points(self) -> Option<(f64, f64)> {
        match self {
            Outcome::Pending => None,
            Outcome::XWins | Outcome::Bye => Some((1.0, 0.0)),
            Outcome::OWins => Some((0.0, 1.0)),
            Outcome::Draw => Some((0.5, 0.5)),
            Outcome::Void => Some((0.0, 0.0)),
        }
    }
}

/// One line of a standings table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub name: String,
    pub points: f64,
    /// Swiss and league: `buchholz` and `sonneborn_berger`; arena: `wins` and `fire` (1 while
    /// on a streak).
    pub tiebreaks: Tiebreaks,
    pub games: u32,
}

/// The tie breaks of a line, by kind of tournament.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Tiebreaks {
    Swiss {
        buchholz: f64,
        sonneborn_berger: f64,
    },
    Arena {
        wins: u32,
        fire: bool,
    },
}

/// The Swiss (or league) points of every player named in `players` or `pairings`.
pub fn swiss_points(pairings: &[PairingRow]) -> HashMap<String, f64> {
    let mut points: HashMap<String, f64> = HashMap::new();
    for row in pairings {
        let Some((x, o)) = Outcome::of(row).points() else {
            continue;
        };
        *points.entry(row.x.clone()).or_default() += x;
        if let Some(opponent) = &row.o {
            *points.entry(opponent.clone()).or_default() += o;
        }
    }
    points
}

/// The Swiss standings of `players` (in seed order): by points, Buchholz, Sonneborn–Berger,
/// then seed.
pub fn swiss_standings(players: &[String], pairings: &[PairingRow]) -> Vec<Standing> {
    let points = swiss_points(pairings);
    let score = |name: &str| points.get(name).copied().unwrap_or(0.0);
    let mut lines: Vec<(usize, Standing)> = players
        .iter()
        .enumerate()
        .map(|(seed, name)| {
            let (mut buchholz, mut sonneborn_berger, mut games) = (0.0, 0.0, 0);
            for row in pairings {
                let outcome = Outcome::of(row);
                let Some((x, o)) = outcome.points() else {
                    continue;
                };
                let (mine, opponent) = match (&row.o, row.x == *name) {
                    (Some(o_name), true) => (x, o_name.as_str()),
                    (Some(o_name), false) if o_name == name => (o, row.x.as_str()),
                    _ => continue,
                };
                games += 1;
                buchholz += score(opponent);
                sonneborn_berger += mine * score(opponent);
            }
            let line = Standing {
                name: name.clone(),
                points: score(name),
                tiebreaks: Tiebreaks::Swiss {
                    buchholz,
                    sonneborn_berger,
                },
                games,
            };
            (seed, line)
        })
        .collect();
    lines.sort_by(|(seed_a, a), (seed_b, b)| {
        let key = |s: &Standing| match s.tiebreaks {
            Tiebreaks::Swiss {
                buchholz,
                sonneborn_berger,
            } => (s.points, buchholz, sonneborn_berger),
            Tiebreaks::Arena { .. } => (s.points, 0.0, 0.0),
        };
        key(b)
            .partial_cmp(&key(a))
            .expect("scores are finite")
            .then(seed_a.cmp(seed_b))
    });
    lines.into_iter().map(|(_, line)| line).collect()
}

/// The arena standings of `players`: by points, then wins, then name.
pub fn arena_standings(players: &[String], pairings: &[PairingRow]) -> Vec<Standing> {
    let mut lines: Vec<Standing> = players
        .iter()
        .map(|name| {
            let (mut points, mut wins, mut run, mut games) = (0u32, 0u32, 0u32, 0u32);
            for row in pairings {
                let outcome = Outcome::of(row);
                let Some((x, o)) = outcome.points() else {
                    continue;
                };
                let mine = match (&row.o, row.x == *name) {
                    (Some(_), true) => x,
                    (Some(o_name), false) if o_name == name => o,
                    _ => continue,
                };
                games += 1;
                let factor = if run >= 2 { 2 } else { 1 };
                points += factor * (mine * 2.0) as u32;
                if mine == 1.0 {
                    wins += 1;
                    run += 1;
                } else {
                    run = 0;
                }
            }
            Standing {
                name: name.clone(),
                points: f64::from(points),
                tiebreaks: Tiebreaks::Arena {
                    wins,
                    fire: run >= 2,
                },
                games,
            }
        })
        .collect();
    lines.sort_by(|a, b| {
        let wins = |s: &Standing| match s.tiebreaks {
            Tiebreaks::Arena { wins, .. } => wins,
            Tiebreaks::Swiss { .. } => 0,
        };
        b.points
            .partial_cmp(&a.points)
            .expect("scores are finite")
            .then(wins(b).cmp(&wins(a)))
            .then(a.name.cmp(&b.name))
    });
    lines
}

#[cfg(test)]
pub(super) fn row(round: i64, x: &str, o: Option<&str>, result: &str) -> PairingRow {
    PairingRow {
        round,
        board: 1,
        x: x.into(),
        o: o.map(Into::into),
        game: None,
        result: result.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn swiss_tie_breaks_follow_the_handbook_definitions() {
        // a beats b, c draws d, e has the bye; then a beats c, b beats d; then d beats a and
        // e draws b.
        let pairings = vec![
            row(1, "a", Some("b"), "1-0"),
            row(1, "c", Some("d"), "1/2-1/2"),
            row(1, "e", None, "bye"),
            row(2, "c", Some("a"), "0-1"),
            row(2, "b", Some("d"), "1-0"),
            row(3, "d", Some("a"), "1-0"),
            row(3, "e", Some("b"), "1/2-1/2"),
        ];
        let table = swiss_standings(&names(&["a", "b", "c", "d", "e"]), &pairings);
        // Points: a 2, b 1.5, c 0.5, d 1.5, e 1.5.
        let a = &table[0];
        assert_eq!((a.name.as_str(), a.points), ("a", 2.0));
        // a met b (1.5), c (0.5), d (1.5): Buchholz 3.5; beat b and c: SB 2.0.
        assert_eq!(
            a.tiebreaks,
            Tiebreaks::Swiss {
                buchholz: 3.5,
                sonneborn_berger: 2.0
            }
        );
        // b, d, e share 1.5: b met a 2, d 1.5, e 1.5 = 5; d met c .5, b 1.5, a 2 = 4;
        // e met b only (the bye adds nothing) = 1.5.
        let order: Vec<&str> = table.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(order, ["a", "b", "d", "e", "c"]);
        assert_eq!(
            table[2].tiebreaks,
            Tiebreaks::Swiss {
                buchholz: 4.0,
                // beat a (2), drew c (0.5 / 2), lost to b
                sonneborn_berger: 2.25
            }
        );
    }

    #[test]
    fn arena_streaks_double_until_a_game_is_not_won() {
        let pairings = vec![
            row(1, "a", Some("b"), "1-0"),
            row(2, "b", Some("a"), "0-1"),
            // on fire: 4 for a win
            row(3, "a", Some("b"), "1-0"),
            // still on fire: a draw counts 2 and puts the fire out
            row(4, "a", Some("b"), "1/2-1/2"),
            row(5, "a", Some("b"), "1-0"),
            row(6, "a", Some("b"), "*"),
        ];
        let table = arena_standings(&names(&["b", "a"]), &pairings);
        assert_eq!(table[0].name, "a");
        assert_eq!(table[0].points, 2.0 + 2.0 + 4.0 + 2.0 + 2.0);
        assert_eq!(table[0].games, 5);
        assert_eq!(
            table[0].tiebreaks,
            Tiebreaks::Arena {
                wins: 4,
                fire: false
            }
        );
        assert_eq!(table[1].points, 1.0);
    }
}
