//! Opening a database: its URL from what the user typed, creating it, and the migrations both
//! databases run.

use std::borrow::Cow;
use std::path::PathBuf;

use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{Any, AnyConnection};

use crate::error::{Error, Result};

/// Creates a PostgreSQL database named by `url` when it does not exist yet (as SQLite creates
/// its file); two nodes starting at once may both try, and the loser finds it made.
pub(super) async fn create_database(url: &str) -> Result<()> {
    use sqlx::migrate::MigrateDatabase;
    let fail = |err: sqlx::Error| {
        Error::Config(format!(
            "cannot create database {:?}: {}",
            crate::redact::redact_url(url),
            crate::redact::scrub(&err.to_string(), url)
        ))
    };
    if Any::database_exists(url).await.map_err(fail)? {
        return Ok(());
    }
    match Any::create_database(url).await {
        Ok(()) => Ok(()),
        Err(_) if Any::database_exists(url).await.unwrap_or(false) => Ok(()),
        Err(err) => Err(fail(err)),
    }
}

/// Refuses a database that is not a server's: a SQLite file that does not exist (it is not
/// created), a PostgreSQL database that does not, or one without the mail inbox table. An MTA's
/// `ataxx mail-in` then fails as temporary, and the message waits in the MTA's queue instead
/// of landing in a database the server never reads.
pub(super) async fn require_server_database(url: &str) -> Result<()> {
    use sqlx::Connection;
    let not_ours = |why: String| {
        Error::Config(format!(
            "{:?} is not an ataxx server's database: {}",
            crate::redact::redact_url(url),
            crate::redact::scrub(&why, url)
        ))
    };
    if let Some(file) = sqlite_file(url) {
        if !file.is_file() {
            return Err(not_ours("no such file".into()));
        }
    }
    sqlx::any::install_default_drivers();
    let mut conn = AnyConnection::connect(url)
        .await
        .map_err(|err| not_ours(err.to_string()))?;
    let found = sqlx::query("SELECT COUNT(*) AS n FROM mail_inbox")
        .fetch_one(&mut conn)
        .await;
    let _ = conn.close().await;
    found.map(drop).map_err(|err| not_ours(err.to_string()))
}

/// Whether a connection is to PostgreSQL (whose row locks several nodes rely on).
pub fn is_postgres(conn: &AnyConnection) -> bool {
    conn.backend_name() == "PostgreSQL"
}

/// The file of a `sqlite://PATH?...` URL (None for in-memory databases).
pub(super) fn sqlite_file(url: &str) -> Option<PathBuf> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next()?;
    (!path.is_empty() && !path.starts_with(":memory:")).then(|| PathBuf::from(path))
}

/// Turns a `--db` argument into a database URL: URLs pass through, anything else is a SQLite
/// file path (created if missing).
pub fn database_url(db: &str) -> std::result::Result<String, String> {
    if db.contains("://") {
        return Ok(db.to_string());
    }
    if db.contains(['?', '#']) {
        return Err(format!(
            "database path {db:?} contains '?' or '#'; rename the file or pass a sqlite:// URL"
        ));
    }
    Ok(format!("sqlite://{db}?mode=rwc"))
}

pub(super) fn migrations() -> Migrator {
    migrations_up_to(i64::MAX)
}

/// Whether every migration this build knows has been applied to the database.
pub async fn migrations_done(conn: &mut AnyConnection) -> Result<bool> {
    use sqlx::Row;
    let row = sqlx::query("SELECT COUNT(*) AS n FROM _sqlx_migrations WHERE success = TRUE")
        .fetch_one(conn)
        .await?;
    let applied: i64 = row.try_get("n")?;
    Ok(applied as usize >= migrations().migrations.len())
}

