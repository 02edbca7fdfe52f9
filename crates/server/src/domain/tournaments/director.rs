//! The leader's tournament director: on every tick, each tournament not yet finished takes its
//! next step ([`Tournaments::advance`]), decided from what is committed, under the
//! tournament's row lock.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use games::GameKind;
use tokio::sync::watch;

use super::{arena, league, scores, swiss, Tournaments};
use crate::domain::games::{open_board, ChallengeOptions};
use crate::domain::leader::Leader;
use crate::error::{Error, Result};
use crate::model::{GameRow, PairingRow, Status, TournamentKind, TournamentRow, TournamentStatus};
use crate::store::tournaments as tournament_store;
use crate::store::{self, WriteTx};

impl Tournaments {
    /// Runs the tournaments while this node leads: every `interval`, each tournament not yet
    /// finished takes its next step ([`Tournaments::advance`]).
    pub async fn direct(
        self,
        leader: Leader,
        interval: Duration,
        mut stopped: watch::Receiver<bool>,
    ) {
        let mut ticker = tokio::time::interval(interval);
        // What each page last saw, to announce results as they come in.
        let mut decided: HashMap<i64, usize> = HashMap::new();
        loop {
            tokio::select! {
                _ = ticker.tick() => {
                    if !leader.leads() {
                        continue;
                    }
                    if let Err(err) = self.tick(&mut decided).await {
                        tracing::warn!(%err, "tournament director");
                    }
                }
                _ = stopped.changed() => return,
            }
        }
    }

    async fn tick(&self, decided: &mut HashMap<i64, usize>) -> Result<()> {
        let ids = {
            let mut conn = self.storage.read().await?;
            tournament_store::unfinished_tournaments(&mut conn).await?
        };
        for id in ids {
            let changed = store::retry_conflicts("a tournament's step", || self.advance(id)).await;
            let changed = match changed {
                Ok(changed) => changed,
                Err(err) => {
                    tracing::warn!(tournament = id, %err, "tournament step");
                    continue;
                }
            };
            let count = {
                let mut conn = self.storage.read().await?;
                tournament_store::pairings(&mut conn, id)
                    .await?
                    .iter()
                    .filter(|p| p.result != "*")
                    .count()
            };
            if changed || decided.insert(id, count) != Some(count) {
                decided.insert(id, count);
                self.announce(id).await;
            }
        }
        Ok(())
    }

    /// The leader's step for one tournament: start it when its time has come, void pairings
    /// whose boards closed unplayed, pair (a new Swiss round once the last one is over; free
    /// arena players at once), and finish it. Returns whether it changed anything. Safe to run
    /// again at any time: it decides from what is committed, under the tournament's row lock.
    pub async fn advance(&self, id: i64) -> Result<bool> {
        let now = self.clock.now_ms();
        let mut tx = self.storage.write().await?;
        let mut t = Self::lock(&mut tx, id).await?;
        let mut changed = false;
        if t.status == TournamentStatus::Open && t.starts_ms.is_some_and(|s| s <= now) {
            if tournament_store::entries(&mut tx, id).await?.len() < 2 {
                tx.commit().await?;
                return Ok(false);
            }
            t.status = TournamentStatus::Running;
            t.started_ms = Some(now);
            changed = true;
        }
        if t.status != TournamentStatus::Running {
            tx.commit().await?;
            return Ok(false);
        }
        let entries = tournament_store::entries(&mut tx, id).await?;
        let mut pairings = tournament_store::pairings(&mut tx, id).await?;
        changed |= void_closed_boards(&mut tx, id, &mut pairings).await?;
        let active: Vec<String> = entries
            .iter()
            .filter(|e| !e.withdrawn)
            .map(|e| e.name.clone())
            .collect();
        let plan = plan_step(&mut t, &active, &pairings, now);
        changed |= t.status == TournamentStatus::Finished || !plan.is_empty();
        let boards = open_pairings(&mut tx, &t, plan, pairings.len(), now).await?;
        if changed {
            tournament_store::update_tournament(&mut tx, &t).await?;
        }
        self.commit(tx, boards).await?;
        if changed {
            tracing::info!(tournament = id, round = t.round, status = %t.status, "tournament step");
        }
        Ok(changed)
    }

    async fn commit(&self, tx: WriteTx, boards: Vec<GameRow>) -> Result<()> {
        match boards.is_empty() {
            true => tx.commit().await,
            false => self.games.commit_new_boards(tx, boards).await,
        }
    }
}

/// A pairing to open: the players of `x` and `o`, or a bye when `o` is None.
type Pair = (String, Option<String>);

/// What a running tournament pairs now: a Swiss round or league cycle once the last one is
/// over, free arena players at once. Finishes `t` (status and time) when its end has come, and
/// counts the round of the pairs it returns.
fn plan_step(
    t: &mut TournamentRow,
    active: &[String],
    pairings: &[PairingRow],
    now: i64,
) -> Vec<Pair> {
    let in_play = pairings.iter().any(|p| p.result == "*");
    let finish = |t: &mut TournamentRow| {
        t.status = TournamentStatus::Finished;
        t.finished_ms = Some(now);
    };
    match t.kind {
        TournamentKind::Swiss | TournamentKind::League => {
            if in_play {
                vec![]
            } else if t.last_round_played() || active.len() < 2 {
                finish(t);
                vec![]
            } else {
                t.round += 1;
                next_round(t, active, pairings)
            }
        }
        TournamentKind::Arena => {
            if t.ends_ms().is_some_and(|end| now >= end) {
                if !in_play {
                    finish(t);
                }
                vec![]
            } else {
                let pairs = arena_pairs(active, pairings);
                if !pairs.is_empty() {
                    t.round += 1;
                }
                pairs.into_iter().map(|(x, o)| (x, Some(o))).collect()
            }
        }
    }
}

