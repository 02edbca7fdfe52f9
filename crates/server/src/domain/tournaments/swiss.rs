//! Swiss pairing, pure: a score-group system in the manner of the FIDE Dutch system (handbook
//! C.04.3), simplified where noted.
//!
//! - **Order.** Players are ranked by points, then by seed (their rating when the tournament
//!   started, highest first). A score group is the players of equal points.
//! - **Bye.** With an odd number of players, the lowest-ranked player who has not had a bye
//!   gets it (one point); the next one up gets it when the rest cannot be paired. A player has
//!   at most one bye, unless everyone has had one.
//! - **Pairs.** Within a score group the top half meets the bottom half in order (1 v 5, 2 v 6,
//!   …, the Dutch "S1 against S2"); when that breaks a rule, the other players of the bottom
//!   half are tried, then those of the top half from its bottom up (transpositions and
//!   exchanges), then lower groups (a player floats down). The search backtracks, so a pairing
//!   found always pairs every player.
//! - **Rules, in the order they are given up.** (1) No two players meet twice and no player's
//!   colour count may differ by two (so nobody gets one colour three times running); (2) no
//!   two players meet twice; (3) nothing: when even that fails (more rounds than the field
//!   allows), players meet again. Each stage's search is bounded, so pairing a big field ends.
//! - **Colours.** The player who has had `x` less often gets it; on equal counts, the players'
//!   histories are compared from the last round back and the one who had `x` where they
//!   differed gets `o`; otherwise the higher-ranked player alternates from their last colour.
//!   In the first round the top half takes `x` on odd boards and `o` on even ones.
//!
//! What the Dutch system does and this does not: float histories (a player floated down twice
//! in a row), the "minimise score differences" weighting across groups beyond the order tried.

use std::collections::{HashMap, HashSet};

use crate::model::PairingRow;

use super::scores::{swiss_points, Outcome};

/// A round's plan: pairs with the first player on `x`, and the bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundPlan {
    pub pairs: Vec<(String, String)>,
    pub bye: Option<String>,
}

/// How many steps each stage of the search may take before the next stage is tried.
const SEARCH_BUDGET: u32 = 200_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Colour {
    X,
    O,
}

struct Player {
    name: String,
    seed: usize,
    points: f64,
    opponents: HashSet<String>,
    colours: Vec<Colour>,
    had_bye: bool,
}

impl Player {
    /// Games as `x` less games as `o`.
    fn balance(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| if *c == Colour::X { 1 } else { -1 })
            .sum()
    }
}

/// Pairs the next round of `players` (those still in, in seed order) given the pairings so far.
pub fn pair_round(players: &[String], history: &[PairingRow]) -> RoundPlan {
    let points = swiss_points(history);
    let mut all: Vec<Player> = players
        .iter()
        .enumerate()
        .map(|(seed, name)| Player {
            name: name.clone(),
            seed,
            points: points.get(name).copied().unwrap_or(0.0),
            opponents: HashSet::new(),
            colours: vec![],
            had_bye: false,
        })
        .collect();
    let index: HashMap<String, usize> = players
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i))
        .collect();
    let mut rows: Vec<&PairingRow> = history.iter().collect();
    rows.sort_by_key(|r| (r.round, r.board));
    for row in rows {
        if Outcome::of(row) == Outcome::Bye {
            if let Some(&i) = index.get(&row.x) {
                all[i].had_bye = true;
            }
            continue;
        }
        let o = row.o.as_deref().unwrap_or_default();
        if let Some(&i) = index.get(&row.x) {
            all[i].opponents.insert(o.to_string());
            all[i].colours.push(Colour::X);
        }
        if let Some(&i) = index.get(o) {
            all[i].opponents.insert(row.x.clone());
            all[i].colours.push(Colour::O);
        }
    }
    // Ranked: points, then seed.
    let mut ranked: Vec<usize> = (0..all.len()).collect();
    ranked.sort_by(|&a, &b| {
        all[b]
            .points
            .partial_cmp(&all[a].points)
            .expect("points are finite")
            .then(all[a].seed.cmp(&all[b].seed))
    });
    let bye_candidates: Vec<Option<usize>> = if ranked.len().is_multiple_of(2) {
        vec![None]
    } else {
        let lowest_first = ranked.iter().rev().copied();
        let eligible: Vec<usize> = lowest_first.clone().filter(|&i| !all[i].had_bye).collect();
        match eligible.is_empty() {
            true => lowest_first.map(Some).collect(),
            false => eligible.into_iter().map(Some).collect(),
        }
    };
    for stage in [Stage::Strict, Stage::NoRematch, Stage::Anything] {
        for &bye in &bye_candidates {
            let order: Vec<usize> = ranked.iter().copied().filter(|&i| Some(i) != bye).collect();
            let mut search = Search {
                players: &all,
                stage,
                budget: SEARCH_BUDGET,
                used: vec![false; all.len()],
                pairs: vec![],
            };
            if search.run(&order) {
                let pairs = search.pairs;
                return plan(&all, &order, pairs, bye);
            }
        }
    }
    unreachable!("the last stage pairs any even field")
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Strict,
    NoRematch,
    Anything,
}

