//! The analysis board's live searches: a position's best lines, told as the depth grows, with
//! the caps that keep them from crowding out the games.
//!
//! - One search per owner: a signed-in user, or a visitor's address. A new position replaces
//!   the owner's search, from whichever socket it comes (the old socket is told `replaced`).
//! - At most [`LiveOptions::searches`] at once on a node, all owners together; one more is
//!   refused at once ([`Error::Busy`]), costing nothing.
//! - Each position is searched at most [`LiveOptions::time`] and [`DEPTH`] plies: a forgotten
//!   tab holds a core that long, no longer.
//! - A search runs on an OS thread of its own at nice 10 (as the analysis workers do), never on
//!   the async runtime, so the game loop comes first when the cores are short. It stops within
//!   a thousand nodes of its [`LiveSearch`] being dropped: the socket closed, its page asked
//!   for another position, or `analyse_stop`.
//! - The search publishes its newest depth in a `watch` channel: a socket that reads slowly
//!   skips depths instead of queueing them.
//!
//! Positions standing on a board in play are refused (issue #32), as everywhere.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use games::{AnyPosition, GameKind};
use serde::Serialize;
use tokio::sync::watch;

use super::lines::{self, Bounds};
use crate::error::{Error, Result};
use crate::model::LiveLines;
use crate::store::Storage;

/// The deepest a live search goes, in plies: past what a full board reaches in the time, so it
/// stops only small boards, which would otherwise deepen without end.
pub const DEPTH: u32 = 64;

/// How long a refused owner is told to wait.
const RETRY_AFTER_S: u64 = 5;

/// The caps of the live searches.
#[derive(Clone, Debug)]
pub struct LiveOptions {
    /// Searches at once on this node, all owners together.
    pub searches: usize,
    /// The longest one position is searched.
    pub time: Duration,
}

impl Default for LiveOptions {
    /// One search per two cores (at least one): each holds a core, and the rest are left to
    /// the games and the analysis workers. 30 s per position: deep enough to settle the lines
    /// of a position someone looks at, short enough that a forgotten tab frees its core soon.
    fn default() -> LiveOptions {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        LiveOptions {
            searches: (cores / 2).max(1),
            time: Duration::from_secs(30),
        }
    }
}

/// Whose a live search is: each has one at a time.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    User(String),
    /// A visitor, by the client's address.
    Address(IpAddr),
}

/// Why a live search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// It ran for [`LiveOptions::time`].
    Time,
    /// It reached [`DEPTH`], or every line is a forced end seen to its end.
    Done,
    /// Its owner asked about another position (from another socket).
    Replaced,
    /// `analyse_stop`.
    Stopped,
    /// The game is over in the position: nothing to search.
    GameOver,
}

/// What a live search has to tell.
#[derive(Clone, Debug)]
pub enum LiveNews {
    /// A completed depth, deeper than any told before.
    Lines(Arc<LiveLines>),
    /// The search ended; `depth` is the last depth told (0: none).
    End {
        fen: String,
        reason: EndReason,
        depth: u32,
    },
}

/// What a search thread publishes: its newest depth, and its end once it comes.
#[derive(Clone, Debug, Default)]
struct Published {
    lines: Option<Arc<LiveLines>>,
    end: Option<EndReason>,
}

/// What a running search and whoever started it share.
#[derive(Debug, Default)]
struct Flags {
    stop: AtomicBool,
    replaced: AtomicBool,
}

/// A running search as the registry knows it.
struct Running {
    id: u64,
    flags: Arc<Flags>,
}

/// The live searches of this node.
#[derive(Clone)]
pub struct LiveAnalyses {
    storage: Storage,
    options: LiveOptions,
    running: Arc<Mutex<HashMap<Owner, Running>>>,
    next_id: Arc<AtomicU64>,
}

/// A live search, as its socket holds it: dropping it stops the search.
pub struct LiveSearch {
    pub game: GameKind,
    /// The position searched, as its game writes it.
    pub fen: String,
    published: watch::Receiver<Published>,
    flags: Arc<Flags>,
    told_depth: u32,
    told_end: bool,
}

impl LiveAnalyses {
    pub fn new(storage: Storage, options: LiveOptions) -> LiveAnalyses {
        LiveAnalyses {
            storage,
            options,
            running: Arc::default(),
            next_id: Arc::default(),
        }
    }

