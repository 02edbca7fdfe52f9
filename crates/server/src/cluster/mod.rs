//! Several server nodes on one PostgreSQL database (docs/scaling.md).
//!
//! The database is the source of truth; nodes keep nothing another node needs to know, except
//! two caches fed from it:
//! - **Events.** A change's events are sent with `NOTIFY` inside its transaction
//!   ([`store::notices::send_event`]); PostgreSQL delivers them when it commits, in commit order, to every node
//!   that `LISTEN`s, the sender included ([`listen`]), and each node hands them to its own hub
//!   (WebSockets, bots). A board's row lock orders its commits, so a board's events arrive in
//!   version order on every node; a client that reconnects to another node resyncs by version
//!   as it does on one. An event too long for a notification (8000 bytes) travels through the
//!   `event_bodies` table and the notification names its row.
//! - **Subscriptions** (`ataxx subscribe`): loaded at start, then kept by notices.
//! - **The lobby** (seeks posted and withdrawn): notices sent after the change commits.
//!
//! Notifications sent while a node's `LISTEN` connection is down never reach it. The node keeps
//! the version and ply of every open board as it last pushed them (`Pushed`); once listening
//! again it reads the open boards (and those it knew open) and pushes, as events carrying each
//! board's current summary, whatever advanced meanwhile (`catch_up`); notifications of those
//! changes that still arrive afterwards are dropped as already pushed.
//!
//! Singletons (bots, the deadline sweeper, later the mail sender) run on the leader only: the
//! node holding a PostgreSQL advisory lock on a connection of its own ([`Leader`]). The lock
//! goes with that connection, so when the leader dies (even by SIGKILL: the kernel closes its
//! socket) PostgreSQL releases it and another node, retrying every [`ELECTION_RETRY`], takes
//! over. On SQLite the one node always leads.

use std::collections::HashMap;
use std::time::Duration;

use tokio::sync::watch;

use crate::domain::leader::Leader;
use crate::error::Result;
use crate::model::GameRow;
use crate::model::Status;
use crate::model::{Event, EventKind};
use crate::store::notices::{
    event_text, forget_old_bodies, LeaderConnection, Listener, SubscriptionNotice, EVENTS, LOBBY,
    SUBSCRIPTIONS,
};
use crate::store::{self, Storage};
use crate::App;

/// How often a follower tries to become the leader, and the leader checks its connection.
pub const ELECTION_RETRY: Duration = Duration::from_secs(1);

/// Starts listening for the other nodes' events and notices (and this node's own), then loads
/// the subscriptions and the open boards' versions, so no change falls between the two. Runs
/// until `stopped`.
pub async fn listen(app: &App, mut stopped: watch::Receiver<bool>) -> Result<()> {
    let url = app.storage.url().to_string();
    let mut listener = Listener::connect(&url).await?;
    app.games.load_subscriptions().await?;
    let mut pushed = Pushed::default();
    pushed.load(&app.storage).await?;
    let app = app.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                received = listener.next() => match received {
                    Ok(Some((channel, payload))) => {
                        deliver(&app, &mut pushed, &channel, &payload).await;
                    }
                    // The connection dropped and is listening again.
                    Ok(None) => {
                        tracing::warn!("event listener reconnected: catching up");
                        recover(&app, &mut pushed).await;
                    }
                    Err(err) => {
                        tracing::warn!(err = %crate::redact::scrub(&err, &url), "event listener");
                        tokio::time::sleep(ELECTION_RETRY).await;
                        // Listening (again) reconnects a dropped connection; a live one just
                        // listens once more to a channel it already hears.
                        if listener.listen_again().await {
                            recover(&app, &mut pushed).await;
                        }
                    }
                },
                _ = stopped.changed() => return,
            }
        }
    });
    Ok(())
}

/// Reloads what notices lost while not listening would have changed.
async fn recover(app: &App, pushed: &mut Pushed) {
    if let Err(err) = app.games.load_subscriptions().await {
        tracing::warn!(%err, "reloading subscriptions");
    }
    match catch_up(app, pushed).await {
        Ok(boards) if boards > 0 => {
            tracing::info!(boards, "caught up on boards changed while not listening")
        }
        Ok(_) => {}
        Err(err) => tracing::warn!(%err, "catching up on boards"),
    }
}

/// What this node last pushed of a board still open then.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Seen {
    version: i64,
    ply: i64,
    status: Status,
    /// Pushed by [`catch_up`]: the notification of that version may still arrive, and is dropped.
    caught_up: bool,
}

/// The open boards' versions as this node last pushed them.
#[derive(Default)]
struct Pushed(HashMap<i64, Seen>);

impl Pushed {
    /// Starts from the open boards as the database has them.
    async fn load(&mut self, storage: &Storage) -> Result<()> {
        let mut conn = storage.read().await?;
        for game in store::open_boards(&mut conn).await? {
            self.saw(game.board, game.version, game.plies, game.status, false);
        }
        Ok(())
    }

    fn saw(&mut self, board: i64, version: i64, ply: i64, status: Status, caught_up: bool) {
        if !status.is_open() {
            self.0.remove(&board);
            return;
        }
        let seen = Seen {
            version,
            ply,
            status,
            caught_up,
        };
        self.0.insert(board, seen);
    }

