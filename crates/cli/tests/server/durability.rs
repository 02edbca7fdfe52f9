//! Issue #28, finding 1: a move the server answered is in the database, whatever happens to the
//! commit. Two games of failure, each through a real `ataxx serve` and real sockets:
//! - SQLite on a filesystem that fills up (a small tmpfs the test mounts, then fills): writes
//!   fail while it is full, and once space returns the server plays on by itself;
//! - PostgreSQL with the server's connections killed again and again while it plays.
//!
//! Either way, every move answered 200 is in the board's record, on the live server and after a
//! restart, and no failed write is answered 200. And the SQLite WAL stays small under play.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::database;
use crate::common::persons_move::persons_move;
use crate::common::served::{api, signup_and_login, Served};
use crate::common::table::start_game;

/// Two players and the boards they play on, with every move the server answered 200.
struct Boards {
    tokens: HashMap<String, String>,
    /// Each board's last known summary.
    games: Vec<Value>,
    /// (board, ply, move) of every move answered 200.
    acknowledged: Vec<(i64, i64, String)>,
    /// Statuses of the moves that were refused (5xx when a write failed).
    failures: Vec<u16>,
}

impl Boards {
    fn new(server: &Served, boards: usize) -> Boards {
        let mut tokens = HashMap::new();
        for (name, password) in [("alice", "secret-1"), ("bob", "secret-2")] {
            tokens.insert(name.to_string(), signup_and_login(server, name, password));
        }
        let bob = [("bob", tokens["bob"].as_str())];
        let games = (0..boards)
            .map(|_| start_game(server, &tokens["alice"], &bob, json!({"color": "x"})).1)
            .collect();
        Boards {
            tokens,
            games,
            acknowledged: vec![],
            failures: vec![],
        }
    }

    /// One move on every board still in play; returns how many were answered 200.
    fn round(&mut self, server: &Served) -> usize {
        let mut answered = 0;
        for game in &mut self.games {
            if game["status"] != "active" {
                continue;
            }
            let board = game["board"].as_i64().unwrap();
            let ply = game["ply"].as_i64().unwrap() + 1;
            let mv = persons_move(game);
            let token = &self.tokens[game["to_move"].as_str().unwrap()];
            let (status, reply) = api(
                "POST",
                &server.url(&format!("/api/games/{board}/move")),
                Some(token),
                Some(json!({"move": mv, "guard": ply})),
            );
            if status == 200 {
                answered += 1;
                self.acknowledged.push((board, ply, mv));
                *game = reply;
                continue;
            }
            assert!(
                status >= 500 || reply["error"]["code"] == "stale_move_number",
                "a legal move is refused only when the server cannot write it: {status} {reply}"
            );
            self.failures.push(status);
            // The board as the database has it (reads may fail too while writes do).
            let (status, view) = api(
                "GET",
                &server.url(&format!("/api/games/{board}")),
                None,
                None,
            );
            if status == 200 {
                *game = view;
            }
        }
        answered
    }

