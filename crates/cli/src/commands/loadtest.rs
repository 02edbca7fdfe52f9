//! `ataxx loadtest`: starts `ataxx serve` on loopback with a fresh SQLite file, opens many games
//! between a pool of players, and plays random legal moves at a fixed total rate, half the games
//! over WebSocket and half over the text port. Every player listens on its WebSocket event
//! stream; latency is measured from a move being sent to the opponent's stream announcing it.
//! Reports moves/s, latency percentiles and the server's memory per game. With `--db
//! postgres://...` and `--nodes N` it starts N nodes on that database and puts player i on node
//! i mod N, so the two players of a game sit on different nodes. `--kill-node-after S` kills the
//! last node with SIGKILL S seconds in: its players reconnect to a survivor, their games resync
//! from the board's record, and at the end every move the server confirmed is looked up in the
//! record; those missing are reported as `lost`. A refused move (the database away during a
//! restart) is counted as an error, and its game resynchronises from the record and goes on. At
//! the end every player's stream must have announced its game's last recorded ply: those that
//! did not are reported as `sockets behind`. `--spectators N` opens N anonymous sockets on the
//! first game before play starts, as a TV crowd: it reports what an idle socket costs the server
//! and, against a run without them, whether one game's crowd slows the others. `--analyses N`
//! sends N finished games of 100 plies for analysis just before the run, so that the server's
//! analysis worker searches while the moves are measured, and reports when each was done.

mod analyses;
mod crowd;
mod play;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use serde_json::{json, Value};

#[derive(ClapArgs)]
pub struct Args {
    /// Concurrent games.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Accounts sharing the games (pairs play games/(players/2) games each).
    #[arg(long, default_value_t = 100)]
    players: usize,
    /// Moves per second over all games.
    #[arg(long, default_value_t = 500.0)]
    rate: f64,
    /// How long to play, in seconds.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// The server's --sync: full (commits on disk before answers) or normal.
    #[arg(long, default_value = "full", value_parser = ["full", "normal"])]
    sync: String,
    /// The database the nodes share (a `postgres://` URL); default a fresh SQLite file.
    #[arg(long)]
    db: Option<String>,
    /// Server nodes to start (more than one needs `--db postgres://...`).
    #[arg(long, default_value_t = 1)]
    nodes: usize,
    /// Kill the last node with SIGKILL this many seconds into the run (needs --nodes 2 or more).
    #[arg(long, value_name = "S")]
    kill_node_after: Option<u64>,
    /// Anonymous sockets watching the first game (on the first node) while the games are played.
    #[arg(long, default_value_t = 0, value_name = "N")]
    spectators: usize,
    /// The `ataxx` binary to run as the server, e.g. an older build, so that one load generator
    /// measures both (default: this binary).
    #[arg(long, value_name = "PATH")]
    server_bin: Option<std::path::PathBuf>,
    /// Finished games of 100 plies sent for analysis just before the run (the server analyses
    /// them while the moves are measured).
    #[arg(long, default_value_t = 0, value_name = "N")]
    analyses: usize,
}

