//! Conflict retry: PostgreSQL's serialization failures and deadlocks are run again, a bounded
//! number of times.

use crate::error::{Error, Result};

/// How many times a transaction PostgreSQL aborted to break a deadlock or a serialization
/// conflict is run again before the error goes to the caller.
pub const CONFLICT_RETRIES: u32 = 3;

/// Whether PostgreSQL aborted the transaction to resolve a conflict with another one
/// (SQLSTATE 40001 serialization failure, 40P01 deadlock): running it again may succeed.
pub fn is_conflict(err: &Error) -> bool {
    match err {
        Error::Database(source) => match source.downcast_ref::<sqlx::Error>() {
            Some(sqlx::Error::Database(db)) => {
                matches!(db.code().as_deref(), Some("40001" | "40P01"))
            }
            _ => false,
        },
        _ => false,
    }
}

/// Runs a whole transaction (`attempt` begins, does and commits it) and runs it again, up to
/// [`CONFLICT_RETRIES`] times after a short random pause, when PostgreSQL aborted it as the
/// loser of a deadlock or serialization conflict: the other transaction has then gone through,
/// and the retry sees its result.
pub async fn retry_conflicts<T, F, Fut>(what: &str, mut attempt: F) -> Result<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T>>,
{
    let mut retries = 0;
    loop {
        match attempt().await {
            Err(err) if is_conflict(&err) && retries < CONFLICT_RETRIES => {
                retries += 1;
                tracing::info!(%err, retry = retries, "{what}: conflict with another transaction, retrying");
                let pause = std::time::Duration::from_millis(rand::random_range(5..50));
                tokio::time::sleep(pause).await;
            }
            done => return done,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;

    /// An error as PostgreSQL reports it, with a SQLSTATE code.
    #[derive(Debug)]
    struct Sqlstate(&'static str);

    impl std::fmt::Display for Sqlstate {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "SQLSTATE {}", self.0)
        }
    }

    impl std::error::Error for Sqlstate {}

    impl sqlx::error::DatabaseError for Sqlstate {
        fn message(&self) -> &str {
            "aborted"
        }
        fn code(&self) -> Option<Cow<'_, str>> {
            Some(self.0.into())
        }
        fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
            self
        }
        fn kind(&self) -> sqlx::error::ErrorKind {
            sqlx::error::ErrorKind::Other
        }
    }

    fn failure(code: &'static str) -> Error {
        Error::from(sqlx::Error::Database(Box::new(Sqlstate(code))))
    }

    /// Runs `retry_conflicts` over attempts that fail with `codes` in turn, then succeed;
    /// returns the outcome and how many attempts ran.
    async fn attempts(codes: &[&'static str]) -> (Result<u32>, u32) {
        let runs = std::sync::atomic::AtomicU32::new(0);
        let outcome = retry_conflicts("a test", || {
            let run = runs.fetch_add(1, std::sync::atomic::Ordering::SeqCst) as usize;
            async move {
                match codes.get(run) {
                    Some(code) => Err(failure(code)),
                    None => Ok(run as u32),
                }
            }
        })
        .await;
        (outcome, runs.into_inner())
    }

    #[tokio::test]
    async fn deadlocks_and_serialization_failures_are_retried_a_bounded_number_of_times() {
        let (outcome, runs) = attempts(&["40P01", "40001"]).await;
        assert_eq!(outcome.unwrap(), 2);
        assert_eq!(runs, 3);
        // One more conflict than the retries allow: the last one goes to the caller.
        let codes = ["40P01"; CONFLICT_RETRIES as usize + 1];
        let (outcome, runs) = attempts(&codes).await;
        assert!(outcome.as_ref().is_err_and(is_conflict), "{outcome:?}");
        assert_eq!(runs, CONFLICT_RETRIES + 1);
    }

    #[tokio::test]
    async fn other_errors_are_not_retried() {
        // A unique violation: running again would fail the same way.
        let (outcome, runs) = attempts(&["23505"]).await;
        assert!(outcome.is_err());
        assert_eq!(runs, 1);
        assert!(!is_conflict(&Error::Auth));
    }
}
