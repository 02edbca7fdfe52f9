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
        let file = open(path)?;
        match file.try_lock_shared() {
            Ok(()) => Ok(InUse {
                _file: Arc::new(file),
            }),
            Err(TryLockError::WouldBlock) => Err(Error::Config(format!(
                "{} is being restored (ataxx restore): try again when it is done",
                path.display()
            ))),
            Err(TryLockError::Error(err)) => Err(locking(path, err)),
        }
    }

    /// Takes the lock on `path` alone: refused while any process has the database open.
    pub(super) fn exclusive(path: &Path) -> Result<InUse> {
        let file = open(path)?;
        match file.try_lock() {
            Ok(()) => Ok(InUse {
                _file: Arc::new(file),
            }),
            Err(TryLockError::WouldBlock) => Err(Error::Config(format!(
                "{} is open in a running server (or an ataxx command): stop it before restoring",
                path.display()
            ))),
            Err(TryLockError::Error(err)) => Err(locking(path, err)),
        }
    }
}

fn open(path: &Path) -> Result<File> {
    File::open(path).map_err(|err| Error::Config(format!("cannot open {}: {err}", path.display())))
}

fn locking(path: &Path, err: std::io::Error) -> Error {
    Error::Config(format!("cannot lock {}: {err}", path.display()))
}