/// The arena's pairs of the players not at a board now, by their points so far.
fn arena_pairs(active: &[String], pairings: &[PairingRow]) -> Vec<(String, String)> {
    let busy: HashSet<&str> = pairings
        .iter()
        .filter(|p| p.result == "*")
        .flat_map(|p| [Some(p.x.as_str()), p.o.as_deref()])
        .flatten()
        .collect();
    let standings = scores::arena_standings(active, pairings);
    let points: HashMap<&str, f64> = standings
        .iter()
        .map(|s| (s.name.as_str(), s.points))
        .collect();
    let free: Vec<arena::Free> = active
        .iter()
        .enumerate()
        .filter(|(_, name)| !busy.contains(name.as_str()))
        .map(|(seed, name)| arena::Free {
            name: name.clone(),
            points: points.get(name.as_str()).copied().unwrap_or(0.0),
            seed,
        })
        .collect();
    arena::pair_free(&free, pairings)
}

/// Writes the pairings of `plan` (round `t.round`, after the `paired` pairings before) and
/// opens their boards in `tx`; returns the new boards, to commit and announce.
async fn open_pairings(
    tx: &mut WriteTx,
    t: &TournamentRow,
    plan: Vec<Pair>,
    paired: usize,
    now: i64,
) -> Result<Vec<GameRow>> {
    let mut boards = vec![];
    let options = options_of(t)?;
    for (index, (x, o)) in plan.into_iter().enumerate() {
        let mut pairing = PairingRow {
            round: t.round,
            board: index as i64 + 1,
            x,
            o,
            game: None,
            result: "bye".into(),
        };
        if let Some(o) = &pairing.o {
            let players = [pairing.x.clone(), o.clone()];
            let accepted = [pairing.x.as_str(), o.as_str()];
            let mut options = options.clone();
            if t.kind == TournamentKind::League {
                options.opening = Some(league::opening(t.id, paired, index));
            }
            match open_board(tx, &players, &options, &accepted, t.rated, now).await {
                Ok(game) => {
                    pairing.game = Some(game.board);
                    pairing.result = "*".into();
                    boards.push(game);
                }
                // A player who may not play now (account closed, too many games) loses
                // this board unplayed, as does their opponent: nothing to wait for.
                Err(err @ (Error::InvalidChallenge(_) | Error::Command(_))) => {
                    tracing::warn!(tournament = t.id, %err, "pairing not played");
                    pairing.result = "0-0".into();
                }
                Err(err) => return Err(err),
            }
        }
        tournament_store::insert_pairing(tx, t.id, &pairing).await?;
    }
    Ok(boards)
}

/// The pairs of a Swiss round (with the bye last, `o` None), or of a league's cycle: every
/// two engines play twice, colours swapped.
fn next_round(t: &TournamentRow, active: &[String], pairings: &[PairingRow]) -> Vec<Pair> {
    if t.kind == TournamentKind::League {
        return league::cycle(active)
            .into_iter()
            .map(|(x, o)| (x, Some(o)))
            .collect();
    }
    let plan = swiss::pair_round(active, pairings);
    plan.pairs
        .into_iter()
        .map(|(x, o)| (x, Some(o)))
        .chain(plan.bye.map(|b| (b, None)))
        .collect()
}

/// Pairings in play whose boards closed without a result (cancelled when an account closed):
/// recorded as not played, `0-0`. Returns whether there were any.
async fn void_closed_boards(
    conn: &mut store::Conn,
    id: i64,
    pairings: &mut [PairingRow],
) -> Result<bool> {
    let mut any = false;
    for pairing in pairings.iter_mut().filter(|p| p.result == "*") {
        let Some(board) = pairing.game else { continue };
        let Some(game) = store::game(conn, board).await? else {
            continue;
        };
        if game.status.is_open() {
            continue;
        }
        let result = match game.status {
            Status::Finished => game.result.clone(),
            _ => "0-0".to_string(),
        };
        tournament_store::record_tournament_result(conn, board, &result).await?;
        tracing::info!(tournament = id, board, %result, "pairing closed");
        pairing.result = result;
        any = true;
    }
    Ok(any)
}

/// The options of a tournament's boards.
fn options_of(t: &TournamentRow) -> Result<ChallengeOptions> {
    let game: GameKind = t
        .game
        .parse()
        .map_err(|_| Error::Command(format!("tournament {} names no known game", t.id)))?;
    let mut options = ChallengeOptions::new(game);
    options.clock = t.clock_base_ms.zip(t.clock_increment_ms);
    if let Some(days) = t.days {
        options.forfeit_days = days;
        options.nag_days = (days - 1).max(1);
    }
    Ok(options)
}
