//! Spectators of one game: many anonymous WebSockets on one board's event stream, as the TV
//! game's watchers are. They measure what an idle socket costs the server, and with the games
//! running, whether one game's crowd slows the others (the fan-out of issue #29).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::Context;
use futures_util::StreamExt;
use tokio::task::JoinHandle;

/// The open sockets of the crowd, each counting the messages it receives.
pub struct Crowd {
    watchers: Vec<JoinHandle<()>>,
    received: Arc<AtomicU64>,
}

impl Crowd {
    /// Opens `count` sockets on board `board` of the server at `http`, a few at a time.
    pub async fn gather(http: &str, board: i64, count: usize) -> anyhow::Result<Crowd> {
        let received = Arc::new(AtomicU64::new(0));
        let mut watchers = Vec::with_capacity(count);
        let url = format!("ws://{http}/api/games/{board}/ws");
        for i in 0..count {
            let (socket, _) = tokio_tungstenite::connect_async(&url)
                .await
                .with_context(|| format!("opening spectator socket {}", i + 1))?;
            let received = received.clone();
            watchers.push(tokio::spawn(async move {
                let (_sink, mut stream) = socket.split();
                while let Some(Ok(_)) = stream.next().await {
                    received.fetch_add(1, Ordering::Relaxed);
                }
            }));
        }
        Ok(Crowd { watchers, received })
    }

    /// Messages received by all the sockets so far (each socket's greeting included).
    pub fn received(&self) -> u64 {
        self.received.load(Ordering::Relaxed)
    }

    /// How many sockets are still open.
    pub fn open(&self) -> usize {
        self.watchers.iter().filter(|w| !w.is_finished()).count()
    }
}

impl Drop for Crowd {
    fn drop(&mut self) {
        for watcher in &self.watchers {
            watcher.abort();
        }
    }
}
