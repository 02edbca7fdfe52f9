//! The crosstable, pure: no I/O. Each player's line in the order of the standings, with every
//! game of theirs in the order it was paired, as chess crosstables print them: the opponent's
//! place in the standings, the side played and the result, `1`, `½` or `0`; a bye is `+` (it
//! scores a point in a Swiss), a game neither played `-`, and a game in play `*`.

use std::collections::HashMap;

use serde::Serialize;

use super::scores::{Outcome, Standing};
use crate::model::PairingRow;

/// One player's line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CrossLine {
    /// From 1, as in the standings.
    pub place: usize,
    pub name: String,
    pub games: Vec<CrossGame>,
}

/// One game of a line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CrossGame {
    pub round: i64,
    /// The opponent's place; None for a bye.
    pub opponent: Option<usize>,
    /// `x` or `o`; None for a bye.
    pub side: Option<&'static str>,
    /// `1`, `½`, `0`, `+` (a bye), `-` (not played) or `*` (in play).
    pub result: &'static str,
}

impl CrossGame {
    /// As printed: `3x1` (against the third placed, as x, won), `+` for a bye.
    pub fn text(&self) -> String {
        match (self.opponent, self.side) {
            (Some(place), Some(side)) => format!("{place}{side}{}", self.result),
            _ => self.result.to_string(),
        }
    }
}

/// The crosstable of `pairings`, its lines in the order of `standings`.
pub fn crosstable(standings: &[Standing], pairings: &[PairingRow]) -> Vec<CrossLine> {
    let place: HashMap<&str, usize> = standings
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.as_str(), i + 1))
        .collect();
    standings
        .iter()
        .map(|standing| {
            let name = standing.name.as_str();
            let games = pairings
                .iter()
                .filter_map(|row| game_of(row, name, &place))
                .collect();
            CrossLine {
                place: place[name],
                name: standing.name.clone(),
                games,
            }
        })
        .collect()
}

/// `row` from `player`'s side, None when they are not in it.
fn game_of(row: &PairingRow, player: &str, place: &HashMap<&str, usize>) -> Option<CrossGame> {
    let as_x = row.x == player;
    if !as_x && row.o.as_deref() != Some(player) {
        return None;
    }
    let result = match (Outcome::of(row), as_x) {
        (Outcome::Bye, _) => "+",
        (Outcome::Pending, _) => "*",
        (Outcome::Void, _) => "-",
        (Outcome::Draw, _) => "½",
        (Outcome::XWins, true) | (Outcome::OWins, false) => "1",
        (Outcome::XWins, false) | (Outcome::OWins, true) => "0",
    };
    let opponent = match as_x {
        true => row.o.as_deref(),
        false => Some(row.x.as_str()),
    };
    Some(CrossGame {
        round: row.round,
        opponent: opponent.and_then(|name| place.get(name).copied()),
        side: opponent.map(|_| if as_x { "x" } else { "o" }),
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::tournaments::scores::{row, swiss_standings};

    #[test]
    fn each_line_reads_its_games_from_its_own_side_in_the_order_of_the_standings() {
        let names: Vec<String> = ["ann", "bob", "cy"].map(String::from).to_vec();
        let pairings = [
            row(1, "ann", Some("bob"), "1-0"),
            row(1, "cy", None, "bye"),
            row(2, "cy", Some("ann"), "1/2-1/2"),
            row(2, "bob", None, "bye"),
            row(3, "bob", Some("cy"), "0-1"),
            row(3, "ann", None, "bye"),
        ];
        // ann 2½, cy 2½ (ann ahead on Buchholz: she beat bob), bob 1.
        let standings = swiss_standings(&names, &pairings);
        let table = crosstable(&standings, &pairings);
        let lines: Vec<(String, Vec<String>)> = table
            .iter()
            .map(|l| {
                (
                    l.name.clone(),
                    l.games.iter().map(CrossGame::text).collect(),
                )
            })
            .collect();
        let order: Vec<&str> = standings.iter().map(|s| s.name.as_str()).collect();
        let at = |name: &str| order.iter().position(|n| *n == name).unwrap() + 1;
        let expected = |name: &str, games: &[String]| (name.to_string(), games.to_vec());
        assert!(lines.contains(&expected(
            "ann",
            &[
                format!("{}x1", at("bob")),
                format!("{}o½", at("cy")),
                "+".into()
            ]
        )));
        assert!(lines.contains(&expected(
            "bob",
            &[
                format!("{}o0", at("ann")),
                "+".into(),
                format!("{}x0", at("cy"))
            ]
        )));
        assert!(lines.contains(&expected(
            "cy",
            &[
                "+".into(),
                format!("{}x½", at("ann")),
                format!("{}o1", at("bob"))
            ]
        )));
        let places: Vec<usize> = table.iter().map(|l| l.place).collect();
        assert_eq!(places, [1, 2, 3]);
        assert_eq!(table[0].name, order[0]);
    }

    #[test]
    fn unplayed_and_running_games_are_marked_as_such() {
        let names: Vec<String> = ["ann", "bob"].map(String::from).to_vec();
        let pairings = [
            row(1, "ann", Some("bob"), "0-0"),
            row(2, "bob", Some("ann"), "*"),
        ];
        let standings = swiss_standings(&names, &pairings);
        let table = crosstable(&standings, &pairings);
        for line in &table {
            let results: Vec<&str> = line.games.iter().map(|g| g.result).collect();
            assert_eq!(results, ["-", "*"], "{line:?}");
        }
    }
}
