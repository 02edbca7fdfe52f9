//! Tournaments as stored: the tournament, its players and its pairings (migration 0013).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// Which kind of tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TournamentKind {
    /// Pair whoever is free, for a fixed time, lichess style.
    Arena,
    /// A set number of rounds of score-group pairings.
    Swiss,
    /// A standing round robin of bot accounts from an opening book.
    League,
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TournamentStatus {
    Open,
    Running,
    Finished,
}

macro_rules! named {
    ($type:ident, $what:literal, $($variant:ident = $name:literal),+) => {
        impl $type {
            pub const fn as_str(self) -> &'static str {
                match self { $($type::$variant => $name),+ }
            }
        }
        impl fmt::Display for $type {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl FromStr for $type {
            type Err = String;
            fn from_str(text: &str) -> Result<Self, String> {
                match text {
                    $($name => Ok($type::$variant),)+
                    other => Err(format!(
                        concat!("{:?} is no ", $what, "; give one of: {}"),
                        other,
                        [$($name),+].join(", ")
                    )),
                }
            }
        }
    };
}

named!(
    TournamentKind,
    "tournament kind",
    Arena = "arena",
    Swiss = "swiss",
    League = "league"
);
named!(
    TournamentStatus,
    "tournament status",
    Open = "open",
    Running = "running",
    Finished = "finished"
);

/// A tournament row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentRow {
    pub id: i64,
    pub kind: TournamentKind,
    pub name: String,
    /// The game's name ([`games::GameKind::name`]).
    pub game: String,
    pub creator: String,
    pub status: TournamentStatus,
    /// Swiss: rounds to play; league: cycles of the round robin (each pair meets twice a cycle,
    /// colours swapped), 0 for a league with no end; arena: unused (0).
    pub rounds: i64,
    /// The round being played (Swiss, league) or the number of pairing waves so far (arena).
    pub round: i64,
    /// Arena: how long it runs once started.
    pub minutes: i64,
    /// A live clock; None with `days`.
    pub clock_base_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    /// Correspondence: days per move.
    pub days: Option<i64>,
    pub rated: bool,
    pub created_ms: i64,
    /// When an arena or league starts by itself, if it does.
    pub starts_ms: Option<i64>,
    pub started_ms: Option<i64>,
    pub finished_ms: Option<i64>,
}

impl TournamentRow {
    /// When an arena stops pairing; None for other kinds or before it starts.
    pub fn ends_ms(&self) -> Option<i64> {
        match self.kind {
            TournamentKind::Arena => self.started_ms.map(|s| s + self.minutes * 60_000),
            _ => None,
        }
    }

    /// Whether a Swiss or league has played its last round (a league with no end never has,
    /// until its creator stops it).
    pub fn last_round_played(&self) -> bool {
        let endless = self.kind == TournamentKind::League && self.rounds == 0;
        !endless && self.round >= self.rounds
    }
}

/// A player of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EntryRow {
    pub name: String,
    /// Their rating in the tournament's game when they joined: the seed order.
    pub rating: f64,
    pub joined_ms: i64,
    /// Left: not paired any more (an arena player may come back).
    pub withdrawn: bool,
}

/// A pairing: two players and their board, or a bye (`o` None, result `bye`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairingRow {
    pub round: i64,
    /// The board's place in its round, from 1.
    pub board: i64,
    pub x: String,
    pub o: Option<String>,
    /// The server's board number of the game.
    pub game: Option<i64>,
    /// `*` while in play, `1-0`, `0-1`, `1/2-1/2`, `0-0` (not played), or `bye`.
    pub result: String,
}
