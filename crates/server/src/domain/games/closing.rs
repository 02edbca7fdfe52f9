//! What closing an account does to its games (`signoff`, `delete`): an active game is resigned,
//! or cancelled if no move was made yet; an open challenge is withdrawn. New challenges to a
//! closed account are refused by [`Games::challenge`](super::Games::challenge).

use serde::Serialize;

use super::{Change, Games};
use crate::error::Result;
use crate::model::EventKind;
use crate::model::GameFilter;
use crate::model::Status;
use crate::store;

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
    /// Resigns, cancels or withdraws every open board of `user`, whose account was just closed,
    /// in one transaction; the opponents get the usual `ended` or `cancelled` events. It locks
    /// boards and ratings in another order than a game finishing meanwhile, so PostgreSQL may
    /// abort one of the two as a deadlock: run again then.
    pub async fn leave_all(&self, user: &str) -> Result<LeftBoards> {
        store::retry_conflicts("closing an account", || self.leave_all_once(user)).await
    }

    async fn leave_all_once(&self, user: &str) -> Result<LeftBoards> {
        let now = self.now_ms();
        let mut tx = self.storage.write().await?;
        let filter = GameFilter {
            player: Some(user.to_string()),
            statuses: vec![Status::Challenge, Status::Active],
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
            if !game.status.is_open() {
                continue;
            }
            let kind = if game.status == Status::Active && game.plies > 0 {
                let outcome = super::forfeit_outcome(&*game.position(), seat);
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
