//! `ataxx loadtest`: starts `ataxx serve` on loopback with a fresh SQLite file, opens many games
//! between a pool of players, and plays random legal moves at a fixed total rate, half the games
//! over WebSocket and half over the text port. Every player listens on its WebSocket event
//! stream; latency is measured from a move being sent to the opponent's stream announcing it.
//! Reports moves/s, latency percentiles and the server's memory per game. With `--db
//! postgres://...` and `--nodes N` it starts N nodes on that database and puts player i on node
//! i mod N, so the two players of a game sit on different nodes.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use ataxx::{Move, Position};
use clap::Args as ClapArgs;
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader as AsyncBufReader};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;

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
}

type WsSink = SplitSink<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
    Message,
>;

/// A move waiting for its opponent's notification.
struct Pending {
    opponent: usize,
    ply: i64,
    sent: Instant,
    done: oneshot::Sender<Duration>,
}

struct Shared {
    names: Vec<String>,
    pending: Mutex<HashMap<i64, Pending>>,
    sinks: Vec<tokio::sync::Mutex<WsSink>>,
    texts: Vec<tokio::sync::Mutex<TextConn>>,
    errors: AtomicU64,
}

struct TextConn {
    reader: AsyncBufReader<tokio::net::tcp::OwnedReadHalf>,
    writer: tokio::net::tcp::OwnedWriteHalf,
}

impl TextConn {
    async fn connect(addr: &str) -> anyhow::Result<TextConn> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (read, writer) = stream.into_split();
        let mut conn = TextConn {
            reader: AsyncBufReader::new(read),
            writer,
        };
        conn.reply().await?;
        Ok(conn)
    }

    /// Reads one framed reply; returns its first line.
    async fn reply(&mut self) -> anyhow::Result<String> {
        let mut first = None;
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line).await? == 0 {
                bail!("text port closed");
            }
            if line.trim_end() == "." {
                return Ok(first.unwrap_or_default());
            }
            first.get_or_insert(line);
        }
    }

    async fn command(&mut self, line: &str) -> anyhow::Result<String> {
        self.writer
            .write_all(format!("{line}\r\n").as_bytes())
            .await?;
        self.reply().await
    }
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

