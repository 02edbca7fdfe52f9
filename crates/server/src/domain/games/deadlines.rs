//! Deadlines: a live game's first moves, live flags, total time, correspondence forfeit and nag
//! times, found on a board and applied, one board at a time or by the background sweeper.

use super::view::forfeit_outcome;
use super::{Change, Games, DAY_MS, FIRST_MOVE_MS};
use crate::error::{Error, Result};
use crate::model::{EventKind, GameRow, Status};
use crate::store;

/// A deadline that has passed on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Due {
    /// The player to move loses on time; or the game is drawn when a draw offer was still
    /// unanswered at the correspondence forfeit time (spec section 8).
    Forfeit { draw: bool },
    /// The player to move gets a reminder.
    Nag,
    /// A live game's player to move has not made a first move in time: the game is aborted.
    Abort,
}

impl GameRow {
    /// The deadline that has passed at `now`, if any: a live game's first move, a live flag,
    /// the total time, the correspondence forfeit time, or (when `remind`) the nag time. None in
    /// a correspondence game whose player to move is `away` (on vacation: vacation.rs).
    pub(super) fn due(&self, now: i64, remind: bool, away: impl Fn(&str) -> bool) -> Option<Due> {
        if self.status != Status::Active {
            return None;
        }
        let idle = now - self.last_move_ms.or(self.started_ms).unwrap_or(now);
        if self.awaits_first_move() {
            return (idle >= FIRST_MOVE_MS).then_some(Due::Abort);
        }
        let turn = self.position().turn();
        let correspondence = self.clock_base_ms.is_none();
        if correspondence && away(self.name_of(turn)) {
            return None;
        }
        let seat = &self.seats[turn.index()];
        let (remaining, used) = (seat.remaining_ms, seat.used_ms);
        let flag_fell = remaining.is_some_and(|remaining| remaining - idle <= 0);
        let total_spent = self
            .total_days
            .is_some_and(|days| used + idle > days * DAY_MS);
        let forfeit = correspondence && idle >= self.forfeit_days * DAY_MS;
        if flag_fell || total_spent || forfeit {
            return Some(Due::Forfeit {
                draw: forfeit && self.proposal == "draw",
            });
        }
        let nag = correspondence && idle >= self.nag_days * DAY_MS && self.nagged_ply != self.plies;
        (remind && nag).then_some(Due::Nag)
    }
}

impl Games {
    /// Ends a game whose player to move ran out of time (live clock, total time, or the
    /// correspondence forfeit time), or reminds them at the nag time. Returns the change made.
    pub(super) async fn apply_deadline(
        conn: &mut store::Conn,
        game: &mut GameRow,
        due: Due,
        now: i64,
    ) -> Result<Change> {
        let pos = game.position();
        let turn = pos.turn();
        let kind = match due {
            Due::Forfeit { draw } => {
                let (outcome, termination) = match draw {
                    true => (game.agreed_draw(&*pos), "agreement"),
                    false => (forfeit_outcome(&*pos, turn), "time forfeit"),
                };
                Self::finish(conn, game, &outcome, termination, now).await?;
                EventKind::Ended
            }
            Due::Abort => {
                let user = game.name_of(turn).to_string();
                game.status = Status::Withdrawn;
                game.termination = "aborted".into();
                game.finished_ms = Some(now);
                game.rated = false;
                game.unrated_reason = format!(
                    "{user} did not make a first move within {} seconds: the game is aborted",
                    FIRST_MOVE_MS / 1000
                );
                game.clear_proposal();
                game.version += 1;
                tracing::info!(board = game.board, %user, "aborted: no first move");
                // In a tournament, the player who never moved loses the pairing.
                let result = if turn.index() == 0 { "0-1" } else { "1-0" };
                store::tournaments::record_tournament_result(conn, game.board, result).await?;
                EventKind::Ended
            }
            Due::Nag => {
                game.nagged_ply = game.plies;
                game.version += 1;
                let user = game.name_of(turn).to_string();
                tracing::info!(board = game.board, %user, "nag");
                EventKind::Nag { user }
            }
        };
        store::update_game(conn, game).await?;
        Ok(Change {
            kind,
            game: game.clone(),
        })
    }

    /// Moves a test server's clock `ms` forward, then applies the deadlines that passed
    /// (`clock advance`). Returns how many boards changed.
    pub async fn advance_clock(&self, ms: i64) -> Result<usize> {
        self.clock
            .advance(ms)
            .map_err(|err| Error::Command(err.to_string()))?;
        self.sweep().await
    }

    /// Ends the vacations whose time is up, then applies every deadline that has passed (the
    /// background sweeper calls this).
    pub async fn sweep(&self) -> Result<usize> {
        let mut changed = self.end_vacations_due().await?;
        let (boards, away) = {
            let mut conn = self.storage.read().await?;
            (
                store::open_boards(&mut conn).await?,
                store::vacations(&mut conn).await?,
            )
        };
        let away = |name: &str| away.iter().any(|vacation| vacation.name == name);
        let now = self.now_ms();
        // Only boards found due take the write lock, and are checked again under it.
        for candidate in boards.iter().filter(|g| g.due(now, true, away).is_some()) {
            let now = self.now_ms();
            let (mut tx, mut game) = self.write_board(candidate.board).await?;
            let to_move = game.name_of(game.position().turn()).to_string();
            let paused = store::vacation(&mut tx, &to_move).await?.is_some();
            if let Some(due) = game.due(now, true, |_| paused) {
                let change = Self::apply_deadline(&mut tx, &mut game, due, now).await?;
                self.commit(tx, vec![change]).await?;
                changed += 1;
            }
        }
        Ok(changed)
    }
}