    /// Plays rounds until every board in play has taken a move, for at most `secs` seconds.
    fn until_every_board_moves(&mut self, server: &Served, secs: u64) {
        let deadline = Instant::now() + Duration::from_secs(secs);
        let in_play = |table: &Boards| {
            table
                .games
                .iter()
                .filter(|g| g["status"] == "active")
                .count()
        };
        while self.round(server) < in_play(self) {
            assert!(
                Instant::now() < deadline,
                "the server has not recovered within {secs} s: {:?} refusals",
                self.failures.len()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Asserts that every acknowledged move is in its board's record, at its ply.
    fn assert_all_recorded(&self, server: &Served, when: &str) {
        let mut plies: HashMap<i64, i64> = HashMap::new();
        for game in &self.games {
            let board = game["board"].as_i64().unwrap();
            let (status, view) = api(
                "GET",
                &server.url(&format!("/api/games/{board}")),
                None,
                None,
            );
            assert_eq!(status, 200, "{view}");
            let recorded: HashMap<i64, String> = view["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m["ply"].as_i64().unwrap(),
                        m["move"].as_str().unwrap().into(),
                    )
                })
                .collect();
            for (b, ply, mv) in self.acknowledged.iter().filter(|(b, ..)| *b == board) {
                assert_eq!(
                    recorded.get(ply),
                    Some(mv),
                    "{when}: board {b} answered {mv} at ply {ply} but its record has {} plies",
                    view["ply"]
                );
            }
            plies.insert(board, view["ply"].as_i64().unwrap());
        }
        eprintln!(
            "{when}: {} acknowledged moves all recorded; plies {plies:?}",
            self.acknowledged.len()
        );
    }
}

/// A tmpfs of `mib` MiB mounted on a fresh directory, unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    /// None where mounting is not allowed (not root, no mount namespace); CI runs as root.
    fn mount(mib: u32) -> Option<SmallDisk> {
        let dir = tempfile::tempdir().unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={mib}m"), "tmpfs"])
            .arg(dir.path())
            .status()
            .is_ok_and(|s| s.success());
        mounted.then_some(SmallDisk { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a file until the filesystem refuses more, then gives `headroom` bytes back, so
    /// that writes succeed for a while before they fail; returns the file.
    fn fill(&self, headroom: u64) -> PathBuf {
        use std::io::Write;
        let filler = self.path().join("filler");
        let mut file = std::fs::File::create(&filler).unwrap();
        let block = vec![0xa5u8; 4096];
        while file.write_all(&block).and_then(|()| file.flush()).is_ok() {}
        let full = file.metadata().unwrap().len();
        file.set_len(full.saturating_sub(headroom)).unwrap();
        filler
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}

#[test]
fn a_full_disk_never_loses_an_answered_move_and_the_server_recovers_when_space_returns() {
    let Some(disk) = SmallDisk::mount(8) else {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "CI runs as root and must mount the tmpfs"
        );
        eprintln!("NOTICE: full-disk test skipped: cannot mount a tmpfs (not root?)");
        return;
    };
    if database::postgres_server().is_some() {
        // The PostgreSQL half of the suite: its own test below kills connections instead.
        return;
    }
    let db = disk.path().join("ataxx.db");
    let mut server = Served::start(&db, &["--no-rate-limits"]);
    let mut table = Boards::new(&server, 6);
    table.until_every_board_moves(&server, 5);

    // The disk fills up as the games go on: moves are sent until writes have failed for a while.
    let filler = disk.fill(256 * 1024);
    let deadline = Instant::now() + Duration::from_secs(40);
    // Not ready while writes fail (issue #50: it answered ready), and why, without the files.
    let mut unready = None;
    while table.failures.len() < 60 && Instant::now() < deadline {
        let failures = table.failures.len();
        table.round(&server);
        if table.failures.len() > failures && unready.is_none() {
            let (status, ready) = api("GET", &server.url("/readyz"), None, None);
            unready = (status == 503).then_some(ready);
        }
    }
    assert!(
        table.failures.len() >= 60,
        "the full disk never made a write fail ({} moves answered)",
        table.acknowledged.len()
    );
    table.assert_all_recorded(&server, "disk full");
    let unready = unready.expect("/readyz answered 503 while writes failed");
    assert_eq!(
        unready["reason"], "writes to the database fail",
        "{unready}"
    );

    // Space returns: the server plays on by itself, and nothing answered is missing.
    std::fs::remove_file(filler).unwrap();
    table.until_every_board_moves(&server, 20);
    let (status, ready) = api("GET", &server.url("/readyz"), None, None);
    assert_eq!(status, 200, "{ready}");
    for _ in 0..10 {
        table.until_every_board_moves(&server, 5);
    }
    table.assert_all_recorded(&server, "space back");

    server.kill();
    let server = Served::start(&db, &["--no-rate-limits"]);
    table.assert_all_recorded(&server, "after a restart");
}

/// The SQLite WAL stays bounded while games are played and watched (issue #50: readers always
/// holding a snapshot kept SQLite from starting it over, and it only grew: 55 MB for a 643 KB
/// database).
#[test]
fn the_sqlite_wal_stays_small_while_games_are_played_and_watched() {
    if database::postgres_server().is_some() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ataxx.db");
    let server = Served::start(&db, &["--no-rate-limits"]);
    let mut table = Boards::new(&server, 24);
    let boards: Vec<i64> = table
        .games
        .iter()
        .map(|g| g["board"].as_i64().unwrap())
        .collect();
    let watching = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    // Watchers read the boards without a pause, so some read is always open.
    let watchers: Vec<_> = (0..2)
        .map(|_| {
            let (url, boards, watching) = (server.url(""), boards.clone(), watching.clone());
            std::thread::spawn(move || {
                while watching.load(std::sync::atomic::Ordering::Relaxed) {
                    for board in &boards {
                        api("GET", &format!("{url}/api/games/{board}"), None, None);
                    }
                }
            })
        })
        .collect();
    let wal = dir.path().join("ataxx.db-wal");
    let mut largest = 0;
    while table.acknowledged.len() < 2_000 && table.round(&server) > 0 {
        largest = largest.max(std::fs::metadata(&wal).map_or(0, |m| m.len()));
    }
    watching.store(false, std::sync::atomic::Ordering::Relaxed);
    for watcher in watchers {
        watcher.join().unwrap();
    }
    let database = std::fs::metadata(&db).unwrap().len();
    eprintln!(
        "{} moves: the WAL at most {largest} bytes, the database {database}",
        table.acknowledged.len()
    );
    assert!(
        table.acknowledged.len() >= 1_500,
        "{}",
        table.acknowledged.len()
    );
    // The truncating checkpoint starts past 4 MiB, checked four times a second; a second of
    // this play adds about 2 MiB (without the fix the WAL reached 13.2 MB here).
    assert!(largest < 8 << 20, "the WAL grew to {largest} bytes");
}

#[test]
fn postgres_connections_killed_mid_play_never_lose_an_answered_move() {
    let Some(pg) = database::postgres_server() else {
        eprintln!("NOTICE: killed-connection test skipped: ATAXX_TEST_POSTGRES is not set");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let url = database::postgres_database(&pg, &dir.path().join("killed"));
    let name = url.rsplit('/').next().unwrap().to_string();
    let mut server = Served::on_database(&url, &["--no-rate-limits"]);
    let mut table = Boards::new(&server, 6);

    // A second thread kills every connection of the server's database, over and over.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let killer = {
        let stop = stop.clone();
        let admin = format!("{pg}/postgres");
        std::thread::spawn(move || {
            let mut killed = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let out = Command::new("psql")
                    .args([&admin, "-XAtq", "-c"])
                    .arg(format!(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                         WHERE datname = '{name}' AND pid <> pg_backend_pid()"
                    ))
                    .output()
                    .expect("psql runs (scripts/postgres.sh installs PostgreSQL)");
                killed += String::from_utf8_lossy(&out.stdout)
                    .trim()
                    .parse::<u32>()
                    .unwrap_or(0);
                std::thread::sleep(Duration::from_millis(30));
            }
            killed
        })
    };
    let deadline = Instant::now() + Duration::from_secs(8);
    while Instant::now() < deadline {
        table.round(&server);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let killed = killer.join().unwrap();
    assert!(killed > 0, "no connection was killed");
    eprintln!(
        "killed {killed} connections; {} moves answered, {} refused",
        table.acknowledged.len(),
        table.failures.len()
    );

    table.until_every_board_moves(&server, 20);
    table.assert_all_recorded(&server, "after the kills");
    server.kill();
    let server = Served::on_database(&url, &["--no-rate-limits"]);
    table.assert_all_recorded(&server, "after a restart");
}