    fn registry(&self) -> MutexGuard<'_, HashMap<Owner, Running>> {
        // A thread that panicked holding the lock left the map whole: every change is one call.
        self.running
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Starts searching the position `fen` of `game` for `owner`, replacing the owner's search.
    /// Refuses an unknown game, a bad position, a position on a board in play, and a search
    /// over the node's cap.
    pub async fn start(&self, owner: Owner, game: &str, fen: &str) -> Result<LiveSearch> {
        let kind: GameKind = game.parse()?;
        let position = kind.parse_position(fen).map_err(Error::BadPosition)?;
        super::refuse_positions_in_play(&self.storage, position.as_ref()).await?;
        let fen = position.fen();
        let flags = Arc::new(Flags::default());
        let id = self.claim(&owner, &flags)?;
        let slot = Slot {
            live: self.clone(),
            owner,
            id,
        };
        let (publisher, published) = watch::channel(Published::default());
        let bounds = Bounds {
            time: self.options.time,
            depth: DEPTH,
        };
        let thread_flags = Arc::clone(&flags);
        std::thread::Builder::new()
            .name("live-analysis".into())
            .spawn(move || run(position, bounds, &thread_flags, &publisher, slot))
            // The closure, its slot with it, is dropped: the claim is given back.
            .map_err(|_| busy())?;
        Ok(LiveSearch {
            game: kind,
            fen,
            published,
            flags,
            told_depth: 0,
            told_end: false,
        })
    }

    /// Registers a search for `owner`: its search before is told it was replaced and stops.
    fn claim(&self, owner: &Owner, flags: &Arc<Flags>) -> Result<u64> {
        let mut running = self.registry();
        if let Some(old) = running.remove(owner) {
            old.flags.replaced.store(true, Ordering::Relaxed);
            old.flags.stop.store(true, Ordering::Relaxed);
        }
        if running.len() >= self.options.searches {
            return Err(busy());
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let flags = Arc::clone(flags);
        running.insert(owner.clone(), Running { id, flags });
        Ok(id)
    }
}

fn busy() -> Error {
    Error::Busy {
        what: "live analyses",
        retry_after_s: RETRY_AFTER_S,
    }
}

/// A search's place in the registry, given back when its thread ends (however it ends).
struct Slot {
    live: LiveAnalyses,
    owner: Owner,
    id: u64,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut running = self.live.registry();
        // Replaced, the owner's entry is the new search's.
        if running.get(&self.owner).is_some_and(|r| r.id == self.id) {
            running.remove(&self.owner);
        }
    }
}

/// Counts a search thread in the `ataxx_live_analyses` gauge while it lives.
struct Counted;

impl Counted {
    fn new() -> Counted {
        crate::metrics::metrics().live_analyses.inc();
        Counted
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        crate::metrics::metrics().live_analyses.dec();
    }
}

/// A search thread: publishes each depth, then why it ended.
fn run(
    position: Box<dyn AnyPosition>,
    bounds: Bounds,
    flags: &Flags,
    publisher: &watch::Sender<Published>,
    _slot: Slot,
) {
    let _counted = Counted::new();
    super::lower_priority();
    let started = Instant::now();
    let reason = match position.outcome() {
        Some(_) => EndReason::GameOver,
        None => {
            lines::search(position.as_ref(), bounds, &flags.stop, &mut |found| {
                publisher.send_modify(|published| published.lines = Some(Arc::new(found)));
            });
            if flags.replaced.load(Ordering::Relaxed) {
                EndReason::Replaced
            } else if flags.stop.load(Ordering::Relaxed) {
                EndReason::Stopped
            } else if started.elapsed() + Duration::from_millis(100) >= bounds.time {
                // The engine keeps a few milliseconds of its time for itself.
                EndReason::Time
            } else {
                EndReason::Done
            }
        }
    };
    publisher.send_modify(|published| published.end = Some(reason));
}

impl LiveSearch {
    /// The deepest depth told so far (0: none).
    pub fn depth(&self) -> u32 {
        self.told_depth
    }

    /// The next thing to tell: a depth deeper than any told, or the end; None once the end
    /// was told (or the search thread died without one).
    pub async fn next(&mut self) -> Option<LiveNews> {
        loop {
            if self.told_end {
                return None;
            }
            if let Some(news) = self.unseen() {
                return Some(news);
            }
            if self.published.changed().await.is_err() {
                let last = self.unseen();
                self.told_end = true;
                return last;
            }
        }
    }

    fn unseen(&mut self) -> Option<LiveNews> {
        let published = self.published.borrow_and_update().clone();
        if let Some(lines) = published.lines.filter(|l| l.depth > self.told_depth) {
            self.told_depth = lines.depth;
            return Some(LiveNews::Lines(lines));
        }
        let reason = published.end?;
        self.told_end = true;
        Some(LiveNews::End {
            fen: self.fen.clone(),
            reason,
            depth: self.told_depth,
        })
    }
}

impl Drop for LiveSearch {
    fn drop(&mut self) {
        self.flags.stop.store(true, Ordering::Relaxed);
    }
}
