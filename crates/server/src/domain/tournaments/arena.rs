//! Arena pairing, pure: whoever is free is paired at once with a free player of near score.
//!
//! Free players (in the tournament, not withdrawn, with no game of it in play) are ranked by
//! arena points, then seed; from the top, each is paired with the next free player down the
//! list who was not their last opponent (with that one when nobody else is free). A lone free
//! player waits for the next game to end. The player who has had `x` less often gets it; on
//! equal counts, the higher-ranked player does.

use std::collections::HashMap;

use crate::model::PairingRow;

/// One free player as the pairing sees them.
#[derive(Clone, Debug)]
pub struct Free {
    pub name: String,
    pub points: f64,
    /// Their place in seed order.
    pub seed: usize,
}

/// Pairs the free players; returns `(x, o)` pairs.
pub fn pair_free(free: &[Free], history: &[PairingRow]) -> Vec<(String, String)> {
    let mut last_opponent: HashMap<&str, &str> = HashMap::new();
    let mut balance: HashMap<&str, i32> = HashMap::new();
    let mut rows: Vec<&PairingRow> = history.iter().filter(|r| r.o.is_some()).collect();
    rows.sort_by_key(|r| (r.round, r.board));
    for row in rows {
        let o = row.o.as_deref().expect("filtered to games");
        last_opponent.insert(&row.x, o);
        last_opponent.insert(o, &row.x);
        *balance.entry(&row.x).or_default() += 1;
        *balance.entry(o).or_default() -= 1;
    }
    let mut ranked: Vec<&Free> = free.iter().collect();
    ranked.sort_by(|a, b| {
        b.points
            .partial_cmp(&a.points)
            .expect("points are finite")
            .then(a.seed.cmp(&b.seed))
    });
    let mut pairs = vec![];
    while ranked.len() >= 2 {
        let top = ranked.remove(0);
        let rematch = |f: &&Free| last_opponent.get(top.name.as_str()) == Some(&f.name.as_str());
        let pick = ranked.iter().position(|f| !rematch(f)).unwrap_or(0);
        let other = ranked.remove(pick);
        let bal = |name: &str| balance.get(name).copied().unwrap_or(0);
        match bal(&other.name) < bal(&top.name) {
            true => pairs.push((other.name.clone(), top.name.clone())),
            false => pairs.push((top.name.clone(), other.name.clone())),
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::super::scores::row;
    use super::*;

    fn free(list: &[(&str, f64)]) -> Vec<Free> {
        list.iter()
            .enumerate()
            .map(|(seed, (name, points))| Free {
                name: name.to_string(),
                points: *points,
                seed,
            })
            .collect()
    }

    #[test]
    fn near_scores_meet_and_the_last_opponent_is_avoided() {
        let history = vec![row(1, "a", Some("b"), "1-0"), row(1, "c", Some("d"), "1-0")];
        let pairs = pair_free(
            &free(&[("d", 0.0), ("a", 2.0), ("b", 0.0), ("c", 2.0)]),
            &history,
        );
        // a and c lead with 2: they meet, c (who had x as often as a) gets o as the lower seed.
        // b and d were not each other's last opponents.
        assert_eq!(pairs, [("a".into(), "c".into()), ("d".into(), "b".into())]);
        // b had o, d had o: equal, so the higher-ranked (d, seed 0) takes x.
    }

    #[test]
    fn a_lone_player_waits_and_the_only_choice_is_a_rematch() {
        let history = vec![row(1, "a", Some("b"), "1-0")];
        assert!(pair_free(&free(&[("a", 2.0)]), &history).is_empty());
        let pairs = pair_free(&free(&[("a", 2.0), ("b", 0.0)]), &history);
        // a had x: b gets it now.
        assert_eq!(pairs, [("b".into(), "a".into())]);
    }
}
