//! The analysis queue (migration 0012): jobs taken under a lease by any node's workers, and the
//! positions they analysed. Every change of a running job names its lease holder, so a worker
//! whose lease passed to another node changes nothing any more.

use sqlx::{AnyConnection, Row};

use crate::error::{Error, Result};
use crate::model::{AnalysedPosition, AnalysisJob, JobStatus};

const JOB_COLUMNS: &str = "board, requested_by, requested_ms, status, positions";

fn job_from_row(row: &sqlx::any::AnyRow) -> Result<AnalysisJob> {
    let status: String = row.try_get("status")?;
    Ok(AnalysisJob {
        board: row.try_get("board")?,
        requested_by: row.try_get("requested_by")?,
        requested_ms: row.try_get("requested_ms")?,
        status: status.parse().map_err(Error::Command)?,
        positions: row.try_get("positions")?,
    })
}

pub async fn analysis_job(conn: &mut AnyConnection, board: i64) -> Result<Option<AnalysisJob>> {
    let sql = format!("SELECT {JOB_COLUMNS} FROM analysis_jobs WHERE board = $1");
    let row = sqlx::query(&sql).bind(board).fetch_optional(conn).await?;
    row.as_ref().map(job_from_row).transpose()
}

/// Queues a board's analysis unless it has one already; true when this call queued it.
pub async fn queue_analysis(conn: &mut AnyConnection, job: &AnalysisJob) -> Result<bool> {
    let done = sqlx::query(
        "INSERT INTO analysis_jobs (board, requested_by, requested_ms, status, positions, \
         lease_holder, lease_until_ms, finished_ms) VALUES ($1, $2, $3, $4, $5, '', 0, 0) \
         ON CONFLICT (board) DO NOTHING",
    )
    .bind(job.board)
    .bind(&job.requested_by)
    .bind(job.requested_ms)
    .bind(JobStatus::Queued.as_str())
    .bind(job.positions)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Takes the oldest job that is queued or whose lease has passed, for `holder` until
/// `until_ms`. Two nodes asking at once cannot both take one job: the second's update finds
/// the row no longer free (PostgreSQL re-reads a row it waited for; SQLite has one writer).
pub async fn take_analysis(
    conn: &mut AnyConnection,
    holder: &str,
    now_ms: i64,
    until_ms: i64,
) -> Result<Option<i64>> {
    let free = "(status = 'queued' OR (status = 'running' AND lease_until_ms < $3))";
    let sql = format!(
        "UPDATE analysis_jobs SET status = 'running', lease_holder = $1, lease_until_ms = $2 \
         WHERE board = (SELECT board FROM analysis_jobs WHERE {free} \
         ORDER BY requested_ms, board LIMIT 1) AND {free} RETURNING board"
    );
    let row = sqlx::query(&sql)
        .bind(holder)
        .bind(until_ms)
        .bind(now_ms)
        .fetch_optional(conn)
        .await?;
    Ok(row.map(|row| row.try_get("board")).transpose()?)
}

/// Analysis jobs not yet done: queued, or running on a worker (the metrics' queue length).
pub async fn analysis_jobs_waiting(conn: &mut AnyConnection) -> Result<i64> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM analysis_jobs WHERE status IN ('queued', 'running')",
    )
    .fetch_one(conn)
    .await?;
    Ok(row.try_get("n")?)
}

/// Analysis jobs not yet done that `requested_by` asked for ("" for those asked without a
/// name).
pub async fn analysis_jobs_waiting_for(
    conn: &mut AnyConnection,
    requested_by: &str,
) -> Result<i64> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM analysis_jobs \
         WHERE status IN ('queued', 'running') AND requested_by = $1",
    )
    .bind(requested_by)
    .fetch_one(conn)
    .await?;
    Ok(row.try_get("n")?)
}

/// When the first lease of a running job passes, if a job is running.
pub async fn first_lease_end(conn: &mut AnyConnection) -> Result<Option<i64>> {
    let row = sqlx::query(
        "SELECT MIN(lease_until_ms) AS until_ms FROM analysis_jobs WHERE status = 'running'",
    )
    .fetch_one(conn)
    .await?;
    Ok(row.try_get("until_ms")?)
}

/// Extends `holder`'s lease on a running job (its row locked until the transaction ends, on
/// PostgreSQL); false when the lease is not `holder`'s any more.
pub async fn renew_analysis_lease(
    conn: &mut AnyConnection,
    board: i64,
    holder: &str,
    until_ms: i64,
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE analysis_jobs SET lease_until_ms = $3 \
         WHERE board = $1 AND lease_holder = $2 AND status = 'running'",
    )
    .bind(board)
    .bind(holder)
    .bind(until_ms)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Lets go of `holder`'s lease at once (its server stops): the next worker need not wait for
/// it to pass.
pub async fn release_analysis_lease(
    conn: &mut AnyConnection,
    board: i64,
    holder: &str,
) -> Result<()> {
    sqlx::query(
        "UPDATE analysis_jobs SET lease_until_ms = 0 \
         WHERE board = $1 AND lease_holder = $2 AND status = 'running'",
    )
    .bind(board)
    .bind(holder)
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks `holder`'s job done; false when the lease is not `holder`'s any more.
pub async fn finish_analysis(
    conn: &mut AnyConnection,
    board: i64,
    holder: &str,
    now_ms: i64,
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE analysis_jobs SET status = 'done', finished_ms = $3, lease_holder = '' \
         WHERE board = $1 AND lease_holder = $2 AND status = 'running'",
    )
    .bind(board)
    .bind(holder)
    .bind(now_ms)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn insert_analysed_position(
    conn: &mut AnyConnection,
    board: i64,
    position: &AnalysedPosition,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO analysis_positions (board, ply, score, mover_score, best, line) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(board)
    .bind(position.ply)
    .bind(position.score)
    .bind(position.mover_score)
    .bind(&position.best)
    .bind(position.line.join(" "))
    .execute(conn)
    .await?;
    Ok(())
}

/// A board's analysed positions, from the start.
pub async fn analysed_positions(
    conn: &mut AnyConnection,
    board: i64,
) -> Result<Vec<AnalysedPosition>> {
    let rows = sqlx::query(
        "SELECT ply, score, mover_score, best, line FROM analysis_positions \
         WHERE board = $1 ORDER BY ply",
    )
    .bind(board)
    .fetch_all(conn)
    .await?;
    rows.iter()
        .map(|row| {
            let line: String = row.try_get("line")?;
            Ok(AnalysedPosition {
                ply: row.try_get("ply")?,
                score: row.try_get("score")?,
                mover_score: row.try_get("mover_score")?,
                best: row.try_get("best")?,
                line: line.split_whitespace().map(str::to_string).collect(),
            })
        })
        .collect()
}