struct Search<'a> {
    players: &'a [Player],
    stage: Stage,
    budget: u32,
    used: Vec<bool>,
    pairs: Vec<(usize, usize)>,
}

impl Search<'_> {
    fn allowed(&self, a: usize, b: usize) -> bool {
        let (pa, pb) = (&self.players[a], &self.players[b]);
        let rematch = pa.opponents.contains(&pb.name);
        let (ba, bb) = (pa.balance(), pb.balance());
        let same_colour_due = ba != 0 && ba.signum() == bb.signum();
        match self.stage {
            Stage::Strict => !rematch && !same_colour_due,
            Stage::NoRematch => !rematch,
            Stage::Anything => true,
        }
    }

    /// Pairs every unused player of `order`; false when this stage cannot (or ran out of steps).
    fn run(&mut self, order: &[usize]) -> bool {
        let free: Vec<usize> = order.iter().copied().filter(|&i| !self.used[i]).collect();
        let Some((&top, rest)) = free.split_first() else {
            return true;
        };
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let points = self.players[top].points;
        let group_len = 1 + rest
            .iter()
            .take_while(|&&i| self.players[i].points == points)
            .count();
        // The top player heads S1; S2 starts at half the group.
        let half = group_len / 2;
        let group = &free[..group_len];
        let candidates = group[half.max(1)..]
            .iter()
            .chain(group[1..half.max(1)].iter().rev())
            .chain(free[group_len..].iter());
        for &other in candidates {
            if !self.allowed(top, other) {
                continue;
            }
            self.used[top] = true;
            self.used[other] = true;
            self.pairs.push((top, other));
            if self.run(order) {
                return true;
            }
            self.pairs.pop();
            self.used[top] = false;
            self.used[other] = false;
        }
        false
    }
}

/// Colours and board order for the pairs found.
fn plan(
    players: &[Player],
    order: &[usize],
    pairs: Vec<(usize, usize)>,
    bye: Option<usize>,
) -> RoundPlan {
    let rank = |i: usize| {
        order
            .iter()
            .position(|&j| j == i)
            .expect("paired players are ranked")
    };
    let mut pairs: Vec<(usize, usize)> = pairs
        .into_iter()
        .map(|(a, b)| if rank(a) < rank(b) { (a, b) } else { (b, a) })
        .collect();
    pairs.sort_by_key(|&(a, _)| rank(a));
    let pairs = pairs
        .into_iter()
        .enumerate()
        .map(|(board, (higher, lower))| {
            let higher_takes_x = takes_x(&players[higher], &players[lower], board);
            let (x, o) = match higher_takes_x {
                true => (higher, lower),
                false => (lower, higher),
            };
            (players[x].name.clone(), players[o].name.clone())
        })
        .collect();
    RoundPlan {
        pairs,
        bye: bye.map(|i| players[i].name.clone()),
    }
}

