//! Benchmark, not a timed test (it is ignored by default): the overhead `ataxx bot` adds to each
//! of its moves, from the engine's `bestmove` line to the move's event on the opponent's socket
//! (reading the engine, the HTTP move, the server's commit, the broadcast), on loopback.
//!
//!     cargo test -p ataxx-cli --test server -- bot_overhead:: --ignored --nocapture
//!
//! The engine is `ataxx uai` behind a small pass-through that stamps each `bestmove` line with
//! the wall clock as it forwards it; the opponent stamps the events as they arrive. Both run on
//! one machine, so their clocks are the same clock. Samples: BOT_BENCH_MOVES (default 200); the
//! build measured: BOT_BENCH_BINARY (default the test profile's `ataxx`), e.g.
//!
//!     CARGO_PROFILE_RELEASE_LTO=off cargo build --release -p ataxx-cli
//!     BOT_BENCH_BINARY=$PWD/target/release/ataxx BOT_BENCH_MOVES=400 \
//!         cargo test -p ataxx-cli --test server -- bot_overhead:: --ignored --nocapture

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::json;

use crate::common::persons_move::persons_move;
use crate::common::served;
use crate::common::served::{api, next_where_within, signup_and_login, socket, Served};

/// Forwards stdin to the engine and the engine's lines back, writing `<ns> <move>` to the stamp
/// file for every `bestmove` just before forwarding it.
const STAMPING_PASS_THROUGH: &str = r#"
import subprocess, sys, threading, time
stamps = open(sys.argv[1], "a", buffering=1)
engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def forward_input():
    for line in sys.stdin:
        engine.stdin.write(line)
        engine.stdin.flush()
    engine.stdin.close()
threading.Thread(target=forward_input, daemon=True).start()
for line in engine.stdout:
    if line.startswith("bestmove"):
        stamps.write("%d %s\n" % (time.time_ns(), line.split()[1]))
    sys.stdout.write(line)
    sys.stdout.flush()
"#;

fn now_ns() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos() as i64
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: run with --ignored --nocapture"]
async fn bot_overhead_per_move() {
    let wanted: usize = std::env::var("BOT_BENCH_MOVES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    // The build measured: the test profile's binary unless BOT_BENCH_BINARY names another
    // (e.g. target/release/ataxx); it runs the server, the bot and the engine.
    let binary = std::env::var_os("BOT_BENCH_BINARY")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_ataxx")));
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh_from(&binary, &dir, &[]);
    signup_and_login(&server, "benchbot", "botpass1");
    let person = signup_and_login(&server, "person", "secret12");
    let script = dir.path().join("stamp.py");
    std::fs::write(&script, STAMPING_PASS_THROUGH).unwrap();
    let stamps = dir.path().join("stamps");
    let mut bot = Command::new(&binary)
        .args(["bot", "--server", &server.url(""), "--user", "benchbot"])
        .args(["--password", "botpass1", "--movetime", "5", "--log", "warn"])
        .arg("--")
        .arg("python3")
        .arg(&script)
        .arg(&stamps)
        .arg(&binary)
        .arg("uai")
        .stdout(Stdio::null())
        .spawn()
        .expect("ataxx bot starts");
    served::poll(&server, "/api/users/benchbot", 30, |u| u["bot"] == "uai");

    let mut page = socket(&server.ws(&format!("/api/ws?token={person}"))).await;
    // (move, arrival) of each bot move, in order.
    let mut seen: Vec<(String, i64)> = vec![];
    while seen.len() < wanted {
        let (status, game) = api(
            "POST",
            &server.url("/api/games"),
            Some(&person),
            Some(json!({"opponents": ["benchbot"], "color": "o", "options": {}})),
        );
        assert_eq!(status, 201, "{game}");
        let board = game["board"].as_i64().unwrap();
        loop {
            let event = next_where_within(&mut page, 30, |v| {
                v["board"] == board && (v["type"] == "moves" || v["type"] == "ended")
            })
            .await;
            let arrived = now_ns();
            if event["type"] == "ended" {
                break;
            }
            for m in event["moves"].as_array().unwrap() {
                if m["seat"] == 0 && m["auto"] == false {
                    seen.push((m["move"].as_str().unwrap().to_string(), arrived));
                }
            }
            let summary = &event["game"];
            if summary["status"] != "active" || summary["to_move"] != "person" {
                continue;
            }
            let (_, full) = api(
                "GET",
                &server.url(&format!("/api/games/{board}")),
                None,
                None,
            );
            let (status, reply) = api(
                "POST",
                &server.url(&format!("/api/games/{board}/move")),
                Some(&person),
                Some(
                    json!({"move": persons_move(&full), "guard": full["ply"].as_i64().unwrap() + 1}),
                ),
            );
            assert_eq!(status, 200, "{reply}");
        }
    }
    let _ = bot.kill();
    let _ = bot.wait();

    let stamped: Vec<(String, i64)> = std::fs::read_to_string(&stamps)
        .unwrap()
        .lines()
        .map(|line| {
            let (ns, mv) = line.split_once(' ').unwrap();
            (mv.to_string(), ns.parse().unwrap())
        })
        .collect();
    let mut overhead_ms: Vec<f64> = stamped
        .iter()
        .zip(&seen)
        .map(|((engine_move, answered), (played, arrived))| {
            assert_eq!(
                engine_move, played,
                "the engine's answers and the moves seen pair up"
            );
            (arrived - answered) as f64 / 1e6
        })
        .collect();
    overhead_ms.sort_by(f64::total_cmp);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "ataxx bot overhead per move ({}) over {} moves: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms (load average {})",
        binary.display(),
        overhead_ms.len(),
        percentile(&overhead_ms, 0.5),
        percentile(&overhead_ms, 0.9),
        percentile(&overhead_ms, 0.99),
        overhead_ms.last().unwrap(),
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
}
