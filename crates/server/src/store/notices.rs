//! Notices between server nodes on one PostgreSQL database: `NOTIFY` on five channels (events,
//! subscriptions, the lobby, ended sessions, and the probes a node sends itself to check it
//! still hears), the table that carries event bodies too long for a notification,
//! the listening connection, and the advisory lock the leader holds. [`crate::cluster`] decides
//! what to do with them; this file only speaks to the database.

use serde::{Deserialize, Serialize};
use sqlx::postgres::{PgConnectOptions, PgConnection, PgListener, PgPoolOptions};
use sqlx::{Connection, Row};

use super::{Conn, Storage};
use crate::error::{Error, Result};
use crate::model::{Event, Revocation};

/// The channel events travel on.
pub const EVENTS: &str = "ataxx_events";
/// The channel subscription changes travel on.
pub const SUBSCRIPTIONS: &str = "ataxx_subscriptions";
/// The channel lobby messages (seeks added and removed) travel on.
pub const LOBBY: &str = "ataxx_lobby";
/// The channel ended sessions travel on.
pub const REVOCATIONS: &str = "ataxx_revocations";
/// The channel a node's probes travel on: a node that has heard nothing for a while sends one
/// to itself, and one that does not come back means its listening connection is gone.
pub const PROBES: &str = "ataxx_probes";
/// PostgreSQL refuses notification payloads from 8000 bytes on.
const MAX_PAYLOAD: usize = 7900;
/// The advisory lock key of the leader ("ataxx" in ASCII).
const LEADER_LOCK: i64 = 0x61_74_61_78_78;
/// Event bodies older than this are deleted by the leader (every node read them long ago).
const BODY_LIFETIME_MS: i64 = 60_000;

/// Sends an event to every node when the transaction commits.
pub async fn send_event(conn: &mut Conn, event: &Event, now_ms: i64) -> Result<()> {
    let payload = if event.json.len() <= MAX_PAYLOAD {
        event.json.to_string()
    } else {
        let id: i64 = rand::random::<i64>().abs();
        sqlx::query("INSERT INTO event_bodies (id, created_ms, body) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(now_ms)
            .bind(&*event.json)
            .execute(&mut *conn)
            .await?;
        format!("@{id}")
    };
    notify(conn, EVENTS, &payload).await
}

/// Tells every node, when the transaction commits, that sessions ended.
pub async fn send_revocation(conn: &mut Conn, revocation: &Revocation) -> Result<()> {
    let payload = serde_json::to_string(revocation).expect("notices serialize");
    notify(conn, REVOCATIONS, &payload).await
}

/// A change of subscription, as it travels between nodes.
#[derive(Serialize, Deserialize)]
pub struct SubscriptionNotice {
    pub board: i64,
    pub name: String,
    pub on: bool,
}

/// Tells every node, when the transaction commits, that `name` follows `board` or not.
pub async fn send_subscription(conn: &mut Conn, board: i64, name: &str, on: bool) -> Result<()> {
    let notice = SubscriptionNotice {
        board,
        name: name.to_string(),
        on,
    };
    let payload = serde_json::to_string(&notice).expect("notices serialize");
    notify(conn, SUBSCRIPTIONS, &payload).await
}

async fn notify(conn: &mut Conn, channel: &str, payload: &str) -> Result<()> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(channel)
        .bind(payload)
        .execute(conn)
        .await?;
    Ok(())
}

fn config_error(what: &str, url: &str, err: sqlx::Error) -> Error {
    Error::Config(format!(
        "{what} on {:?}: {}",
        crate::redact::redact_url(url),
        crate::redact::scrub(&err.to_string(), url)
    ))
}

/// Sends a lobby message to every node (this one included). Sent after the change committed:
/// a node dying in between loses the message, not the change (lobby pages reload the list).
pub async fn send_lobby(storage: &Storage, json: &str) -> Result<()> {
    let mut conn = storage.read().await?;
    notify(&mut conn, LOBBY, json).await
}

/// Sends a probe (`payload` names the node) through the pool, to come back to every listener.
pub async fn send_probe(storage: &Storage, payload: &str) -> Result<()> {
    let mut conn = storage.read().await?;
    notify(&mut conn, PROBES, payload).await
}

