//! The games of a load run: every game a task that moves at its pace, every player a WebSocket
//! event stream and a text connection on its node. With a node killed mid-run, the players of
//! that node reconnect to a survivor and their games resynchronise from the server's record of
//! the board (its ply and position) before they go on.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use ataxx::{Move, Position};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader as AsyncBufReader};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;

use super::{Args, Spawned};

type WebSocket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;
type WsSink = SplitSink<WebSocket, Message>;
type WsStream = SplitStream<WebSocket>;

/// How long a move waits for the opponent's notification before its game resynchronises.
const NOTIFIED_WITHIN: Duration = Duration::from_secs(10);

/// What a run measured.
pub struct Stats {
    pub moves: u64,
    pub elapsed: Duration,
    pub latencies: Vec<Duration>,
    /// Commands the server refused, and moves neither announced nor recorded.
    pub errors: u64,
    /// Moves the server confirmed (a text reply, a socket `ack` or the opponent's event).
    pub acknowledged: u64,
    /// Confirmed moves missing from the record at the end.
    pub lost: u64,
    /// Moves cut off by the killed node (sent, never confirmed).
    pub interrupted: u64,
    /// Players moved to a surviving node.
    pub reconnected: u64,
    /// Moves confirmed after the kill.
    pub after_kill: u64,
    /// Player streams (two per game) that had not seen their game's last recorded ply a while
    /// after the last move.
    pub behind: u64,
}

/// A move waiting for its opponent's notification.
struct Pending {
    opponent: usize,
    ply: i64,
    sent: Instant,
    done: oneshot::Sender<Duration>,
}

struct Node {
    http: String,
    text: String,
    alive: AtomicBool,
}

struct Player {
    name: String,
    token: String,
    /// The node it is connected to.
    node: AtomicUsize,
    sink: tokio::sync::Mutex<Option<WsSink>>,
    text: tokio::sync::Mutex<Option<TextConn>>,
    /// Held while moving to another node.
    moving: tokio::sync::Mutex<()>,
}

struct Shared {
    nodes: Vec<Node>,
    players: Vec<Player>,
    pending: Mutex<HashMap<i64, Pending>>,
    /// The highest ply each board's mover got a socket `ack` for.
    acks: Mutex<HashMap<i64, i64>>,
    /// The highest ply each (player, board) stream has announced.
    seen: Mutex<HashMap<(usize, i64), i64>>,
    killed_at: Mutex<Option<Instant>>,
    errors: AtomicU64,
    interrupted: AtomicU64,
    reconnected: AtomicU64,
    agent: ureq::Agent,
}

pub struct TextConn {
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

impl Shared {
    fn survivor(&self) -> usize {
        self.nodes
            .iter()
            .position(|n| n.alive.load(Ordering::SeqCst))
            .expect("one node survives")
    }

    /// The node a player should use: its own, or a survivor once its own is dead.
    fn node_of(&self, player: usize) -> usize {
        let node = self.players[player].node.load(Ordering::SeqCst);
        match self.nodes[node].alive.load(Ordering::SeqCst) {
            true => node,
            false => self.survivor(),
        }
    }

    async fn open_socket(&self, player: usize, node: usize) -> anyhow::Result<WsStream> {
        let url = format!(
            "ws://{}/api/ws?token={}",
            self.nodes[node].http, self.players[player].token
        );
        let (socket, _) = tokio_tungstenite::connect_async(url).await?;
        let (sink, stream) = socket.split();
        *self.players[player].sink.lock().await = Some(sink);
        self.players[player].node.store(node, Ordering::SeqCst);
        Ok(stream)
    }

    /// Moves a player whose node died to a survivor: a new event stream, a new text connection.
    /// Tries again for up to a minute while the survivor refuses (its database away), as a
    /// browser does.
    async fn reconnect(&self, player: usize) -> anyhow::Result<WsStream> {
        let _moving = self.players[player].moving.lock().await;
        let node = self.survivor();
        *self.players[player].text.lock().await = None;
        let mut tries = 0;
        let stream = loop {
            match self.open_socket(player, node).await {
                Err(_) if tries < 120 => tokio::time::sleep(Duration::from_millis(500)).await,
                opened => break opened?,
            }
            tries += 1;
        };
        self.reconnected.fetch_add(1, Ordering::Relaxed);
        Ok(stream)
    }

