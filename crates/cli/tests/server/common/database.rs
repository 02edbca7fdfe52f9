//! Which database the server tests run against: SQLite files by default, or, when
//! `ATAXX_TEST_POSTGRES` holds a server URL (`postgres://user:password@host:port`, set by
//! scripts/postgres.sh), a fresh PostgreSQL database per test that `ataxx serve` creates.

use std::ffi::OsString;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

/// The PostgreSQL server the tests may use.
pub fn postgres_server() -> Option<String> {
    std::env::var("ATAXX_TEST_POSTGRES")
        .ok()
        .filter(|url| !url.is_empty())
        .map(|url| url.trim_end_matches('/').to_string())
}

/// The `--db` argument for a test's database file: the file itself, or the PostgreSQL database
/// named after it (the same path names the same database, so a restarted server finds its data).
pub fn test_database(file: &Path) -> OsString {
    match postgres_server() {
        Some(server) => postgres_database(&server, file).into(),
        None => file.into(),
    }
}

/// A PostgreSQL database URL named after `file`.
pub fn postgres_database(server: &str, file: &Path) -> String {
    let mut hasher = DefaultHasher::new();
    file.hash(&mut hasher);
    format!("{server}/ataxx_test_{:016x}", hasher.finish())
}
