//! Whether a SQLite database is open in a server: every process that opens it through
//! [`super::Storage`] holds a shared lock on its file (`flock`, which SQLite's own `fcntl` locks
//! do not see), and `ataxx restore` takes the lock exclusively, so that it refuses a database a
//! server is running on (issue #50: a restore under a running server was accepted and broke
//! it) and no server opens one while it is being restored.

use std::fs::{File, TryLockError};
use std::path::Path;
use std::sync::Arc;

use crate::error::{Error, Result};

/// A held lock on a database file; released when the last clone is dropped.
#[derive(Clone, Debug)]
pub(super) struct InUse {
    _file: Arc<File>,
}

impl InUse {
    /// Shares the lock on `path` with the other processes that have the database open.
    pub(super) fn share(path: &Path) -> Result<InUse> {
        take(
            path,
            File::try_lock_shared,
            "is being restored (ataxx restore): try again when it is done",
        )
    }

    /// Takes the lock on `path` alone: refused while any process has the database open.
    pub(super) fn exclusive(path: &Path) -> Result<InUse> {
        take(
            path,
            File::try_lock,
            "is open in a running server (or an ataxx command): stop it before restoring",
        )
    }
}

/// Opens `path` and locks it with `lock`; `held` says why it waits when another holds it.
fn take(
    path: &Path,
    lock: fn(&File) -> std::result::Result<(), TryLockError>,
    held: &str,
) -> Result<InUse> {
    let file = File::open(path)
        .map_err(|err| Error::Config(format!("cannot open {}: {err}", path.display())))?;
    match lock(&file) {
        Ok(()) => Ok(InUse {
            _file: Arc::new(file),
        }),
        Err(TryLockError::WouldBlock) => Err(Error::Config(format!("{} {held}", path.display()))),
        Err(TryLockError::Error(err)) => Err(Error::Config(format!(
            "cannot lock {}: {err}",
            path.display()
        ))),
    }
}