/// The name a node's listening connection shows in `pg_stat_activity` (with its process id, so
/// an operator, or a test, can tell the nodes' listeners apart).
pub fn listener_name(pid: u32) -> String {
    format!("ataxx events {pid}")
}

/// The connection a node hears the five channels on.
pub struct Listener(PgListener);

impl Listener {
    /// Connects and listens to every channel.
    pub async fn connect(url: &str) -> Result<Listener> {
        let fail = |err| config_error("cannot listen for events", url, err);
        let options: PgConnectOptions = url.parse().map_err(fail)?;
        let options = options.application_name(&listener_name(std::process::id()));
        // A pool of one connection, which the listener reconnects when it drops.
        let pool = PgPoolOptions::new()
            .max_connections(1)
            .connect_lazy_with(options);
        let mut listener = PgListener::connect_with(&pool).await.map_err(fail)?;
        listener
            .listen_all([EVENTS, SUBSCRIPTIONS, LOBBY, REVOCATIONS, PROBES])
            .await
            .map_err(fail)?;
        Ok(Listener(listener))
    }

    /// The next notice as (channel, payload); None when the connection dropped and is
    /// listening again (notices sent meanwhile are lost).
    pub async fn next(&mut self) -> std::result::Result<Option<(String, String)>, String> {
        match self.0.try_recv().await {
            Ok(Some(notification)) => Ok(Some((
                notification.channel().to_string(),
                notification.payload().to_string(),
            ))),
            Ok(None) => Ok(None),
            Err(err) => Err(err.to_string()),
        }
    }
}

/// An event's text: the payload itself, or the stored body it names (`@id`).
pub async fn event_text(storage: &Storage, payload: &str) -> Result<String> {
    let Some(id) = payload.strip_prefix('@') else {
        return Ok(payload.to_string());
    };
    let id: i64 = id
        .parse()
        .map_err(|_| Error::Config(format!("bad event body reference {payload:?}")))?;
    let mut conn = storage.read().await?;
    let row = sqlx::query("SELECT body FROM event_bodies WHERE id = $1")
        .bind(id)
        .fetch_one(&mut *conn)
        .await?;
    Ok(row.try_get("body")?)
}

/// The leader's own connection: the advisory lock lives and dies with it.
pub struct LeaderConnection(PgConnection);

impl LeaderConnection {
    /// Connects; the error text is the driver's (it may name the URL: scrub it).
    pub async fn connect(url: &str) -> std::result::Result<LeaderConnection, String> {
        PgConnection::connect(url)
            .await
            .map(LeaderConnection)
            .map_err(|err| err.to_string())
    }

    /// Takes the leader lock if free; Err when the connection failed.
    pub async fn try_lock(&mut self) -> Result<bool> {
        Ok(
            sqlx::query_scalar::<_, bool>("SELECT pg_try_advisory_lock($1)")
                .bind(LEADER_LOCK)
                .fetch_one(&mut self.0)
                .await?,
        )
    }

    /// Whether the connection (and with it the lock) is still there.
    pub async fn is_alive(&mut self) -> bool {
        sqlx::query("SELECT 1").execute(&mut self.0).await.is_ok()
    }
}

/// Whether some node of the cluster holds the leader lock (PostgreSQL's view of the
/// advisory locks in this database: a bigint key is split into `classid`, its high half, and
/// `objid`, its low half).
pub async fn leader_present(storage: &Storage) -> Result<bool> {
    let mut conn = storage.read().await?;
    let holders: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND granted \
         AND objsubid = 1 AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) \
         AND classid::bigint * 4294967296 + objid::bigint = $1",
    )
    .bind(LEADER_LOCK)
    .fetch_one(&mut *conn)
    .await?;
    Ok(holders > 0)
}

/// Deletes the event bodies every node read long ago.
pub async fn forget_old_bodies(storage: &Storage) -> Result<()> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    let mut conn = storage.read().await?;
    sqlx::query("DELETE FROM event_bodies WHERE created_ms < $1")
        .bind(now - BODY_LIFETIME_MS)
        .execute(&mut *conn)
        .await?;
    Ok(())
}