    /// Sends a text command through the player's connection (opened on its node if needed);
    /// None when the connection failed.
    async fn text_command(&self, player: usize, line: &str) -> Option<String> {
        let mut text = self.players[player].text.lock().await;
        if text.is_none() {
            *text = TextConn::connect(&self.nodes[self.node_of(player)].text)
                .await
                .ok();
        }
        let reply = text.as_mut()?.command(line).await.ok();
        if reply.is_none() {
            *text = None;
        }
        reply
    }

    /// Sends a socket message; false when the socket is gone.
    async fn socket_send(&self, player: usize, message: Value) -> bool {
        let mut sink = self.players[player].sink.lock().await;
        match sink.as_mut() {
            Some(sink) => sink
                .send(Message::Text(message.to_string().into()))
                .await
                .is_ok(),
            None => false,
        }
    }

    /// A board as a surviving node records it, asked again for up to a minute while the
    /// database is away (a restart).
    async fn record(self: &Arc<Self>, board: i64) -> anyhow::Result<Value> {
        let mut tries = 0;
        loop {
            match self.record_once(board).await {
                Err(_) if tries < 120 => tokio::time::sleep(Duration::from_millis(500)).await,
                done => return done,
            }
            tries += 1;
        }
    }

    /// A board as a surviving node records it (blocking HTTP, off the runtime's threads).
    async fn record_once(self: &Arc<Self>, board: i64) -> anyhow::Result<Value> {
        let shared = self.clone();
        tokio::task::spawn_blocking(move || {
            let url = format!(
                "http://{}/api/games/{board}",
                shared.nodes[shared.survivor()].http
            );
            let mut response = shared.agent.get(&url).call()?;
            let text = response.body_mut().read_to_string()?;
            if !response.status().is_success() {
                bail!("{url}: {} {text}", response.status());
            }
            Ok(serde_json::from_str(&text)?)
        })
        .await?
    }

