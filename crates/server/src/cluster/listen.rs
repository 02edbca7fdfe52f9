//! The node's listener: notices from every node (its own included) handed to the hub, and what
//! it does when it may have missed some (see the module above).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

use super::ELECTION_RETRY;
use crate::domain::clock::Clock;
use crate::domain::games::Games;
use crate::error::Result;
use crate::events::Hub;
use crate::model::GameRow;
use crate::model::Status;
use crate::model::{Event, EventKind};
use crate::store::notices::{
    event_text, listener_name, send_probe, Listener, SubscriptionNotice, EVENTS, LOBBY,
    REVOCATIONS, SUBSCRIPTIONS,
};
use crate::store::{self, Storage};

/// A node that has heard nothing for this long sends itself a probe.
pub const PROBE_WHEN_IDLE: Duration = Duration::from_secs(2);
/// A probe not heard back within this long means the listening connection is gone.
pub const PROBE_WAIT: Duration = Duration::from_secs(5);

/// What the listener uses of its node: the database, the games (their subscriptions), the hub
/// it feeds and the clock of the summaries it pushes.
#[derive(Clone)]
pub struct Node {
    pub storage: Storage,
    pub games: Games,
    pub hub: Hub,
    pub clock: Arc<Clock>,
}

/// Starts listening for the other nodes' events and notices (and this node's own), then loads
/// the subscriptions and the open boards' versions, so no change falls between the two. Runs
/// until `stopped`.
pub async fn listen(node: Node, stopped: watch::Receiver<bool>) -> Result<()> {
    let url = node.storage.url().to_string();
    let listener = Listener::connect(&url).await?;
    node.games.load_subscriptions().await?;
    let mut pushed = Pushed::default();
    pushed.load(&node.storage).await?;
    let listening = Listening {
        node,
        reader: Reader::spawn(listener, url.clone()),
        url,
        pushed,
        stopped,
    };
    tokio::spawn(listening.run());
    Ok(())
}

/// The listening task's state.
struct Listening {
    node: Node,
    url: String,
    reader: Reader,
    pushed: Pushed,
    stopped: watch::Receiver<bool>,
}

impl Listening {
    /// Hands notices to the hub until stopped; probes the connection when it has been quiet.
    async fn run(mut self) {
        // Other nodes hear this node's probes too, and ignore them.
        let probe = format!(
            "{} {}",
            listener_name(std::process::id()),
            rand::random::<u64>()
        );
        let mut heard = Instant::now();
        let mut probe_sent: Option<Instant> = None;
        loop {
            let deadline = match probe_sent {
                Some(sent) => sent + PROBE_WAIT,
                None => heard + PROBE_WHEN_IDLE,
            };
            tokio::select! {
                Some(received) = self.reader.notices.recv() => {
                    // Anything heard shows the connection listens.
                    heard = Instant::now();
                    probe_sent = None;
                    self.received(received).await;
                }
                _ = tokio::time::sleep_until(deadline) => match probe_sent {
                    None => match send_probe(&self.node.storage, &probe).await {
                        Ok(()) => probe_sent = Some(Instant::now()),
                        // The database is away: the listener will hear of it, or a later
                        // probe will.
                        Err(_) => heard = Instant::now(),
                    },
                    Some(_) => {
                        tracing::warn!("event listener silent: listening on a new connection");
                        self.node.hub.set_listener_away(true);
                        self.reconnect().await;
                        (heard, probe_sent) = (Instant::now(), None);
                    }
                },
                _ = self.stopped.changed() => return,
            }
        }
    }

    async fn received(&mut self, received: Heard) {
        if !matches!(received, Heard::Notice(..)) {
            self.node.hub.set_listener_away(true);
        }
        match received {
            Heard::Notice(channel, payload) => {
                deliver(&self.node, &mut self.pushed, &channel, &payload).await;
            }
            Heard::Reconnected => {
                tracing::warn!("event listener reconnected: catching up");
                self.recover().await;
            }
            // The driver's own reconnect did not bring it back: start over on a new connection.
            Heard::Failed(err) => {
                tracing::warn!(%err, "event listener: listening on a new connection");
                tokio::time::sleep(ELECTION_RETRY).await;
                self.reconnect().await;
            }
        }
    }

