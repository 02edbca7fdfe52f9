//! Tournaments as the doors show them: the list, and one tournament with its players,
//! standings, league table, crosstable and rounds.

use serde::Serialize;

use super::{crosstable, league, scores, Tournaments};
use crate::error::Result;
use crate::model::{EntryRow, PairingRow, TournamentKind, TournamentRow, TournamentStatus};
use crate::store::tournaments as tournament_store;
use scores::Standing;

/// How many tournaments the list shows.
const LIST_LIMIT: i64 = 200;

/// A tournament as every door shows it (the interface of issue 34).
#[derive(Clone, Debug, Serialize)]
pub struct TournamentView {
    pub id: i64,
    pub kind: TournamentKind,
    pub name: String,
    pub game: String,
    pub creator: String,
    pub status: TournamentStatus,
    pub round: i64,
    /// Swiss rounds or league cycles.
    pub total_rounds: i64,
    pub minutes: i64,
    /// `M+S` or None (correspondence).
    pub clock: Option<String>,
    pub days: Option<i64>,
    pub rated: bool,
    pub starts_ms: Option<i64>,
    pub started_ms: Option<i64>,
    /// When an arena stops pairing.
    pub ends_ms: Option<i64>,
    pub finished_ms: Option<i64>,
    pub players: Vec<PlayerView>,
    pub standings: Vec<Standing>,
    /// A league's Elo table (empty for other kinds).
    pub league: Vec<league::LeagueLine>,
    /// Every player's games, in the order of the standings.
    pub crosstable: Vec<crosstable::CrossLine>,
    pub rounds: Vec<RoundView>,
}

/// A player and whether they are still in.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    pub name: String,
    pub rating: f64,
    pub withdrawn: bool,
}

/// One round's pairings.
#[derive(Clone, Debug, Serialize)]
pub struct RoundView {
    pub round: i64,
    pub pairings: Vec<PairingView>,
    pub bye: Option<String>,
}

/// One board of a round.
#[derive(Clone, Debug, Serialize)]
pub struct PairingView {
    pub board: i64,
    pub x: String,
    pub o: String,
    /// `*` while in play.
    pub result: String,
    /// The server's board number (to watch it).
    pub game: Option<i64>,
}

/// A line of the tournament list.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentSummary {
    pub id: i64,
    pub kind: TournamentKind,
    pub name: String,
    pub game: String,
    pub status: TournamentStatus,
    pub round: i64,
    pub clock: Option<String>,
    pub days: Option<i64>,
    pub players: usize,
    pub starts_ms: Option<i64>,
    pub ends_ms: Option<i64>,
}

/// A tournament's live clock as `M+S`, or None (correspondence).
fn clock_text(t: &TournamentRow) -> Option<String> {
    t.clock_base_ms
        .zip(t.clock_increment_ms)
        .map(|(base, inc)| format!("{}+{}", base as f64 / 60_000.0, inc / 1000))
}

impl Tournaments {
    /// The newest tournaments first.
    pub async fn list(&self) -> Result<Vec<TournamentSummary>> {
        let mut conn = self.storage.read().await?;
        let rows = tournament_store::tournaments(&mut conn, LIST_LIMIT).await?;
        let mut list = Vec::with_capacity(rows.len());
        for t in rows {
            let entries = tournament_store::entries(&mut conn, t.id).await?;
            list.push(TournamentSummary {
                id: t.id,
                kind: t.kind,
                name: t.name.clone(),
                game: t.game.clone(),
                status: t.status,
                round: t.round,
                clock: clock_text(&t),
                days: t.days,
                players: entries.iter().filter(|e| !e.withdrawn).count(),
                starts_ms: t.starts_ms,
                ends_ms: t.ends_ms(),
            });
        }
        Ok(list)
    }

    /// A tournament with its players, standings and rounds.
    pub async fn show(&self, id: i64) -> Result<TournamentView> {
        let mut conn = self.storage.read().await?;
        let t = Self::load(&mut conn, id).await?;
        let entries = tournament_store::entries(&mut conn, id).await?;
        let pairings = tournament_store::pairings(&mut conn, id).await?;
        Ok(view(t, &entries, &pairings))
    }
}

/// A tournament as the doors show it, from its rows.
pub(super) fn view(
    t: TournamentRow,
    entries: &[EntryRow],
    pairings: &[PairingRow],
) -> TournamentView {
    let names: Vec<String> = entries.iter().map(|e| e.name.clone()).collect();
    let standings = match t.kind {
        TournamentKind::Arena => scores::arena_standings(&names, pairings),
        _ => scores::swiss_standings(&names, pairings),
    };
    let league = match t.kind {
        TournamentKind::League => league::table(&names, pairings),
        _ => vec![],
    };
    let crosstable = crosstable::crosstable(&standings, pairings);
    let mut rounds: Vec<RoundView> = vec![];
    for p in pairings {
        if rounds.last().is_none_or(|r| r.round != p.round) {
            rounds.push(RoundView {
                round: p.round,
                pairings: vec![],
                bye: None,
            });
        }
        let round = rounds.last_mut().expect("pushed above");
        match &p.o {
            None => round.bye = Some(p.x.clone()),
            Some(o) => round.pairings.push(PairingView {
                board: p.board,
                x: p.x.clone(),
                o: o.clone(),
                result: p.result.clone(),
                game: p.game,
            }),
        }
    }
    TournamentView {
        id: t.id,
        kind: t.kind,
        clock: clock_text(&t),
        ends_ms: t.ends_ms(),
        name: t.name,
        game: t.game,
        creator: t.creator,
        status: t.status,
        round: t.round,
        total_rounds: t.rounds,
        minutes: t.minutes,
        days: t.days,
        rated: t.rated,
        starts_ms: t.starts_ms,
        started_ms: t.started_ms,
        finished_ms: t.finished_ms,
        players: entries
            .iter()
            .map(|e| PlayerView {
                name: e.name.clone(),
                rating: e.rating,
                withdrawn: e.withdrawn,
            })
            .collect(),
        standings,
        league,
        crosstable,
        rounds,
    }
}
