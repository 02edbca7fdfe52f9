//! What closing an account does to its games (`signoff`, `delete`): an active game is resigned,
//! or cancelled if no move was made yet; an open challenge is withdrawn. New challenges to a
//! closed account are refused by [`Games::challenge`](super::Games::challenge).

use serde::Serialize;

use games::Outcome;

use super::view::{forfeit_outcome, replay, result_text};
use super::{Change, Games};
use crate::domain::accounts::Accounts;
use crate::domain::ratings;
use crate::error::{Error, Result};
use crate::model::{EventKind, GameFilter, GameRow, GameSummary, Status};
use crate::store::{self, WriteTx};

/// Which of a user's open boards [`Games::leave_all`] leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaving {
    /// Open challenges only (a banned user: their games in play go on, and their clocks run).
    Challenges,
    /// Challenges and games in play (a closed account).
    Everything,
}

/// The boards a closed account left.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct LeftBoards {
    /// Active games lost by resignation.
    pub resigned: Vec<i64>,
    /// Games without a move yet, and open challenges: cancelled (status `withdrawn`).
    pub cancelled: Vec<i64>,
}

impl LeftBoards {
    /// One sentence for the reply to `signoff`, empty when no board was open.
    pub fn describe(&self) -> String {
        let list = |boards: &[i64]| {
            boards
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut parts = vec![];
        if !self.resigned.is_empty() {
            parts.push(format!("resigned board(s) {}", list(&self.resigned)));
        }
        if !self.cancelled.is_empty() {
            parts.push(format!(
                "withdrew challenge(s) and unstarted board(s) {}",
                list(&self.cancelled)
            ));
        }
        match parts.is_empty() {
            true => String::new(),
            false => format!("It {}.\n", parts.join("; ")),
        }
    }
}

impl Games {
    /// Closes `userid`'s account (`accounts` checks the password) and leaves its open boards
    /// ([`Games::leave_all`]); returns the account's name and what became of its boards.
    pub async fn close_account(
        &self,
        accounts: &Accounts,
        userid: &str,
        password: &str,
    ) -> Result<(String, LeftBoards)> {
        let name = accounts.close(userid, password).await?;
        let left = self.leave_all(&name, Leaving::Everything).await?;
        Ok((name, left))
    }

    /// Resigns, cancels or withdraws every open board of `user` (or only withdraws the open
    /// challenges, as `leaving` says), whose account was just closed or banned, in one
    /// transaction; the opponents get the usual `ended` or `cancelled` events. It locks
    /// boards and ratings in another order than a game finishing meanwhile, so PostgreSQL may
    /// abort one of the two as a deadlock: run again then.
    pub async fn leave_all(&self, user: &str, leaving: Leaving) -> Result<LeftBoards> {
        store::retry_conflicts("closing an account", || self.leave_all_once(user, leaving)).await
    }