    /// Whether an arriving event is older than what was pushed (or is the very change a catch-up
    /// already pushed); otherwise records it.
    fn is_stale(&mut self, event: &Event) -> bool {
        if let Some(seen) = self.0.get(&event.board) {
            if event.version < seen.version || (seen.caught_up && event.version == seen.version) {
                return true;
            }
        }
        let game = &event.game;
        self.saw(event.board, event.version, game.ply, game.status, false);
        false
    }
}

/// Pushes, for every open board (and every board this node knew open), what changed past the
/// version last pushed; returns how many boards had changed.
async fn catch_up(app: &App, pushed: &mut Pushed) -> Result<usize> {
    let mut conn = app.storage.read().await?;
    let mut games: Vec<GameRow> = store::open_boards(&mut conn).await?;
    let closed: Vec<i64> = pushed
        .0
        .keys()
        .filter(|board| !games.iter().any(|g| g.board == **board))
        .copied()
        .collect();
    for board in closed {
        games.extend(store::game(&mut conn, board).await?);
    }
    let now = app.clock.now_ms();
    let mut changed = 0;
    for game in games {
        let seen = pushed.0.get(&game.board).cloned();
        if seen
            .as_ref()
            .is_some_and(|seen| seen.version >= game.version)
        {
            continue;
        }
        let moves = match &seen {
            Some(seen) if game.plies > seen.ply => store::moves(&mut conn, game.board)
                .await?
                .into_iter()
                .filter(|m| m.ply > seen.ply)
                .collect(),
            None if game.plies > 0 => store::moves(&mut conn, game.board).await?,
            _ => vec![],
        };
        let summary = game.summary(now);
        for kind in missed_events(seen.as_ref(), &game, moves) {
            app.hub.publish(Event::new(kind, summary.clone()));
        }
        pushed.saw(game.board, game.version, game.plies, game.status, true);
        changed += 1;
    }
    Ok(changed)
}

/// The events that bring a listener from `seen` (None: a board not known) to `game`; each
/// carries the board's current summary, so clients that see a version gap resync.
fn missed_events(
    seen: Option<&Seen>,
    game: &GameRow,
    moves: Vec<crate::model::MoveRow>,
) -> Vec<EventKind> {
    let mut kinds = vec![];
    let was = seen.map(|seen| seen.status);
    match (was, game.status) {
        (None, Status::Challenge) => kinds.push(EventKind::Challenge),
        (None | Some(Status::Challenge), Status::Active | Status::Finished) => {
            kinds.push(EventKind::Started)
        }
        (Some(Status::Challenge), status) if !status.is_open() => kinds.push(EventKind::Cancelled),
        _ => {}
    }
    if seen.is_some_and(|seen| game.plies < seen.ply) {
        kinds.push(EventKind::Undone);
    }
    if !moves.is_empty() {
        kinds.push(EventKind::Moves { moves });
    }
    if game.status == Status::Finished {
        kinds.push(EventKind::Ended);
    }
    if kinds.is_empty() {
        // A proposal, an answer or a chat line: the summary says where the board stands.
        kinds.push(EventKind::Proposal);
    }
    kinds
}

async fn deliver(app: &App, pushed: &mut Pushed, channel: &str, payload: &str) {
    match channel {
        EVENTS => match event_text(&app.storage, payload).await {
            Ok(json) => match Event::from_json(&json) {
                Ok(event) if pushed.is_stale(&event) => {}
                Ok(event) => app.hub.publish(event),
                Err(err) => tracing::warn!(%err, "an event from another node does not read"),
            },
            Err(err) => tracing::warn!(%err, "an event body cannot be read"),
        },
        SUBSCRIPTIONS => match serde_json::from_str::<SubscriptionNotice>(payload) {
            Ok(notice) => app
                .hub
                .set_subscription(notice.board, &notice.name, notice.on),
            Err(err) => tracing::warn!(%err, "a subscription notice does not read"),
        },
        LOBBY => app.hub.publish_lobby(payload.to_string()),
        _ => {}
    }
}

/// Starts the election of the node that runs the singletons, on a database several nodes
/// share.
pub fn elect(storage: &Storage) -> Leader {
    let (tell, leads) = watch::channel(false);
    tokio::spawn(campaign(storage.clone(), tell));
    Leader::following(leads)
}

/// Tries for the leader lock until the database closes; while leading, checks the connection
/// (and with it the lock) every [`ELECTION_RETRY`] and clears old event bodies.
async fn campaign(storage: Storage, tell: watch::Sender<bool>) {
    let url = storage.url().to_string();
    let mut ticks = 0u64;
    while !storage.is_closed() {
        let mut conn = match LeaderConnection::connect(&url).await {
            Ok(conn) => conn,
            Err(err) => {
                tracing::warn!(err = %crate::redact::scrub(&err.to_string(), &url), "leader election");
                tokio::time::sleep(ELECTION_RETRY).await;
                continue;
            }
        };
        loop {
            match conn.try_lock().await {
                Ok(true) => break,
                Ok(false) if !storage.is_closed() => tokio::time::sleep(ELECTION_RETRY).await,
                _ => return,
            }
        }
        tracing::info!("this node leads (bots, deadline sweeper)");
        tell.send_replace(true);
        while !storage.is_closed() {
            tokio::time::sleep(ELECTION_RETRY).await;
            ticks += 1;
            if !conn.is_alive().await {
                break;
            }
            if ticks.is_multiple_of(10) {
                let _ = forget_old_bodies(&storage).await;
            }
        }
        tracing::warn!("this node no longer leads");
        tell.send_replace(false);
    }
}