    fn after_kill(&self, at: Instant) -> bool {
        self.killed_at
            .lock()
            .expect("kill time")
            .is_some_and(|killed| at >= killed)
    }
}

/// Reads a player's events: latencies for the moves it waits on, `ack`s, and errors. When its
/// node dies it reconnects to a survivor and reads on.
async fn read_events(shared: Arc<Shared>, player: usize, mut stream: WsStream) {
    loop {
        while let Some(Ok(message)) = stream.next().await {
            let Message::Text(text) = message else {
                continue;
            };
            let Ok(event) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            let board = event["board"].as_i64().unwrap_or(0);
            if let Some(ply) = event["ply"].as_i64() {
                let mut seen = shared.seen.lock().expect("seen");
                let seen = seen.entry((player, board)).or_default();
                *seen = (*seen).max(ply);
            }
            match event["type"].as_str() {
                Some("moves") => {
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
                Some("ack") => {
                    let ply = event["ply"].as_i64().unwrap_or(0);
                    let mut acks = shared.acks.lock().expect("acks");
                    let acked = acks.entry(board).or_default();
                    *acked = (*acked).max(ply);
                }
                Some("error") => {
                    shared.errors.fetch_add(1, Ordering::Relaxed);
                }
                _ => {}
            }
        }
        let node = shared.players[player].node.load(Ordering::SeqCst);
        if shared.nodes[node].alive.load(Ordering::SeqCst) {
            return;
        }
        match shared.reconnect(player).await {
            Ok(next) => stream = next,
            Err(err) => {
                eprintln!("{} cannot reconnect: {err}", shared.players[player].name);
                shared.errors.fetch_add(1, Ordering::Relaxed);
                return;
            }
        }
    }
}

/// One game's moves: sent, confirmed, and the moves the server confirmed, by ply.
struct GameRun {
    latencies: Vec<Duration>,
    confirmed: Vec<(i64, String)>,
    after_kill: u64,
}

/// Plays one game until it ends or the run does.
async fn play_game(
    shared: Arc<Shared>,
    (board, x, o): (i64, usize, usize),
    over_socket: bool,
    mut ticker: tokio::time::Interval,
    end: Instant,
) -> GameRun {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(board as u64);
    let mut pos = Position::startpos();
    let mut ply = 0i64;
    let mut run = GameRun {
        latencies: vec![],
        confirmed: vec![],
        after_kill: 0,
    };
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
        let guard = ply + 1;
        shared.pending.lock().expect("pending").insert(
            board,
            Pending {
                opponent,
                ply: guard,
                sent,
                done: tx,
            },
        );
        let replied = if over_socket {
            let message = json!({"type": "move", "id": guard, "board": board, "move": mv.to_string(), "guard": guard});
            shared.socket_send(mover, message).await.then_some(true)
        } else {
            let line = format!(
                "ataxx move {board} {} loadpass {mv}#{guard}",
                shared.players[mover].name
            );
            shared
                .text_command(mover, &line)
                .await
                .map(|reply| !reply.starts_with("error"))
        };
        let latency = match replied {
            Some(true) => match tokio::time::timeout(NOTIFIED_WITHIN, rx).await {
                Ok(Ok(latency)) => Some(latency),
                _ => None,
            },
            // Refused (the database away, say): resynchronise from the record and go on.
            Some(false) => {
                shared.errors.fetch_add(1, Ordering::Relaxed);
                None
            }
            // The connection is gone: give the player a moment to move to a survivor.
            None => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                None
            }
        };
        shared.pending.lock().expect("pending").remove(&board);
        let acked = shared.acks.lock().expect("acks").get(&board) >= Some(&guard);
        let confirmed = latency.is_some() || acked || replied == Some(true) && !over_socket;
        if confirmed {
            run.confirmed.push((guard, mv.to_string()));
            if shared.after_kill(Instant::now()) {
                run.after_kill += 1;
            }
        }
        if let Some(latency) = latency {
            run.latencies.push(latency);
            pos.play_unchecked(mv);
            ply += 1;
            while !pos.is_game_over() && pos.must_pass() {
                pos.play_unchecked(Move::Pass);
                ply += 1;
            }
            continue;
        }
        // Not announced: the move went to or through a node that died (or was lost on the
        // way). Resynchronise from the record a survivor has, then go on from there.
        match shared.record(board).await {
            Ok(record) => {
                let recorded = record["ply"].as_i64().unwrap_or(0);
                if !confirmed && recorded < guard {
                    shared.interrupted.fetch_add(1, Ordering::Relaxed);
                }
                let Some(fen) = record["fen"].as_str().and_then(|f| f.parse().ok()) else {
                    shared.errors.fetch_add(1, Ordering::Relaxed);
                    break;
                };
                pos = fen;
                ply = recorded;
            }
            Err(err) => {
                eprintln!("board {board}: {err}");
                shared.errors.fetch_add(1, Ordering::Relaxed);
                break;
            }
        }
    }
    run
}

/// Counts the confirmed moves of a board that its record lacks.
async fn count_lost(shared: &Arc<Shared>, board: i64, confirmed: &[(i64, String)]) -> u64 {
    let record = match shared.record(board).await {
        Ok(record) => record,
        Err(err) => {
            eprintln!("board {board}: {err}");
            return confirmed.len() as u64;
        }
    };
    let recorded: HashMap<i64, &str> = record["moves"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| Some((m["ply"].as_i64()?, m["move"].as_str()?)))
        .collect();
    confirmed
        .iter()
        .filter(|(ply, mv)| recorded.get(ply) != Some(&mv.as_str()))
        .count() as u64
}

