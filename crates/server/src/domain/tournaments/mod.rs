//! Tournaments: arenas, Swiss and the engine league, played as ordinary boards.
//!
//! Anyone may join, leave and look; only the leader node decides ([`Tournaments::advance`],
//! driven by [`Tournaments::direct`]): it starts tournaments, pairs, gives byes, opens rounds
//! and ends them. Each decision is one transaction that locks the tournament's row, re-reads its
//! state, and writes the pairings together with their new boards, so a decision is made once and
//! a node dying mid-way loses nothing: the next leader finds the state as it was committed and
//! carries on. A game's result reaches its pairing in the transaction that ends the game
//! (`Games::finish`), so no result is lost either, and ordinary moves cost nothing extra.
//!
//! The pairing systems are pure functions: [`swiss`], [`arena`], [`league`] (with its openings
//! and Elo table); scores and tie breaks in [`scores`].

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use games::GameKind;
use serde::Serialize;
use serde_json::json;
use tokio::sync::watch;

use crate::domain::clock::Clock;
use crate::domain::games::{open_board, ChallengeOptions, Games};
use crate::domain::leader::Leader;
use crate::domain::publish;
use crate::error::{Error, Result};
use crate::events::Publisher;
use crate::model::{
    EntryRow, GameRow, PairingRow, Status, TournamentKind, TournamentRow, TournamentStatus,
};
use crate::store::tournaments as tournament_store;
use crate::store::{self, Storage, WriteTx};

pub mod arena;
pub mod crosstable;
pub mod league;
pub mod scores;
pub mod swiss;

use scores::Standing;

/// The longest tournament name.
pub const MAX_NAME: usize = 80;
/// The most rounds a Swiss may have.
pub const MAX_ROUNDS: i64 = 30;
/// The longest arena, in minutes (a day).
pub const MAX_MINUTES: i64 = 1440;
/// How many tournaments the list shows.
const LIST_LIMIT: i64 = 200;

/// What a new tournament is to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewTournament {
    pub kind: TournamentKind,
    pub name: String,
    pub game: GameKind,
    /// Swiss: the rounds; league: the cycles of its round robin, or 0 for a league with no end
    /// (it plays on until its creator stops it).
    pub rounds: i64,
    /// Arena: its length.
    pub minutes: i64,
    /// `M+S`, a live clock.
    pub clock: Option<String>,
    /// Days per move: correspondence (Swiss only).
    pub days: Option<i64>,
    pub rated: bool,
    /// An arena or league starts by itself at this time.
    pub starts_ms: Option<i64>,
}

impl NewTournament {
    /// Sensible defaults for a kind: a 3+2 clock, 3 rounds or 30 minutes, ataxx, rated.
    pub fn new(kind: TournamentKind, name: &str) -> NewTournament {
        NewTournament {
            kind,
            name: name.to_string(),
            game: GameKind::Ataxx,
            rounds: 3,
            minutes: 30,
            clock: None,
            days: None,
            rated: true,
            starts_ms: None,
        }
    }

    /// The board options every game of the tournament gets; refuses what cannot be played.
    fn options(&self) -> Result<ChallengeOptions> {
        let mut options = ChallengeOptions::new(self.game);
        let bad = |why: String| Err(Error::Command(why));
        let name = self.name.trim();
        if name.is_empty() || name.len() > MAX_NAME || name.chars().any(char::is_control) {
            return bad(format!(
                "a tournament needs a name of 1 to {MAX_NAME} printable characters"
            ));
        }
        // The league's book holds Ataxx openings.
        if self.kind == TournamentKind::League && self.game != GameKind::Ataxx {
            return bad(format!(
                "an engine league plays ataxx from its book of openings, not {}",
                self.game
            ));
        }
        if options.start()?.seats() != 2 {
            return bad(format!(
                "tournaments pair two players a board; {} is played by more",
                self.game
            ));
        }
        match (&self.clock, self.days) {
            (Some(_), Some(_)) => return bad("give clock=M+S or days=D, not both".into()),
            (Some(clock), None) => options.set("clock", Some(clock))?,
            (None, Some(days)) => {
                if self.kind == TournamentKind::Arena {
                    return bad("an arena is played on a live clock: give clock=M+S".into());
                }
                options.set("forfeittime", Some(&days.to_string()))?;
                options.nag_days = (days - 1).max(1);
            }
            (None, None) => options.set("clock", Some("3+2"))?,
        }
        match self.kind {
            TournamentKind::Swiss if !(1..=MAX_ROUNDS).contains(&self.rounds) => {
                return bad(format!("rounds={}: give 1 to {MAX_ROUNDS}", self.rounds));
            }
            TournamentKind::League if !(0..=MAX_ROUNDS).contains(&self.rounds) => {
                return bad(format!(
                    "rounds={}: give 1 to {MAX_ROUNDS} cycles, or 0 for a league with no end",
                    self.rounds
                ));
            }
            _ => {}
        }
        if self.kind == TournamentKind::Arena && !(1..=MAX_MINUTES).contains(&self.minutes) {
            return bad(format!(
                "minutes={}: an arena lasts 1 to {MAX_MINUTES} minutes",
                self.minutes
            ));
        }
        Ok(options)
    }
}

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