/// The server process and the addresses it printed.
struct Spawned {
    child: Child,
    http: String,
    text: String,
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn_server(args: &Args, db: &std::ffi::OsStr) -> anyhow::Result<Spawned> {
    let exe = match &args.server_bin {
        Some(path) => path.clone(),
        None => std::env::current_exe().context("finding the ataxx binary")?,
    };
    let mut child = Command::new(&exe)
        .args(["serve", "--http", "127.0.0.1:0", "--text", "127.0.0.1:0"])
        .args([
            "--log",
            "warn",
            "--no-rate-limits",
            "--sync",
            &args.sync,
            "--db",
        ])
        .arg(db)
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting {} serve", exe.display()))?;
    let mut lines = BufReader::new(child.stdout.take().expect("piped")).lines();
    let mut next = |door: &str| -> anyhow::Result<String> {
        let line = lines.next().context("the server stopped")??;
        line.strip_prefix(door)
            .map(str::to_string)
            .with_context(|| format!("unexpected server output {line:?}"))
    };
    let http = next("http ")?;
    let text = next("text ")?;
    Ok(Spawned { child, http, text })
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn post(agent: &ureq::Agent, url: &str, token: Option<&str>, body: Value) -> anyhow::Result<Value> {
    let mut request = agent.post(url).header("Content-Type", "application/json");
    if let Some(token) = token {
        request = request.header("Authorization", &format!("Bearer {token}"));
    }
    let mut response = request.send(body.to_string())?;
    let status = response.status();
    let text = response.body_mut().read_to_string()?;
    if !status.is_success() {
        bail!("{url}: {status} {text}");
    }
    Ok(serde_json::from_str(&text)?)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.players < 2 || args.games == 0 || args.rate <= 0.0 {
        bail!("need at least 2 players, 1 game and a positive rate");
    }
    if args.nodes == 0 || (args.nodes > 1 && !args.db.as_deref().is_some_and(is_postgres)) {
        bail!("--nodes must be 1, or more with --db postgres://...");
    }
    if args
        .kill_node_after
        .is_some_and(|s| args.nodes < 2 || s >= args.seconds)
    {
        bail!("--kill-node-after needs --nodes 2 or more and fewer seconds than --seconds");
    }
    let dir = std::env::temp_dir().join(format!("ataxx-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let result = load(&args, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

fn load(args: &Args, dir: &std::path::Path) -> anyhow::Result<()> {
    let db: std::ffi::OsString = match &args.db {
        Some(url) => url.into(),
        None => dir.join("load.db").into(),
    };
    // One after the other: the first creates the database and the bot accounts.
    let mut servers = (0..args.nodes)
        .map(|_| spawn_server(args, &db))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let base = format!("http://{}", servers[0].http);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let names: Vec<String> = (0..names_len(args)).map(|i| format!("load{i}")).collect();
    let tokens = sign_up(&agent, &base, &names)?;
    let rss_before: Option<u64> = servers.iter().map(|s| rss_kib(s.child.id())).sum();
    let games = open_games(&agent, &base, &names, &tokens, args.games)?;
    let runtime = tokio::runtime::Runtime::new()?;
    let audience = match args.spectators {
        0 => None,
        count => Some(Audience::gather(&runtime, &servers[0], games[0].0, count)?),
    };
    let queued = match args.analyses {
        0 => None,
        count => {
            eprintln!(
                "playing {count} games of {} plies to analyse",
                analyses::PLIES
            );
            let queued = analyses::prepare(&agent, &base, &names, &tokens, count)?;
            Some(queued.watch(&agent, &base, std::time::Duration::from_secs(900)))
        }
    };
    let mut stats = runtime.block_on(play::play(args, &mut servers, names, tokens, games))?;

    // The survivors' memory (a killed node has none to show).
    let rss_after: Option<u64> = match args.kill_node_after {
        None => servers.iter().map(|s| rss_kib(s.child.id())).sum(),
        Some(_) => None,
    };
    if let Some(watch) = queued {
        watch.report(&agent, &base)?;
    }
    print_report(
        args,
        &mut stats,
        audience.as_ref(),
        rss_before.zip(rss_after),
    );
    Ok(())
}

/// Signs up and logs in every player; their session tokens, in the same order.
fn sign_up(agent: &ureq::Agent, base: &str, names: &[String]) -> anyhow::Result<Vec<String>> {
    eprintln!("signing up {} players", names.len());
    let mut tokens = vec![];
    for name in names {
        let credentials = json!({"userid": name, "password": "loadpass"});
        post(
            agent,
            &format!("{base}/api/signup"),
            None,
            credentials.clone(),
        )?;
        let login = post(agent, &format!("{base}/api/login"), None, credentials)?;
        tokens.push(login["token"].as_str().context("token")?.to_string());
    }
    Ok(tokens)
}

/// Opens `count` games, game g between the players of pair g mod pairs (x the first): each
/// game's board and its x and o player indices.
fn open_games(
    agent: &ureq::Agent,
    base: &str,
    names: &[String],
    tokens: &[String],
    count: usize,
) -> anyhow::Result<Vec<(i64, usize, usize)>> {
    eprintln!("opening {count} games");
    let pairs = names.len() / 2;
    let mut games = vec![];
    for g in 0..count {
        let (x, o) = (2 * (g % pairs), 2 * (g % pairs) + 1);
        let body = json!({"opponent": names[o], "color": "x"});
        let game = post(agent, &format!("{base}/api/games"), Some(&tokens[x]), body)?;
        let board = game["board"].as_i64().context("board")?;
        post(
            agent,
            &format!("{base}/api/games/{board}/accept"),
            Some(&tokens[o]),
            json!({}),
        )?;
        games.push((board, x, o));
    }
    Ok(games)
}

/// The spectator sockets on one board, open until dropped, and the server's memory before
/// and after they opened.
struct Audience {
    crowd: crowd::Crowd,
    board: i64,
    rss_before: Option<u64>,
    rss_after: Option<u64>,
}

impl Audience {
    fn gather(
        runtime: &tokio::runtime::Runtime,
        server: &Spawned,
        board: i64,
        count: usize,
    ) -> anyhow::Result<Audience> {
        eprintln!("opening {count} spectator sockets on board {board}");
        let rss_before = rss_kib(server.child.id());
        let crowd = runtime.block_on(crowd::Crowd::gather(&server.http, board, count))?;
        // Each socket's greeting sent and its buffers settled.
        std::thread::sleep(std::time::Duration::from_secs(2));
        Ok(Audience {
            crowd,
            board,
            rss_before,
            rss_after: rss_kib(server.child.id()),
        })
    }
}

/// Prints the run's figures; `rss` is the servers' memory before the games and after them,
/// where every node could be measured both times.
fn print_report(
    args: &Args,
    stats: &mut play::Stats,
    audience: Option<&Audience>,
    rss: Option<(u64, u64)>,
) {
    let latencies = &mut stats.latencies;
    latencies.sort();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    let elapsed = stats.elapsed.as_secs_f64();
    println!("nodes            {}", args.nodes);
    println!("games            {}", args.games);
    println!("players          {}", names_len(args));
    println!("moves            {} in {elapsed:.1} s", stats.moves);
    println!(
        "moves/s          {:.0} (target {})",
        stats.moves as f64 / elapsed,
        args.rate
    );
    println!("latency p50      {:.2} ms", pct(0.50));
    println!("latency p99      {:.2} ms", pct(0.99));
    println!("latency max      {:.2} ms", pct(1.0));
    if let Some(after) = args.kill_node_after {
        println!("killed node {} after {after} s", args.nodes);
        println!("reconnected      {} players", stats.reconnected);
        println!("interrupted      {} moves", stats.interrupted);
        println!("after the kill   {} moves confirmed", stats.after_kill);
    }
    println!("acknowledged     {} moves", stats.acknowledged);
    println!("errors           {}", stats.errors);
    println!("lost             {}", stats.lost);
    println!("sockets behind   {} of {}", stats.behind, 2 * args.games);
    let mut crowd_kib = 0;
    if let Some(Audience {
        crowd,
        board,
        rss_before: Some(before),
        rss_after: Some(after),
    }) = audience
    {
        crowd_kib = after.saturating_sub(*before);
        println!(
            "spectators       {} on board {board}, {} open at the end, {} messages received",
            args.spectators,
            crowd.open(),
            crowd.received()
        );
        println!(
            "memory per idle socket {:.1} KiB",
            crowd_kib as f64 / args.spectators as f64
        );
    }
    if let Some((before, after)) = rss {
        println!("server RSS       {before} KiB before the games, {after} KiB after");
        println!(
            "memory per game  {:.1} KiB",
            after.saturating_sub(before + crowd_kib) as f64 / args.games as f64
        );
    }
}

fn names_len(args: &Args) -> usize {
    args.players / 2 * 2
}