fn spawn_server(db: &std::ffi::OsStr, sync: &str) -> anyhow::Result<Spawned> {
    let exe = std::env::current_exe().context("finding the ataxx binary")?;
    let mut child = Command::new(exe)
        .args(["serve", "--http", "127.0.0.1:0", "--text", "127.0.0.1:0"])
        .args(["--log", "warn", "--no-rate-limits", "--sync", sync, "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .spawn()
        .context("starting ataxx serve")?;
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
    let servers = (0..args.nodes)
        .map(|_| spawn_server(&db, &args.sync))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let server = &servers[0];
    let base = format!("http://{}", server.http);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let pairs = args.players / 2;
    let names: Vec<String> = (0..pairs * 2).map(|i| format!("load{i}")).collect();
    eprintln!("signing up {} players", names.len());
    let mut tokens = vec![];
    for name in &names {
        let credentials = json!({"userid": name, "password": "loadpass"});
        post(
            &agent,
            &format!("{base}/api/signup"),
            None,
            credentials.clone(),
        )?;
        let login = post(&agent, &format!("{base}/api/login"), None, credentials)?;
        tokens.push(login["token"].as_str().context("token")?.to_string());
    }
    let rss = || -> Option<u64> { servers.iter().map(|s| rss_kib(s.child.id())).sum() };
    let rss_before = rss();
    eprintln!("opening {} games", args.games);
    let mut games = vec![];
    for g in 0..args.games {
        let (x, o) = (2 * (g % pairs), 2 * (g % pairs) + 1);
        let body = json!({"opponent": names[o], "color": "x"});
        let game = post(&agent, &format!("{base}/api/games"), Some(&tokens[x]), body)?;
        let board = game["board"].as_i64().context("board")?;
        post(
            &agent,
            &format!("{base}/api/games/{board}/accept"),
            Some(&tokens[o]),
            json!({}),
        )?;
        games.push((board, x, o));
    }
    let runtime = tokio::runtime::Runtime::new()?;
    let stats = runtime.block_on(play(args, &servers, names, tokens, games))?;
    let rss_after = rss();
    let (moves, elapsed, mut latencies, errors) = stats;
    latencies.sort();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!("nodes            {}", args.nodes);
    println!("games            {}", args.games);
    println!("players          {}", names_len(args));
    println!("moves            {moves} in {:.1} s", elapsed.as_secs_f64());
    println!(
        "moves/s          {:.0} (target {})",
        moves as f64 / elapsed.as_secs_f64(),
        args.rate
    );
    println!("latency p50      {:.2} ms", pct(0.50));
    println!("latency p99      {:.2} ms", pct(0.99));
    println!("latency max      {:.2} ms", pct(1.0));
    println!("errors           {errors}");
    if let (Some(before), Some(after)) = (rss_before, rss_after) {
        println!("server RSS       {before} KiB before the games, {after} KiB after");
        println!(
            "memory per game  {:.1} KiB",
            after.saturating_sub(before) as f64 / args.games as f64
        );
    }
    Ok(())
}

fn names_len(args: &Args) -> usize {
    args.players / 2 * 2
}

type Stats = (u64, Duration, Vec<Duration>, u64);

async fn play(
    args: &Args,
    servers: &[Spawned],
    names: Vec<String>,
    tokens: Vec<String>,
    games: Vec<(i64, usize, usize)>,
) -> anyhow::Result<Stats> {
    let mut sinks = vec![];
    let mut streams = vec![];
    let mut texts = vec![];
    for (player, token) in tokens.iter().enumerate() {
        // A player's moves and stream on one node, the opponent's (player ± 1) on the next.
        let server = &servers[player % servers.len()];
        let url = format!("ws://{}/api/ws?token={token}", server.http);
        let (socket, _) = tokio_tungstenite::connect_async(url).await?;
        let (sink, stream) = socket.split();
        sinks.push(tokio::sync::Mutex::new(sink));
        streams.push(stream);
        texts.push(tokio::sync::Mutex::new(
            TextConn::connect(&server.text).await?,
        ));
    }
    // The first password check of each player runs argon2; do it before measuring.
    for (player, name) in names.iter().enumerate() {
        let reply = texts[player]
            .get_mut()
            .command(&format!("ataxx accept {name} loadpass"))
            .await?;
        if reply.starts_with("error") {
            bail!("warming up {name}: {reply}");
        }
    }
    let shared = Arc::new(Shared {
        names,
        pending: Mutex::new(HashMap::new()),
        sinks,
        texts,
        errors: AtomicU64::new(0),
    });
    for (player, mut stream) in streams.into_iter().enumerate() {
        let shared = shared.clone();
        tokio::spawn(async move {
            while let Some(Ok(message)) = stream.next().await {
                let Message::Text(text) = message else {
                    continue;
                };
                let Ok(event) = serde_json::from_str::<Value>(&text) else {
                    continue;
                };
                match event["type"].as_str() {
                    Some("moves") => {
                        let board = event["board"].as_i64().unwrap_or(0);
                        let first = event["moves"][0]["ply"].as_i64().unwrap_or(0);
                        let mut pending = shared.pending.lock().expect("pending");
                        if pending
                            .get(&board)
                            .is_some_and(|p| p.opponent == player && p.ply == first)
                        {
                            let p = pending.remove(&board).expect("present");
                            let _ = p.done.send(p.sent.elapsed());
                        }
                    }
                    Some("error") => {
                        shared.errors.fetch_add(1, Ordering::Relaxed);
                    }
                    _ => {}
                }
            }
        });
    }
    let period = Duration::from_secs_f64(games.len() as f64 / args.rate);
    let start = Instant::now();
    let end = start + Duration::from_secs(args.seconds);
    let mut tasks = vec![];
    for (index, (board, x, o)) in games.into_iter().enumerate() {
        let shared = shared.clone();
        let offset = period.mul_f64(index as f64 / args.games as f64);
        tasks.push(tokio::spawn(async move {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(board as u64);
            let mut pos = Position::startpos();
            let mut ply = 0i64;
            let mut latencies = vec![];
            let mut ticker = tokio::time::interval_at((start + offset).into(), period);
            ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            while !pos.is_game_over() {
                ticker.tick().await;
                if Instant::now() >= end {
                    break;
                }
                let (mover, opponent) = match pos.turn() {
                    ataxx::Color::X => (x, o),
                    ataxx::Color::O => (o, x),
                };
                let moves = pos.legal_moves();
                let mv = *moves.as_slice().choose(&mut rng).expect("a legal move");
                let (tx, rx) = oneshot::channel();
                let sent = Instant::now();
                shared.pending.lock().expect("pending").insert(
                    board,
                    Pending { opponent, ply: ply + 1, sent, done: tx },
                );
                let sent_ok = if index % 2 == 0 {
                    let message = json!({"type": "move", "board": board, "move": mv.to_string(), "guard": ply + 1});
                    let mut sink = shared.sinks[mover].lock().await;
                    sink.send(Message::Text(message.to_string().into())).await.is_ok()
                } else {
                    let line = format!("ataxx move {board} {} loadpass {mv}#{}", shared.names[mover], ply + 1);
                    let mut conn = shared.texts[mover].lock().await;
                    matches!(conn.command(&line).await, Ok(first) if !first.starts_with("error"))
                };
                if !sent_ok {
                    shared.errors.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                match tokio::time::timeout(Duration::from_secs(10), rx).await {
                    Ok(Ok(latency)) => latencies.push(latency),
                    _ => {
                        shared.errors.fetch_add(1, Ordering::Relaxed);
                        break;
                    }
                }
                pos.play_unchecked(mv);
                ply += 1;
                while !pos.is_game_over() && pos.must_pass() {
                    pos.play_unchecked(Move::Pass);
                    ply += 1;
                }
            }
            latencies
        }));
    }
    let mut latencies = vec![];
    for task in tasks {
        latencies.extend(task.await?);
    }
    let elapsed = start.elapsed().min(Duration::from_secs(args.seconds));
    Ok((
        latencies.len() as u64,
        elapsed,
        latencies,
        shared.errors.load(Ordering::Relaxed),
    ))
}
