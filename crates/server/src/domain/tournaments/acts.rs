//! What players and creators do to a tournament: create it, join, withdraw, start and stop it.
//! Each act is one transaction under the tournament's row lock, announced to the lobby.

use games::GameKind;

use super::{TournamentView, Tournaments, MAX_MINUTES, MAX_NAME, MAX_ROUNDS};
use crate::domain::games::ChallengeOptions;
use crate::error::{Error, Result};
use crate::model::{EntryRow, TournamentKind, TournamentRow, TournamentStatus};
use crate::store;
use crate::store::tournaments as tournament_store;

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

/// Tournaments one account may have not finished at once: each costs the director a write
/// every second while it runs, and one account made 20,000 in a minute (issue #50).
pub const TOURNAMENTS_PER_CREATOR: i64 = 5;

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

impl Tournaments {
    /// Creates a tournament; `creator` joins nothing by creating it.
    pub async fn create(&self, creator: &str, new: &NewTournament) -> Result<TournamentView> {
        let options = new.options()?;
        let now = self.clock.now_ms();
        let mut tx = self.storage.write().await?;
        let unfinished = tournament_store::unfinished_tournaments_by(&mut tx, creator).await?;
        if unfinished >= TOURNAMENTS_PER_CREATOR {
            return Err(Error::Command(format!(
                "{creator} has {unfinished} tournaments not finished: at most \
                 {TOURNAMENTS_PER_CREATOR} at once"
            )));
        }
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
        Ok(super::views::view(row, &[], &[]))
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
        refuse_unless_creator(&t, user, "start")?;
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
        refuse_unless_creator(&t, user, "stop")?;
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
}

/// Only a tournament's creator may start or stop it (`act` names which, for the refusal).
fn refuse_unless_creator(t: &TournamentRow, user: &str, act: &str) -> Result<()> {
    if t.creator == user {
        return Ok(());
    }
    Err(Error::Command(format!(
        "only {} (who created tournament {}) may {act} it",
        t.creator, t.id
    )))
}