    /// Replaces the listening connection with a new one (retrying until the database answers),
    /// then recovers.
    async fn reconnect(&mut self) {
        loop {
            match Listener::connect(&self.url).await {
                Ok(listener) => break self.reader = Reader::spawn(listener, self.url.clone()),
                Err(err) => tracing::warn!(%err, "event listener"),
            }
            if *self.stopped.borrow() {
                return;
            }
            tokio::time::sleep(ELECTION_RETRY).await;
        }
        self.recover().await;
    }

    /// Reloads what notices lost while not listening would have changed (retrying while the
    /// database is not back), then has every socket resync.
    async fn recover(&mut self) {
        while !*self.stopped.borrow() {
            let caught_up = match self.node.games.load_subscriptions().await {
                Ok(()) => catch_up(&self.node, &mut self.pushed).await,
                Err(err) => Err(err),
            };
            match caught_up {
                Ok(boards) => {
                    tracing::info!(boards, "caught up on boards changed while not listening");
                    break;
                }
                Err(err) => tracing::warn!(%err, "catching up after a gap in listening"),
            }
            tokio::time::sleep(ELECTION_RETRY).await;
        }
        self.node.hub.gap();
        self.node.hub.set_listener_away(false);
    }
}

/// What the reader hears.
enum Heard {
    Notice(String, String),
    /// The connection dropped and listens again: notices may have been lost.
    Reconnected,
    /// The connection failed, and the reader stopped.
    Failed(String),
}

/// Reads the listener on a task of its own, so that no other wait of the listening loop
/// cancels a read: the driver reconnects inside a read and says so only if that read
/// completes. Dropping it stops the task.
struct Reader {
    notices: tokio::sync::mpsc::Receiver<Heard>,
    task: tokio::task::JoinHandle<()>,
}

impl Reader {
    fn spawn(mut listener: Listener, url: String) -> Reader {
        let (tell, notices) = tokio::sync::mpsc::channel(1024);
        let task = tokio::spawn(async move {
            loop {
                let heard = match listener.next().await {
                    Ok(Some((channel, payload))) => Heard::Notice(channel, payload),
                    Ok(None) => Heard::Reconnected,
                    Err(err) => {
                        let _ = tell
                            .send(Heard::Failed(crate::redact::scrub(&err, &url)))
                            .await;
                        return;
                    }
                };
                if tell.send(heard).await.is_err() {
                    return;
                }
            }
        });
        Reader { notices, task }
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        self.task.abort();
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
async fn catch_up(node: &Node, pushed: &mut Pushed) -> Result<usize> {
    let mut conn = node.storage.read().await?;
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
    let now = node.clock.now_ms();
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
            node.hub.publish(Event::new(kind, summary.clone()));
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

async fn deliver(node: &Node, pushed: &mut Pushed, channel: &str, payload: &str) {
    match channel {
        EVENTS => match event_text(&node.storage, payload).await {
            Ok(json) => match Event::from_json(&json) {
                Ok(event) if pushed.is_stale(&event) => {}
                Ok(event) => node.hub.publish(event),
                Err(err) => tracing::warn!(%err, "an event from another node does not read"),
            },
            Err(err) => tracing::warn!(%err, "an event body cannot be read"),
        },
        SUBSCRIPTIONS => match serde_json::from_str::<SubscriptionNotice>(payload) {
            Ok(notice) => node
                .hub
                .set_subscription(notice.board, &notice.name, notice.on),
            Err(err) => tracing::warn!(%err, "a subscription notice does not read"),
        },
        LOBBY => node.hub.publish_lobby(payload.to_string()),
        REVOCATIONS => match serde_json::from_str(payload) {
            Ok(revocation) => node.hub.revoke(revocation),
            Err(err) => tracing::warn!(%err, "a revocation notice does not read"),
        },
        // A probe: hearing it was all it was for (see `Listening::run`).
        _ => {}
    }
}