/// Counts the player streams that have not announced their game's last recorded ply, waiting
/// up to [`NOTIFIED_WITHIN`] for the last events to arrive.
async fn count_behind(shared: &Arc<Shared>, games: &[(i64, usize, usize)]) -> u64 {
    let mut last = HashMap::new();
    for &(board, _, _) in games {
        if let Ok(record) = shared.record(board).await {
            last.insert(board, record["ply"].as_i64().unwrap_or(0));
        }
    }
    let deadline = Instant::now() + NOTIFIED_WITHIN;
    loop {
        let behind: Vec<(usize, i64, i64)> = {
            let seen = shared.seen.lock().expect("seen");
            games
                .iter()
                .flat_map(|&(board, x, o)| [(x, board), (o, board)])
                .map(|key| (key.0, key.1, seen.get(&key).copied().unwrap_or(0)))
                .filter(|(_, board, seen)| *seen < last.get(board).copied().unwrap_or(0))
                .collect()
        };
        if behind.is_empty() || Instant::now() >= deadline {
            for (player, board, seen) in &behind {
                let name = &shared.players[*player].name;
                eprintln!(
                    "{name}'s stream is behind on board {board}: ply {seen} of {}",
                    last[board]
                );
            }
            return behind.len() as u64;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Connects every player, plays every game, kills a node when asked, and checks the record.
pub async fn play(
    args: &Args,
    servers: &mut [Spawned],
    names: Vec<String>,
    tokens: Vec<String>,
    games: Vec<(i64, usize, usize)>,
) -> anyhow::Result<Stats> {
    let nodes = servers
        .iter()
        .map(|s| Node {
            http: s.http.clone(),
            text: s.text.clone(),
            alive: AtomicBool::new(true),
        })
        .collect();
    let players = names
        .into_iter()
        .zip(tokens)
        .map(|(name, token)| Player {
            name,
            token,
            node: AtomicUsize::new(0),
            sink: tokio::sync::Mutex::new(None),
            text: tokio::sync::Mutex::new(None),
            moving: tokio::sync::Mutex::new(()),
        })
        .collect::<Vec<_>>();
    let count = players.len();
    let shared = Arc::new(Shared {
        nodes,
        players,
        pending: Mutex::new(HashMap::new()),
        acks: Mutex::new(HashMap::new()),
        seen: Mutex::new(HashMap::new()),
        killed_at: Mutex::new(None),
        errors: AtomicU64::new(0),
        interrupted: AtomicU64::new(0),
        reconnected: AtomicU64::new(0),
        agent: ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .into(),
    });
    for player in 0..count {
        // A player's moves and stream on one node, the opponent's (player ± 1) on the next.
        let stream = shared
            .open_socket(player, player % servers.len())
            .await
            .context("opening a player's event stream")?;
        tokio::spawn(read_events(shared.clone(), player, stream));
        // The first password check of each player runs argon2; do it before measuring.
        let name = &shared.players[player].name;
        match shared
            .text_command(player, &format!("ataxx accept {name} loadpass"))
            .await
        {
            Some(reply) if !reply.starts_with("error") => {}
            other => bail!("warming up {name}: {other:?}"),
        }
    }
    let period = Duration::from_secs_f64(games.len() as f64 / args.rate);
    let start = Instant::now();
    let end = start + Duration::from_secs(args.seconds);
    let boards: Vec<i64> = games.iter().map(|g| g.0).collect();
    let pairs = games.clone();
    let mut tasks = vec![];
    for (index, game) in games.into_iter().enumerate() {
        let offset = period.mul_f64(index as f64 / args.games as f64);
        let mut ticker = tokio::time::interval_at((start + offset).into(), period);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let task = play_game(shared.clone(), game, index % 2 == 0, ticker, end);
        tasks.push(tokio::spawn(task));
    }
    if let Some(after) = args.kill_node_after {
        tokio::time::sleep_until((start + Duration::from_secs(after)).into()).await;
        let victim = servers.len() - 1;
        // Marked dead first, so that a client whose connection breaks knows to move.
        shared.nodes[victim].alive.store(false, Ordering::SeqCst);
        *shared.killed_at.lock().expect("kill time") = Some(Instant::now());
        // SIGKILL: no goodbye to the database or the clients.
        servers[victim].child.kill()?;
        servers[victim].child.wait()?;
        eprintln!("killed node {} after {after} s", victim + 1);
    }
    let mut runs = vec![];
    for task in tasks {
        runs.push(task.await?);
    }
    let elapsed = start.elapsed().min(Duration::from_secs(args.seconds));
    let mut stats = Stats {
        moves: 0,
        elapsed,
        latencies: vec![],
        errors: shared.errors.load(Ordering::Relaxed),
        acknowledged: 0,
        lost: 0,
        interrupted: shared.interrupted.load(Ordering::Relaxed),
        reconnected: shared.reconnected.load(Ordering::Relaxed),
        after_kill: 0,
        behind: count_behind(&shared, &pairs).await,
    };
    for (board, run) in boards.into_iter().zip(runs) {
        stats.moves += run.latencies.len() as u64;
        stats.acknowledged += run.confirmed.len() as u64;
        stats.after_kill += run.after_kill;
        stats.lost += count_lost(&shared, board, &run.confirmed).await;
        stats.latencies.extend(run.latencies);
    }
    Ok(stats)
}