/// Whether the higher-ranked player of a pair gets `x` (the rules in the module's words).
fn takes_x(higher: &Player, lower: &Player, board: usize) -> bool {
    let (bh, bl) = (higher.balance(), lower.balance());
    if bh != bl {
        return bh < bl;
    }
    let (ch, cl) = (&higher.colours, &lower.colours);
    for (h, l) in ch.iter().rev().zip(cl.iter().rev()) {
        if h != l {
            return *h == Colour::O;
        }
    }
    match ch.last() {
        Some(last) => *last == Colour::O,
        None => board.is_multiple_of(2),
    }
}

#[cfg(test)]
mod tests {
    use super::super::scores::row;
    use super::*;

    fn field(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("p{i}")).collect()
    }

    /// Plays `rounds` rounds of `n` players, the higher seed always winning, and returns the
    /// pairings.
    fn play(n: usize, rounds: i64) -> Vec<PairingRow> {
        let players = field(n);
        let seed = |name: &str| name[1..].parse::<usize>().unwrap();
        let mut history = vec![];
        for round in 1..=rounds {
            let plan = pair_round(&players, &history);
            for (x, o) in &plan.pairs {
                let result = if seed(x) < seed(o) { "1-0" } else { "0-1" };
                history.push(row(round, x, Some(o), result));
            }
            if let Some(bye) = &plan.bye {
                history.push(row(round, bye, None, "bye"));
            }
        }
        history
    }

    #[test]
    fn round_one_pairs_the_top_half_with_the_bottom_half_alternating_colours() {
        let plan = pair_round(&field(6), &[]);
        let pairs: Vec<(&str, &str)> = plan
            .pairs
            .iter()
            .map(|(x, o)| (x.as_str(), o.as_str()))
            .collect();
        assert_eq!(pairs, [("p1", "p4"), ("p5", "p2"), ("p3", "p6")]);
        assert_eq!(plan.bye, None);
    }

    #[test]
    fn the_bye_goes_to_the_lowest_ranked_player_once() {
        let plan = pair_round(&field(7), &[]);
        assert_eq!(plan.bye.as_deref(), Some("p7"));
        let history = play(7, 7);
        let byes: Vec<&str> = history
            .iter()
            .filter(|r| r.o.is_none())
            .map(|r| r.x.as_str())
            .collect();
        let unique: HashSet<&&str> = byes.iter().collect();
        assert_eq!((byes.len(), unique.len()), (7, 7), "{byes:?}");
    }

    #[test]
    fn seven_players_over_six_rounds_never_meet_twice_and_keep_colours_balanced() {
        let history = play(7, 6);
        let mut met = HashSet::new();
        for r in history.iter().filter(|r| r.o.is_some()) {
            let o = r.o.clone().unwrap();
            let pair = if r.x < o {
                (r.x.clone(), o)
            } else {
                (o, r.x.clone())
            };
            assert!(met.insert(pair.clone()), "{pair:?} met twice");
        }
        for name in field(7) {
            let x = history
                .iter()
                .filter(|r| r.x == name && r.o.is_some())
                .count() as i32;
            let o = history
                .iter()
                .filter(|r| r.o.as_deref() == Some(&name))
                .count() as i32;
            assert!((x - o).abs() <= 1, "{name}: {x} x, {o} o");
        }
    }

    #[test]
    fn winners_meet_winners() {
        let history = play(8, 1);
        let plan = pair_round(&field(8), &history);
        // After round 1 (1v5, 2v6, 3v7, 4v8 won by 1-4; 1 and 3 had x, 2 and 4 had o), the
        // winners' group would pair 1v3, 2v4, but both of each pair are due the same colour:
        // the Dutch transposition gives 1v4 and 2v3, each with its colour due.
        let winners: HashSet<&str> = ["p1", "p2", "p3", "p4"].into();
        for (x, o) in &plan.pairs {
            assert_eq!(
                winners.contains(x.as_str()),
                winners.contains(o.as_str()),
                "{x} v {o}"
            );
        }
        assert_eq!(
            &plan.pairs[..2],
            [("p4".into(), "p1".into()), ("p2".into(), "p3".into())]
        );
    }

    #[test]
    fn a_field_too_small_for_its_rounds_meets_again() {
        let history = play(2, 3);
        assert_eq!(history.len(), 3);
        let last = &history[2];
        assert!(last.o.is_some());
    }
}
