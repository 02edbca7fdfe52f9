//! The `seats` rows of the boards: read for many boards at once, written as the changes that
//! bring the stored seats to a board's.

use sqlx::any::AnyArguments;
use sqlx::{AnyConnection, Row};

use super::add;
use crate::error::Result;
use crate::model::{GameRow, SeatRow};

/// The most boards whose seats one query reads: well under the bound parameters SQLite and
/// PostgreSQL take in one statement.
pub(super) const SEAT_QUERY_BOARDS: usize = 500;

/// The seats of `boards`, each with its board, in board and seat order.
pub(super) async fn seats_of(
    conn: &mut AnyConnection,
    boards: &[i64],
) -> Result<Vec<(i64, SeatRow)>> {
    if boards.is_empty() {
        return Ok(vec![]);
    }
    let slots: Vec<String> = (1..=boards.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT board, {SEAT_COLUMNS} FROM seats WHERE board IN ({}) ORDER BY board, seat",
        slots.join(", ")
    );
    let mut query = sqlx::query(&sql);
    for board in boards {
        query = query.bind(*board);
    }
    let rows = query.fetch_all(conn).await?;
    rows.iter()
        .map(|row| Ok((row.try_get("board")?, seat_from_row(row)?)))
        .collect()
}

/// The columns of a seat row ([`seat_from_row`] reads them).
pub(super) const SEAT_COLUMNS: &str =
    "name, accepted, remaining_ms, used_ms, finish_rank, rating_change";

/// A seat as its row holds it.
pub(super) fn seat_from_row(row: &sqlx::any::AnyRow) -> Result<SeatRow> {
    Ok(SeatRow {
        name: row.try_get("name")?,
        accepted: row.try_get::<i64, _>("accepted")? != 0,
        remaining_ms: row.try_get("remaining_ms")?,
        used_ms: row.try_get("used_ms")?,
        rank: row.try_get("finish_rank")?,
        rating_change: row.try_get("rating_change")?,
    })
}

/// A write of one seat row.
pub(super) enum SeatWrite<'a> {
    /// A seat that changed (a seat swap moves players between seats).
    Update(usize, &'a SeatRow),
    /// A new seat.
    Insert(usize, &'a SeatRow),
    /// The seats from this one on, which the board no longer has.
    DeleteFrom(usize),
}

impl SeatWrite<'_> {
    /// The statement of this write.
    pub(super) fn sql(&self) -> &'static str {
        match self {
            SeatWrite::Update(..) => {
                "UPDATE seats SET name = $3, accepted = $4, remaining_ms = $5, used_ms = $6, \
                 finish_rank = $7, rating_change = $8 WHERE board = $1 AND seat = $2"
            }
            SeatWrite::Insert(..) => {
                "INSERT INTO seats (board, seat, name, accepted, remaining_ms, used_ms, \
                 finish_rank, rating_change) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
            }
            SeatWrite::DeleteFrom(_) => "DELETE FROM seats WHERE board = $1 AND seat >= $2",
        }
    }

    /// Adds the statement's arguments, `$1` first, to `arguments`.
    pub(super) fn add_arguments(
        &self,
        board: i64,
        arguments: &mut AnyArguments<'static>,
    ) -> Result<()> {
        add(arguments, board)?;
        match *self {
            SeatWrite::Update(i, seat) | SeatWrite::Insert(i, seat) => {
                add(arguments, i as i64)?;
                add(arguments, seat.name.clone())?;
                add(arguments, seat.accepted as i64)?;
                add(arguments, seat.remaining_ms)?;
                add(arguments, seat.used_ms)?;
                add(arguments, seat.rank)?;
                add_nullable_double(arguments, seat.rating_change)
            }
            SeatWrite::DeleteFrom(i) => add(arguments, i as i64),
        }
    }
}

/// The writes that bring the stored seats of `game` (its `stored_seats`) to its `seats`.
pub(super) fn seat_writes(game: &GameRow) -> Vec<SeatWrite<'_>> {
    let mut writes: Vec<SeatWrite> = game
        .seats
        .iter()
        .enumerate()
        .filter_map(|(i, seat)| match game.stored_seats.get(i) {
            Some(stored) if stored == seat => None,
            Some(_) => Some(SeatWrite::Update(i, seat)),
            None => Some(SeatWrite::Insert(i, seat)),
        })
        .collect();
    if game.stored_seats.len() > game.seats.len() {
        writes.push(SeatWrite::DeleteFrom(game.seats.len()));
    }
    writes
}

/// Writes the seats of `game` that differ from its `stored_seats`, then takes them as stored.
pub(super) async fn write_seats(conn: &mut AnyConnection, game: &mut GameRow) -> Result<()> {
    for write in seat_writes(game) {
        let mut arguments = AnyArguments::default();
        write.add_arguments(game.board, &mut arguments)?;
        sqlx::query_with(write.sql(), arguments)
            .execute(&mut *conn)
            .await?;
    }
    game.stored_seats = game.seats.clone();
    Ok(())
}

/// Adds an optional DOUBLE PRECISION. sqlx 0.8's Any driver swaps the types of its float NULLs:
/// a `None::<f64>` reaches PostgreSQL as a 4-byte REAL, the statement it prepares keeps that type,
/// and a later run binding a real f64 is refused ("incorrect binary data format"). A
/// `None::<f32>` is what arrives as an 8-byte NULL (SQLite takes either).
fn add_nullable_double(arguments: &mut AnyArguments<'static>, value: Option<f64>) -> Result<()> {
    match value {
        Some(value) => add(arguments, value),
        None => add(arguments, None::<f32>),
    }
}
