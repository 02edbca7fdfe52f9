//! Vacation: a correspondence player away for some days, within [`VACATION_DAYS_A_YEAR`] a
//! calendar year (UTC; days are taken when the vacation starts, and those not begun are given
//! back when it ends early). While they are away the deadlines of their correspondence games do
//! not run on their turn ([`GameRow::due`] is told so); when the vacation ends, by its days
//! running out (the sweeper) or early, each game where it is their turn resumes with the time
//! they had: its idle time starts again from the later of the last move and the vacation's
//! start. Live games are not affected. Each opponent is told by a line in the players' chat of
//! every such game (a board event on its sockets).

use serde::Serialize;

use super::{Change, Games, DAY_MS};
use crate::error::{Error, Result};
use crate::model::{EventKind, GameFilter, GameRow, Status, PLAYERS};
use crate::store::{self, VacationRow, WriteTx};

/// The vacation days a player may take in a calendar year.
pub const VACATION_DAYS_A_YEAR: i64 = 30;

/// Where a player stands: away until when (None: not away), and the days left this year.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Vacation {
    pub userid: String,
    pub away_until_ms: Option<i64>,
    pub days_left: i64,
}

/// The calendar year (UTC) of a time.
fn year_of(ms: i64) -> i64 {
    time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .map_or(1970, |at| i64::from(at.year()))
}

/// `YYYY-MM-DD` (UTC) of a time.
fn date_of(ms: i64) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .ok()
        .and_then(|at| at.format(&format).ok())
        .unwrap_or_default()
}

impl Games {
    /// Whether `user` is away, and their days left this year.
    pub async fn vacation(&self, user: &str) -> Result<Vacation> {
        let mut conn = self.storage.read().await?;
        let away = store::vacation(&mut conn, user).await?;
        let now = self.now_ms();
        let taken = store::vacation_days(&mut conn, user, year_of(now)).await?;
        Ok(Vacation {
            userid: user.to_string(),
            away_until_ms: away.map(|vacation| vacation.until_ms),
            days_left: VACATION_DAYS_A_YEAR - taken,
        })
    }

    /// Starts `days` of vacation for `user` now, within this year's allowance.
    pub async fn start_vacation(&self, user: &str, days: i64) -> Result<Vacation> {
        if !(1..=VACATION_DAYS_A_YEAR).contains(&days) {
            return Err(Error::Command(format!(
                "a vacation is 1 to {VACATION_DAYS_A_YEAR} days, not {days}"
            )));
        }
        let now = self.now_ms();
        let year = year_of(now);
        let mut tx = self.storage.write().await?;
        if let Some(away) = store::vacation(&mut tx, user).await? {
            return Err(Error::Command(format!(
                "{user} is on vacation until {} already; end it first (vacation {user} <password> off)",
                date_of(away.until_ms)
            )));
        }
        let taken = store::vacation_days(&mut tx, user, year).await?;
        let left = VACATION_DAYS_A_YEAR - taken;
        if days > left {
            return Err(Error::Command(format!(
                "{user} has {left} vacation days left in {year} ({VACATION_DAYS_A_YEAR} a calendar year), not {days}"
            )));
        }
        store::set_vacation_days(&mut tx, user, year, taken + days).await?;
        let until_ms = now + days * DAY_MS;
        let row = VacationRow {
            name: user.to_string(),
            started_ms: now,
            until_ms,
        };
        store::insert_vacation(&mut tx, &row).await?;
        let note = format!(
            "(vacation) {user} is away until {}: their correspondence clocks are paused",
            date_of(until_ms)
        );
        let changes = Self::tell_opponents(&mut tx, user, &note, now, |_| {}).await?;
        self.commit_all(tx, changes).await?;
        tracing::info!(%user, days, "vacation starts");
        Ok(Vacation {
            userid: user.to_string(),
            away_until_ms: Some(until_ms),
            days_left: left - days,
        })
    }

