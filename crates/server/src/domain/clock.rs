//! The server's time source. Game deadlines (nag, forfeit, clocks) read it, so tests can move
//! time forward; rate limits use the wall clock without the offset instead (crate::domain::throttle).

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Wall-clock milliseconds since the Unix epoch, plus an offset that only a test clock moves.
#[derive(Debug, Default)]
pub struct Clock {
    offset_ms: AtomicI64,
    adjustable: bool,
}

/// The clock refused to move: only a server started with a test clock allows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("this server's clock cannot be moved (start it with --test-clock)")]
pub struct FixedClock;

impl Clock {
    /// The system clock.
    pub fn system() -> Clock {
        Clock::default()
    }

    /// The system clock plus an offset that [`Clock::advance`] moves forward.
    pub fn adjustable() -> Clock {
        Clock {
            offset_ms: AtomicI64::new(0),
            adjustable: true,
        }
    }

    pub fn now_ms(&self) -> i64 {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        now + self.offset_ms.load(Ordering::Relaxed)
    }

    /// Moves a test clock forward.
    pub fn advance(&self, ms: i64) -> Result<(), FixedClock> {
        if !self.adjustable {
            return Err(FixedClock);
        }
        self.offset_ms.fetch_add(ms, Ordering::Relaxed);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_test_clock_moves_forward() {
        let clock = Clock::adjustable();
        let before = clock.now_ms();
        clock.advance(86_400_000).unwrap();
        assert!(clock.now_ms() - before >= 86_400_000);
        assert!(Clock::system().advance(1).is_err());
    }
}