fn clock_text(t: &TournamentRow) -> Option<String> {
    t.clock_base_ms
        .zip(t.clock_increment_ms)
        .map(|(base, inc)| format!("{}+{}", base as f64 / 60_000.0, inc / 1000))
}

/// The tournament service.
#[derive(Clone)]
pub struct Tournaments {
    storage: Storage,
    games: Games,
    clock: Arc<Clock>,
    publisher: Publisher,
}

impl Tournaments {
    pub fn new(storage: Storage, games: Games, clock: Arc<Clock>, publisher: Publisher) -> Self {
        Tournaments {
            storage,
            games,
            clock,
            publisher,
        }
    }

    /// Tells the lobby streams (and so every tournament page) that a tournament changed.
    async fn announce(&self, id: i64) {
        let json = json!({"type": "tournament", "id": id}).to_string();
        publish::lobby(&self.publisher, &self.storage, json).await
    }

    async fn load(conn: &mut store::Conn, id: i64) -> Result<TournamentRow> {
        tournament_store::tournament(conn, id)
            .await?
            .ok_or(Error::UnknownTournament(id))
    }

    async fn lock(conn: &mut store::Conn, id: i64) -> Result<TournamentRow> {
        tournament_store::tournament_for_update(conn, id)
            .await?
            .ok_or(Error::UnknownTournament(id))
    }

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

    /// Creates a tournament; `creator` joins nothing by creating it.
    pub async fn create(&self, creator: &str, new: &NewTournament) -> Result<TournamentView> {
        let options = new.options()?;
        let now = self.clock.now_ms();
        let mut tx = self.storage.write().await?;
        let row = TournamentRow {
            id: tournament_store::next_tournament(&mut tx).await?,
            kind: new.kind,
            name: new.name.trim().to_string(),
            game: new.game.name().to_string(),
            creator: creator.to_string(),
            status: TournamentStatus::Open,
            rounds: if new.kind == TournamentKind::Arena {
                0
            } else {
                new.rounds
            },
            round: 0,
            minutes: if new.kind == TournamentKind::Arena {
                new.minutes
            } else {
                0
            },
            clock_base_ms: options.clock.map(|c| c.0),
            clock_increment_ms: options.clock.map(|c| c.1),
            days: new.days,
            rated: new.rated,
            created_ms: now,
            starts_ms: new.starts_ms,
            started_ms: None,
            finished_ms: None,
        };
        tournament_store::insert_tournament(&mut tx, &row).await?;
        tx.commit().await?;
        tracing::info!(tournament = row.id, kind = %row.kind, %creator, "tournament created");
        self.announce(row.id).await;
        Ok(view(row, &[], &[]))
    }

    /// `user` joins, or comes back after withdrawing (an arena, or anything still open).
    pub async fn join(&self, id: i64, user: &str) -> Result<TournamentView> {
        let now = self.clock.now_ms();
        let mut tx = self.storage.write().await?;
        let t = Self::lock(&mut tx, id).await?;
        let refuse = |why: String| Err(Error::Command(why));
        if t.status == TournamentStatus::Finished {
            return refuse(format!("tournament {id} is finished"));
        }
        let account = store::user(&mut tx, user)
            .await?
            .ok_or_else(|| Error::UnknownUser(user.to_string()))?;
        // People and bots meet in arenas and Swiss; a league is for bot accounts alone.
        if t.kind == TournamentKind::League && account.bot_level.is_none() {
            return refuse(format!(
                "tournament {id} is an engine league: only bot accounts play in it"
            ));
        }
        if t.status == TournamentStatus::Running && t.kind == TournamentKind::Swiss {
            return refuse(format!(
                "tournament {id} is a Swiss under way: players join before it starts"
            ));
        }
        let rating = store::rating(&mut tx, user, &t.game).await?.rating;
        let entry = EntryRow {
            name: user.to_string(),
            rating,
            joined_ms: now,
            withdrawn: false,
        };
        if !tournament_store::join(&mut tx, id, &entry).await? {
            return refuse(format!("{user} is in tournament {id} already"));
        }
        tx.commit().await?;
        tracing::info!(tournament = id, %user, "joined");
        self.announce(id).await;
        self.show(id).await
    }

    /// `user` leaves: before the start they are gone; after it they are not paired again (their
    /// games in play go on, and count).
    pub async fn withdraw(&self, id: i64, user: &str) -> Result<TournamentView> {
        let mut tx = self.storage.write().await?;
        let t = Self::lock(&mut tx, id).await?;
        let done = match t.status {
            TournamentStatus::Open => tournament_store::remove_entry(&mut tx, id, user).await?,
            TournamentStatus::Running => tournament_store::withdraw(&mut tx, id, user).await?,
            TournamentStatus::Finished => {
                return Err(Error::Command(format!("tournament {id} is finished")))
            }
        };
        if !done {
            return Err(Error::Command(format!(
                "{user} is not playing in tournament {id}"
            )));
        }
        tx.commit().await?;
        tracing::info!(tournament = id, %user, "withdrew");
        self.announce(id).await;
        self.show(id).await
    }

