//! Live events: one broadcast stream per board and one per user, fed after each commit.
//!
//! Every event carries the board's `version` (bumped by each change) and `ply` (moves recorded,
//! automatic passes included), and the board's summary after the change, so a client applies
//! events in version order and, after a gap, asks for a snapshot instead.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{broadcast, watch};

use crate::model::{Event, EventKind, Revocation};

mod publisher;
pub use publisher::Publisher;

/// Streams per board and per user. Senders are made when someone listens and dropped when
/// nobody does any more.
#[derive(Clone, Default)]
pub struct Hub {
    boards: Arc<Mutex<HashMap<i64, broadcast::Sender<Event>>>>,
    users: Arc<Mutex<HashMap<String, broadcast::Sender<Event>>>>,
    /// Users who follow boards they do not play on (`ataxx subscribe`).
    subscribers: Arc<Mutex<HashMap<i64, Vec<String>>>>,
    lobby: Lobby,
    /// Counts the gaps: times this node may have missed events (its listener was away), so
    /// that every stream resyncs.
    gaps: Gaps,
    /// Ended sessions, for the sockets opened with them.
    revocations: Revocations,
    /// Whether this node's listener (several nodes on PostgreSQL) is away: the node is not
    /// ready (`/readyz`) until it listens again and has caught up.
    listener_away: Arc<std::sync::atomic::AtomicBool>,
}

#[derive(Clone)]
struct Revocations(broadcast::Sender<Revocation>);

impl Default for Revocations {
    fn default() -> Self {
        Revocations(broadcast::channel(BACKLOG).0)
    }
}

#[derive(Clone)]
struct Gaps(Arc<watch::Sender<u64>>);

impl Default for Gaps {
    fn default() -> Self {
        Gaps(Arc::new(watch::channel(0).0))
    }
}

/// The lobby stream: seeks added and removed, games started and ended (JSON texts).
#[derive(Clone)]
struct Lobby(broadcast::Sender<Arc<str>>);

impl Default for Lobby {
    fn default() -> Self {
        Lobby(broadcast::channel(BACKLOG).0)
    }
}

/// Events a slow listener may fall behind by before it is told to resync.
const BACKLOG: usize = 256;

fn subscribe<K: std::hash::Hash + Eq>(
    map: &Mutex<HashMap<K, broadcast::Sender<Event>>>,
    key: K,
) -> broadcast::Receiver<Event> {
    map.lock()
        .expect("event hub")
        .entry(key)
        .or_insert_with(|| broadcast::channel(BACKLOG).0)
        .subscribe()
}

fn send<K: std::hash::Hash + Eq>(
    map: &Mutex<HashMap<K, broadcast::Sender<Event>>>,
    key: &K,
    event: &Event,
) {
    let mut map = map.lock().expect("event hub");
    if let Some(sender) = map.get(key) {
        if sender.send(event.clone()).is_err() {
            map.remove(key);
        }
    }
}

impl Hub {
    pub fn board(&self, board: i64) -> broadcast::Receiver<Event> {
        subscribe(&self.boards, board)
    }

    pub fn user(&self, name: &str) -> broadcast::Receiver<Event> {
        subscribe(&self.users, name.to_string())
    }

    /// Sets whether `name` follows `board`.
    pub fn set_subscription(&self, board: i64, name: &str, on: bool) {
        let mut subscribers = self.subscribers.lock().expect("event hub");
        let list = subscribers.entry(board).or_default();
        list.retain(|n| n != name);
        if on {
            list.push(name.to_string());
            list.sort();
        }
    }

    /// Replaces every subscription with `pairs` of (board, name): what the store holds, so
    /// that one dropped while this node was not told of it goes too.
    pub fn replace_subscriptions(&self, pairs: Vec<(i64, String)>) {
        let mut loaded: HashMap<i64, Vec<String>> = HashMap::new();
        for (board, name) in pairs {
            loaded.entry(board).or_default().push(name);
        }
        for list in loaded.values_mut() {
            list.sort();
        }
        *self.subscribers.lock().expect("event hub") = loaded;
    }

    /// The users who follow a board.
    pub fn subscribers(&self, board: i64) -> Vec<String> {
        let subscribers = self.subscribers.lock().expect("event hub");
        subscribers.get(&board).cloned().unwrap_or_default()
    }

    /// Listens to the lobby stream.
    pub fn lobby(&self) -> broadcast::Receiver<Arc<str>> {
        self.lobby.0.subscribe()
    }

    /// Sends a JSON text to every lobby listener (none listening is fine).
    pub fn publish_lobby(&self, json: String) {
        let _ = self.lobby.0.send(json.into());
    }

    /// Tells the sockets that sessions ended (none listening is fine).
    pub fn revoke(&self, revocation: Revocation) {
        let _ = self.revocations.0.send(revocation);
    }

    /// Listens for ended sessions.
    pub fn revocations(&self) -> broadcast::Receiver<Revocation> {
        self.revocations.0.subscribe()
    }

    /// Tells every stream that events may have been missed: each board and user socket resyncs
    /// (see [`Hub::gaps`]), and lobby listeners are sent `{"type":"resync"}`.
    pub fn gap(&self) {
        self.gaps.0.send_modify(|gaps| *gaps += 1);
        self.publish_lobby(serde_json::json!({"type": "resync"}).to_string());
    }

    /// Marks this node's listener away (it lost its connection) or back (listening and caught
    /// up).
    pub fn set_listener_away(&self, away: bool) {
        self.listener_away
            .store(away, std::sync::atomic::Ordering::Relaxed);
    }

    pub fn listener_away(&self) -> bool {
        self.listener_away
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Changes with each [`Hub::gap`].
    pub fn gaps(&self) -> watch::Receiver<u64> {
        self.gaps.0.subscribe()
    }

    /// Sends an event to the board's listeners, every player's and the subscribers'; a game
    /// that started or ended also goes to the lobby.
    pub fn publish(&self, event: Event) {
        let lobby_type = match event.kind {
            EventKind::Started => Some("game_started"),
            EventKind::Ended => Some("game_ended"),
            _ => None,
        };
        if let Some(kind) = lobby_type {
            self.publish_lobby(serde_json::json!({"type": kind, "game": &*event.game}).to_string());
        }
        send(&self.boards, &event.board, &event);
        let mut users: Vec<String> = event.game.seats.iter().map(|s| s.name.clone()).collect();
        users.extend(self.subscribers(event.board));
        users.sort();
        users.dedup();
        for user in &users {
            send(&self.users, user, &event);
        }
    }
}
