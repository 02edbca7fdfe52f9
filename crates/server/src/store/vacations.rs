//! Vacations and the vacation days taken per year (migration 0018).

use sqlx::{AnyConnection, Row};

use crate::error::Result;

/// A user away: since `started_ms`, until `until_ms`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VacationRow {
    pub name: String,
    pub started_ms: i64,
    pub until_ms: i64,
}

fn vacation_row(row: &sqlx::any::AnyRow) -> Result<VacationRow> {
    Ok(VacationRow {
        name: row.try_get("name")?,
        started_ms: row.try_get("started_ms")?,
        until_ms: row.try_get("until_ms")?,
    })
}

pub async fn vacation(conn: &mut AnyConnection, name: &str) -> Result<Option<VacationRow>> {
    let row = sqlx::query("SELECT name, started_ms, until_ms FROM vacations WHERE name = $1")
        .bind(name)
        .fetch_optional(conn)
        .await?;
    row.as_ref().map(vacation_row).transpose()
}

/// Every user away now, ended or not (the sweeper ends those whose time is up).
pub async fn vacations(conn: &mut AnyConnection) -> Result<Vec<VacationRow>> {
    let rows = sqlx::query("SELECT name, started_ms, until_ms FROM vacations ORDER BY name")
        .fetch_all(conn)
        .await?;
    rows.iter().map(vacation_row).collect()
}

pub async fn insert_vacation(conn: &mut AnyConnection, vacation: &VacationRow) -> Result<()> {
    sqlx::query("INSERT INTO vacations (name, started_ms, until_ms) VALUES ($1, $2, $3)")
        .bind(&vacation.name)
        .bind(vacation.started_ms)
        .bind(vacation.until_ms)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn delete_vacation(conn: &mut AnyConnection, name: &str) -> Result<()> {
    sqlx::query("DELETE FROM vacations WHERE name = $1")
        .bind(name)
        .execute(conn)
        .await?;
    Ok(())
}

/// The vacation days `name` has taken in `year`.
pub async fn vacation_days(conn: &mut AnyConnection, name: &str, year: i64) -> Result<i64> {
    let row = sqlx::query("SELECT days FROM vacation_days WHERE name = $1 AND year = $2")
        .bind(name)
        .bind(year)
        .fetch_optional(conn)
        .await?;
    Ok(match row {
        Some(row) => row.try_get("days")?,
        None => 0,
    })
}

pub async fn set_vacation_days(
    conn: &mut AnyConnection,
    name: &str,
    year: i64,
    days: i64,
) -> Result<()> {
    sqlx::query("DELETE FROM vacation_days WHERE name = $1 AND year = $2")
        .bind(name)
        .bind(year)
        .execute(&mut *conn)
        .await?;
    sqlx::query("INSERT INTO vacation_days (name, year, days) VALUES ($1, $2, $3)")
        .bind(name)
        .bind(year)
        .bind(days)
        .execute(conn)
        .await?;
    Ok(())
}