    /// Ends `user`'s vacation now, giving back the days not begun.
    pub async fn end_vacation(&self, user: &str) -> Result<Vacation> {
        let now = self.now_ms();
        let mut tx = self.storage.write().await?;
        let Some(away) = store::vacation(&mut tx, user).await? else {
            return Err(Error::NotOnVacation(user.to_string()));
        };
        let year = year_of(away.started_ms);
        let begun = (now - away.started_ms + DAY_MS - 1)
            .div_euclid(DAY_MS)
            .max(1);
        let booked = (away.until_ms - away.started_ms).div_euclid(DAY_MS);
        let taken = store::vacation_days(&mut tx, user, year).await?;
        let kept = (taken - (booked - begun).max(0)).max(0);
        store::set_vacation_days(&mut tx, user, year, kept).await?;
        let changes = Self::resume(&mut tx, &away, now).await?;
        self.commit_all(tx, changes).await?;
        tracing::info!(%user, "vacation ended early");
        self.vacation(user).await
    }

    /// Ends the vacations whose days ran out, each at its own end (the sweeper calls this);
    /// returns how many boards were told.
    pub(super) async fn end_vacations_due(&self) -> Result<usize> {
        let now = self.now_ms();
        let due: Vec<VacationRow> = {
            let mut conn = self.storage.read().await?;
            store::vacations(&mut conn).await?
        };
        let mut told = 0;
        for vacation in due.into_iter().filter(|v| v.until_ms <= now) {
            let mut tx = self.storage.write().await?;
            // Checked again under the write lock: the player may have ended it meanwhile.
            if store::vacation(&mut tx, &vacation.name).await?.as_ref() != Some(&vacation) {
                continue;
            }
            let changes = Self::resume(&mut tx, &vacation, vacation.until_ms).await?;
            told += changes.len();
            self.commit_all(tx, changes).await?;
            tracing::info!(user = %vacation.name, "vacation over");
        }
        Ok(told)
    }

    /// Ends a vacation at `end_ms`: its player's correspondence games where it is their turn
    /// resume with the time they had, and their opponents are told.
    async fn resume(tx: &mut WriteTx, vacation: &VacationRow, end_ms: i64) -> Result<Vec<Change>> {
        store::delete_vacation(tx, &vacation.name).await?;
        let user = &vacation.name;
        let note = format!("(vacation) {user} is back: their correspondence clocks run again");
        Self::tell_opponents(tx, user, &note, end_ms, |game| {
            if game.name_of(game.position().turn()) != user.as_str() {
                return;
            }
            // The time away on their turn does not count: it starts from the vacation's end.
            let since = game.last_move_ms.or(game.started_ms).unwrap_or(end_ms);
            let paused = end_ms - since.max(vacation.started_ms);
            if paused <= 0 {
                return;
            }
            match &mut game.last_move_ms {
                Some(last) => *last += paused,
                None => game.started_ms = game.started_ms.map(|started| started + paused),
            }
        })
        .await
    }

    /// Adds `note` to the players' chat of each correspondence game `user` plays, after `adjust`
    /// has changed the game as it needs; the changes to announce.
    async fn tell_opponents(
        tx: &mut WriteTx,
        user: &str,
        note: &str,
        now: i64,
        adjust: impl Fn(&mut GameRow),
    ) -> Result<Vec<Change>> {
        let filter = GameFilter {
            player: Some(user.to_string()),
            statuses: vec![Status::Active],
            game: None,
            limit: i64::MAX,
        };
        let boards: Vec<i64> = store::games(tx, &filter)
            .await?
            .iter()
            .filter(|game| game.clock_base_ms.is_none())
            .map(|game| game.board)
            .collect();
        let mut changes = Vec::new();
        for board in boards {
            let mut game = Self::lock(tx, board).await?;
            adjust(&mut game);
            let chat = store::insert_chat(tx, board, user, now, note, PLAYERS).await?;
            game.version += 1;
            store::update_game(tx, &mut game).await?;
            changes.push(Change {
                kind: EventKind::Chat { chat },
                game,
            });
        }
        Ok(changes)
    }

    /// Commits `tx` and announces its changes, if any.
    async fn commit_all(&self, tx: WriteTx, changes: Vec<Change>) -> Result<()> {
        match changes.is_empty() {
            true => tx.commit().await,
            false => self.commit(tx, changes).await.map(|_| ()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_and_dates_are_utc() {
        // 2026-12-31T23:59:59Z and a second later.
        assert_eq!(year_of(1_798_761_599_000), 2026);
        assert_eq!(year_of(1_798_761_600_000), 2027);
        assert_eq!(date_of(1_798_761_600_000), "2027-01-01");
    }
}