    async fn leave_all_once(&self, user: &str, leaving: Leaving) -> Result<LeftBoards> {
        let now = self.now_ms();
        let mut tx = self.storage.write().await?;
        let filter = GameFilter {
            player: Some(user.to_string()),
            statuses: match leaving {
                Leaving::Challenges => vec![Status::Challenge],
                Leaving::Everything => vec![Status::Challenge, Status::Active],
            },
            game: None,
            limit: i64::MAX,
        };
        let open = store::games(&mut tx, &filter).await?;
        let mut left = LeftBoards::default();
        let mut changes = vec![];
        for listed in open {
            // Locked and read again: another node may have changed it since the listing.
            let mut game = Self::lock(&mut tx, listed.board).await?;
            let Some(seat) = game.seat_of(user) else {
                continue;
            };
            let leaves = match leaving {
                Leaving::Challenges => game.status == Status::Challenge,
                Leaving::Everything => game.status.is_open(),
            };
            if !leaves {
                continue;
            }
            let kind = if game.status == Status::Active && game.plies > 0 {
                let outcome = forfeit_outcome(&*game.position(), seat);
                Self::finish(&mut tx, &mut game, &outcome, "resignation", now).await?;
                left.resigned.push(game.board);
                EventKind::Ended
            } else {
                game.status = Status::Withdrawn;
                game.finished_ms = Some(now);
                game.version += 1;
                left.cancelled.push(game.board);
                EventKind::Cancelled
            };
            store::update_game(&mut tx, &mut game).await?;
            changes.push(Change { kind, game });
        }
        match changes.is_empty() {
            true => tx.commit().await?,
            false => {
                self.commit(tx, changes).await?;
            }
        }
        left.resigned.sort_unstable();
        left.cancelled.sort_unstable();
        tracing::info!(%user, resigned = ?left.resigned, cancelled = ?left.cancelled, "account closed: boards left");
        Ok(left)
    }
}

impl Games {
    /// Ends an open board with no result, unrated (an admin's `abort`): a game in play or a
    /// challenge alike, in `tx` (which holds the admin's log entry). `why` becomes the board's
    /// unrated reason.
    pub async fn abort(&self, mut tx: WriteTx, board: i64, why: &str) -> Result<GameSummary> {
        let now = self.now_ms();
        let mut game = Self::lock(&mut tx, board).await?;
        if !game.status.is_open() {
            return Err(Error::NotInPlay {
                board,
                status: game.status.to_string(),
            });
        }
        let kind = match game.status {
            Status::Active => EventKind::Ended,
            _ => EventKind::Cancelled,
        };
        game.status = Status::Withdrawn;
        game.termination = "aborted".into();
        game.finished_ms = Some(now);
        game.rated = false;
        game.unrated_reason = why.to_string();
        game.clear_proposal();
        game.version += 1;
        store::update_game(&mut tx, &mut game).await?;
        tracing::info!(board, why, "aborted by an admin");
        self.commit(tx, vec![Change { kind, game }]).await
    }
}

impl Games {
    /// Ends a game and rates it.
    pub(super) async fn finish(
        conn: &mut store::Conn,
        game: &mut GameRow,
        outcome: &Outcome,
        termination: &str,
        now: i64,
    ) -> Result<()> {
        // The clock that ran until now keeps the time actually left.
        if game.status == Status::Active && !game.awaits_first_move() {
            let elapsed = (now - game.last_move_ms.unwrap_or(now)).max(0);
            let seat = game.seat_mut(game.position().turn());
            seat.used_ms += elapsed;
            if let Some(remaining) = &mut seat.remaining_ms {
                *remaining = (*remaining - elapsed).max(0);
            }
            game.last_move_ms = Some(now);
        }
        game.status = Status::Finished;
        game.result = result_text(outcome);
        game.termination = termination.into();
        game.finished_ms = Some(now);
        game.clear_proposal();
        game.version += 1;
        // As on lichess, a game one side never moved in does not count for ratings.
        if game.rated && termination != "rules" {
            if let Some(idle) = Self::seat_that_never_moved(conn, game).await? {
                game.rated = false;
                game.unrated_reason =
                    format!("{idle} never moved: the game does not count for ratings");
            }
        }
        ratings::record_result(conn, game, outcome, now).await?;
        store::tournaments::record_tournament_result(conn, game.board, &game.result).await?;
        tracing::info!(board = game.board, result = %game.result, termination, "game over");
        Ok(())
    }

    /// The first player who has made no move of their own on a board, if any.
    pub(super) async fn seat_that_never_moved(
        conn: &mut store::Conn,
        game: &GameRow,
    ) -> Result<Option<String>> {
        let mut moves = store::moves(conn, game.board).await?;
        replay(game.kind(), &game.start_fen, &mut moves);
        let idle = (0..game.seats.len())
            .find(|&seat| !moves.iter().any(|m| !m.auto && usize::from(m.seat) == seat));
        Ok(idle.map(|seat| game.seats[seat].name.clone()))
    }

    /// Takes back the last move a player made and the automatic passes after it.
    pub(super) async fn undo_last(conn: &mut store::Conn, game: &mut GameRow) -> Result<()> {
        let moves = store::moves(conn, game.board).await?;
        let Some(last) = moves.iter().rposition(|m| !m.auto) else {
            return Err(Error::Proposal("there is no move to take back"));
        };
        let mut kept = moves[..last].to_vec();
        let pos = replay(game.kind(), &game.start_fen, &mut kept);
        // Seat swaps among the moves taken back are undone with them.
        let mut undone = moves[last..].to_vec();
        let mut after = pos.clone();
        for row in &mut undone {
            if after
                .play(&row.mv)
                .expect("stored moves replay")
                .swaps_seats
            {
                game.seats.swap(0, 1);
            }
        }
        store::delete_moves_from(conn, game.board, moves[last].ply).await?;
        store::clear_queued_moves(conn, game.board).await?;
        game.plies = moves[last].ply - 1;
        game.fen = pos.fen();
        game.nagged_ply = -1;
        Ok(())
    }
}