/// The migrations up to `last` (tests build old databases with fewer).
fn migrations_up_to(last: i64) -> Migrator {
    let files: &[(i64, &str, &str)] = &[
        (1, "init", include_str!("../../migrations/0001_init.sql")),
        (
            2,
            "queued moves",
            include_str!("../../migrations/0002_queued_moves.sql"),
        ),
        (
            3,
            "subscriptions",
            include_str!("../../migrations/0003_subscriptions.sql"),
        ),
        (
            4,
            "game kinds and seats",
            include_str!("../../migrations/0004_game_kinds_and_seats.sql"),
        ),
        (5, "mail", include_str!("../../migrations/0005_mail.sql")),
        (6, "seeks", include_str!("../../migrations/0006_seeks.sql")),
        (
            7,
            "cluster",
            include_str!("../../migrations/0007_cluster.sql"),
        ),
        (
            8,
            "rate limits",
            include_str!("../../migrations/0008_rate_limits.sql"),
        ),
        (
            9,
            "id counters",
            include_str!("../../migrations/0009_id_counters.sql"),
        ),
        (
            10,
            "mail hardening",
            include_str!("../../migrations/0010_mail_hardening.sql"),
        ),
        (
            11,
            "operations",
            include_str!("../../migrations/0011_operations.sql"),
        ),
        (
            12,
            "analysis",
            include_str!("../../migrations/0012_analysis.sql"),
        ),
        (
            13,
            "tournaments",
            include_str!("../../migrations/0013_tournaments.sql"),
        ),
        (
            14,
            "moderation",
            include_str!("../../migrations/0014_moderation.sql"),
        ),
        (15, "admin", include_str!("../../migrations/0015_admin.sql")),
        (
            16,
            "api tokens",
            include_str!("../../migrations/0016_api_tokens.sql"),
        ),
        (
            17,
            "reset and totp",
            include_str!("../../migrations/0017_reset_and_totp.sql"),
        ),
        (
            18,
            "vacation",
            include_str!("../../migrations/0018_vacation.sql"),
        ),
        (
            19,
            "presence",
            include_str!("../../migrations/0019_presence.sql"),
        ),
        (
            20,
            "address requests",
            include_str!("../../migrations/0020_address_requests.sql"),
        ),
    ];
    Migrator {
        migrations: Cow::Owned(
            files
                .iter()
                .filter(|(version, _, _)| *version <= last)
                .map(|&(version, name, sql)| {
                    Migration::new(
                        version,
                        name.into(),
                        MigrationType::Simple,
                        sql.into(),
                        false,
                    )
                })
                .collect(),
        ),
        ignore_missing: false,
        locking: true,
        no_tx: false,
    }
}

#[cfg(test)]
mod tests {
    use super::{database_url, migrations_up_to};
    use crate::model::SeatRow;
    use crate::store::{game, rating, user, Durability, Storage};
    use sqlx::any::AnyPoolOptions;

    #[tokio::test]
    async fn migration_4_moves_players_into_seats_and_ratings_into_the_ataxx_rows() {
        let path = std::env::temp_dir().join(format!(
            "ataxx-server-migration-{}-{}.db",
            std::process::id(),
            rand::random::<u64>()
        ));
        let url = database_url(path.to_str().unwrap()).unwrap();
        sqlx::any::install_default_drivers();
        {
            let pool = AnyPoolOptions::new().connect(&url).await.unwrap();
            migrations_up_to(3).run(&pool).await.unwrap();
            for (name, rating, wins, losses) in [("alice", 1662.5, 1, 0), ("bob", 1337.5, 0, 1)] {
                sqlx::query(
                    "INSERT INTO users VALUES ($1, 'h', '', NULL, 0, NULL, $2, 290.3, 0.06, $3, $4, \
                     0, 5, 9)",
                )
                .bind(name)
                .bind(rating)
                .bind(wins)
                .bind(losses)
                .execute(&pool)
                .await
                .unwrap();
            }
            sqlx::query(
                "INSERT INTO games VALUES (101, 'alice', 'bob', 1, 1, 'finished', '0', \
                 'x5o/7/7/7/7/7/o5x x 0 1', 'x5o/7/7/7/7/7/o5x x 0 1', 0, 9, '1-0', \
                 'resignation', 1, 7, 21, NULL, NULL, NULL, NULL, NULL, 1000, 2000, '', '', -1, \
                 1, 2, 3, 4, 162.5, -162.5)",
            )
            .execute(&pool)
            .await
            .unwrap();
            pool.close().await;
        }
        let storage = Storage::open(&url, Durability::Normal).await.unwrap();
        let mut conn = storage.read().await.unwrap();
        let game = game(&mut conn, 101).await.unwrap().unwrap();
        assert_eq!(game.game, "ataxx");
        let seat = |name: &str, used_ms, rank, change| SeatRow {
            name: name.into(),
            accepted: true,
            remaining_ms: None,
            used_ms,
            rank: Some(rank),
            rating_change: Some(change),
        };
        assert_eq!(
            game.seats,
            [seat("alice", 1000, 1, 162.5), seat("bob", 2000, 2, -162.5)]
        );
        let alice = rating(&mut conn, "alice", "ataxx").await.unwrap();
        assert_eq!(
            (alice.rating, alice.wins, alice.last_game_ms),
            (1662.5, 1, Some(9))
        );
        let fresh = rating(&mut conn, "alice", "hexxagon").await.unwrap();
        assert_eq!((fresh.rating, fresh.games_played()), (1500.0, 0));
        assert_eq!(user(&mut conn, "bob").await.unwrap().unwrap().created_ms, 5);
        drop(conn);
        storage.close().await;
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
}