    /// Starts a tournament at its creator's word. The leader pairs its first round within a
    /// tick of the director.
    pub async fn start(&self, id: i64, user: &str) -> Result<TournamentView> {
        let now = self.clock.now_ms();
        let mut tx = self.storage.write().await?;
        let mut t = Self::lock(&mut tx, id).await?;
        if t.creator != user {
            return Err(Error::Command(format!(
                "only {} (who created tournament {id}) may start it",
                t.creator
            )));
        }
        if t.status != TournamentStatus::Open {
            return Err(Error::Command(format!(
                "tournament {id} is {}, not open",
                t.status
            )));
        }
        let players = tournament_store::entries(&mut tx, id).await?;
        if players.len() < 2 {
            return Err(Error::Command(format!(
                "tournament {id} has {} player(s): it needs two to start",
                players.len()
            )));
        }
        t.status = TournamentStatus::Running;
        t.started_ms = Some(now);
        tournament_store::update_tournament(&mut tx, &t).await?;
        tx.commit().await?;
        tracing::info!(tournament = id, %user, "started");
        self.announce(id).await;
        self.show(id).await
    }

    /// Stops a Swiss or a league at its creator's word: no round or cycle starts after the one
    /// in play, whose games are played out and count; one not yet paired finishes at once. This
    /// is how a league with no end ends.
    pub async fn stop(&self, id: i64, user: &str) -> Result<TournamentView> {
        let now = self.clock.now_ms();
        let mut tx = self.storage.write().await?;
        let mut t = Self::lock(&mut tx, id).await?;
        if t.creator != user {
            return Err(Error::Command(format!(
                "only {} (who created tournament {id}) may stop it",
                t.creator
            )));
        }
        if t.kind == TournamentKind::Arena {
            return Err(Error::Command(format!(
                "tournament {id} is an arena: it ends at its set time"
            )));
        }
        if t.status == TournamentStatus::Finished {
            return Err(Error::Command(format!("tournament {id} is finished")));
        }
        if t.round == 0 {
            t.status = TournamentStatus::Finished;
            t.finished_ms = Some(now);
        } else {
            t.rounds = t.round;
        }
        tournament_store::update_tournament(&mut tx, &t).await?;
        tx.commit().await?;
        tracing::info!(tournament = id, %user, round = t.round, "stopped");
        self.announce(id).await;
        self.show(id).await
    }

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
        let in_play = pairings.iter().any(|p| p.result == "*");
        let active: Vec<String> = entries
            .iter()
            .filter(|e| !e.withdrawn)
            .map(|e| e.name.clone())
            .collect();
        let plan = match t.kind {
            TournamentKind::Swiss | TournamentKind::League => {
                if in_play {
                    vec![]
                } else if t.last_round_played() || active.len() < 2 {
                    t.status = TournamentStatus::Finished;
                    t.finished_ms = Some(now);
                    changed = true;
                    vec![]
                } else {
                    t.round += 1;
                    next_round(&t, &active, &pairings)
                }
            }
            TournamentKind::Arena => {
                if t.ends_ms().is_some_and(|end| now >= end) {
                    if !in_play {
                        t.status = TournamentStatus::Finished;
                        t.finished_ms = Some(now);
                        changed = true;
                    }
                    vec![]
                } else {
                    let busy: HashSet<&str> = pairings
                        .iter()
                        .filter(|p| p.result == "*")
                        .flat_map(|p| [Some(p.x.as_str()), p.o.as_deref()])
                        .flatten()
                        .collect();
                    let standings = scores::arena_standings(&active, &pairings);
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
                    let pairs = arena::pair_free(&free, &pairings);
                    if !pairs.is_empty() {
                        t.round += 1;
                    }
                    pairs.into_iter().map(|(x, o)| (x, Some(o))).collect()
                }
            }
        };
        let mut boards = vec![];
        let options = options_of(&t)?;
        let paired = pairings.len();
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
                match open_board(&mut tx, &players, &options, &accepted, t.rated, now).await {
                    Ok(game) => {
                        pairing.game = Some(game.board);
                        pairing.result = "*".into();
                        boards.push(game);
                    }
                    // A player who may not play now (account closed, too many games) loses
                    // this board unplayed, as does their opponent: nothing to wait for.
                    Err(err @ (Error::InvalidChallenge(_) | Error::Command(_))) => {
                        tracing::warn!(tournament = id, %err, "pairing not played");
                        pairing.result = "0-0".into();
                    }
                    Err(err) => return Err(err),
                }
            }
            tournament_store::insert_pairing(&mut tx, id, &pairing).await?;
            changed = true;
        }
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

/// The pairs of a Swiss round (with the bye last, `o` None), or of a league's cycle: every
/// two engines play twice, colours swapped.
fn next_round(
    t: &TournamentRow,
    active: &[String],
    pairings: &[PairingRow],
) -> Vec<(String, Option<String>)> {
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

fn view(t: TournamentRow, entries: &[EntryRow], pairings: &[PairingRow]) -> TournamentView {
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
