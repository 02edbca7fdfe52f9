//! What the doors' accept loops share: open connections counted per client address, an accept
//! that backs off when it fails, and warnings at most once a second.
//!
//! When the process runs out of file descriptors (EMFILE), `accept` fails at once for as long
//! as the listen queue holds connections. A loop that only logged and retried spun a core and
//! wrote a warning per try: 15 million lines, 1.6 GB of log in 40 s, while neither door answered.
//! Here a failed accept waits 100 ms, doubling up to 1 s, and says so once a second with a count.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::net::{TcpListener, TcpStream};

/// The first wait after a failed accept; it doubles up to [`LONGEST_WAIT`].
const FIRST_WAIT: Duration = Duration::from_millis(100);
const LONGEST_WAIT: Duration = Duration::from_secs(1);

/// Lets one warning through a second and counts the others.
#[derive(Default)]
pub struct Warnings {
    last: Option<Instant>,
    held_back: u64,
}

impl Warnings {
    /// Some(how many were held back since the last one) when a warning may be logged now.
    pub fn may_log(&mut self) -> Option<u64> {
        let now = Instant::now();
        if self
            .last
            .is_some_and(|last| now.duration_since(last) < Duration::from_secs(1))
        {
            self.held_back += 1;
            return None;
        }
        self.last = Some(now);
        Some(std::mem::take(&mut self.held_back))
    }
}

/// A listener whose accept backs off after errors.
pub struct Acceptor {
    listener: TcpListener,
    /// The door's name in the warnings.
    door: &'static str,
    wait: Duration,
    warnings: Warnings,
}

impl Acceptor {
    pub fn new(listener: TcpListener, door: &'static str) -> Acceptor {
        Acceptor {
            listener,
            door,
            wait: FIRST_WAIT,
            warnings: Warnings::default(),
        }
    }

    /// The next connection. Cancel-safe: dropping the future loses no connection.
    pub async fn accept(&mut self) -> (TcpStream, SocketAddr) {
        loop {
            match self.listener.accept().await {
                Ok(accepted) => {
                    self.wait = FIRST_WAIT;
                    return accepted;
                }
                Err(err) => {
                    if let Some(held_back) = self.warnings.may_log() {
                        tracing::warn!(door = self.door, %err, held_back, wait_ms = self.wait.as_millis() as u64,
                            "accept failed; waiting before the next try");
                    }
                    tokio::time::sleep(self.wait).await;
                    self.wait = (self.wait * 2).min(LONGEST_WAIT);
                }
            }
        }
    }
}

/// Open connections per client address; a [`Slot`] gives its place back when dropped.
#[derive(Clone, Default)]
pub struct Open(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// One open connection's place in its address's count.
pub struct Slot {
    open: Open,
    ip: IpAddr,
}

impl Open {
    /// A place for one more connection from `ip`, or None when it holds `max` already.
    pub fn take(&self, ip: IpAddr, max: usize) -> Option<Slot> {
        let mut counts = self.0.lock().expect("connection counts");
        let count = counts.entry(ip).or_insert(0);
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(Slot {
            open: self.clone(),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.open.0.lock().expect("connection counts");
        if let Some(count) = counts.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_warning_a_second_and_a_count_of_the_others() {
        let mut warnings = Warnings::default();
        assert_eq!(warnings.may_log(), Some(0));
        assert_eq!(warnings.may_log(), None);
        assert_eq!(warnings.may_log(), None);
        warnings.last = Some(Instant::now() - Duration::from_secs(2));
        assert_eq!(warnings.may_log(), Some(2));
    }

    #[test]
    fn an_address_holds_at_most_max_places_and_gets_them_back() {
        let open = Open::default();
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        let first = open.take(ip, 2).unwrap();
        let _second = open.take(ip, 2).unwrap();
        assert!(open.take(ip, 2).is_none());
        assert!(open.take("127.0.0.2".parse().unwrap(), 2).is_some());
        drop(first);
        assert!(open.take(ip, 2).is_some());
    }
}
