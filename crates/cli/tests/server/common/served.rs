//! The one way the server tests run `ataxx serve`: a real process on a SQLite file in a
//! temporary folder (or a node on a given database URL, see cluster.rs), with its text door
//! (optionally from a chosen source address), HTTP and WebSocket helpers.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

use super::{ataxx_command, database};

/// A running `ataxx serve`, killed (SIGKILL) when dropped.
pub struct Served {
    pub child: Child,
    pub http: String,
    pub text: String,
    /// Its `--smtp` door, when `extra` asked for one.
    pub smtp: Option<String>,
    /// Its `--metrics` address, when `extra` asked for one.
    pub metrics: Option<String>,
}

impl Served {
    pub fn start(db: &Path, extra: &[&str]) -> Served {
        Served::start_on(db, "127.0.0.1:0", extra)
    }

    /// Starts a server on `db` whose HTTP door binds `http` (a restart on the same port).
    pub fn start_on(db: &Path, http: &str, extra: &[&str]) -> Served {
        Served::launch(ataxx_command(), database::test_database(db), http, extra)
    }

    /// Starts a node on the database at `url` (several nodes may share a PostgreSQL one).
    pub fn on_database(url: &str, extra: &[&str]) -> Served {
        Served::launch(ataxx_command(), url, "127.0.0.1:0", extra)
    }

    /// A server on a fresh database in `dir`.
    pub fn fresh(dir: &tempfile::TempDir, extra: &[&str]) -> Served {
        Served::start(&dir.path().join("ataxx.db"), extra)
    }

    /// A server run by `program` (another build of `ataxx`, e.g. a release one for a
    /// benchmark) on a fresh database in `dir`.
    pub fn fresh_from(program: &Path, dir: &tempfile::TempDir, extra: &[&str]) -> Served {
        let db = database::test_database(&dir.path().join("ataxx.db"));
        Served::launch(Command::new(program), db, "127.0.0.1:0", extra)
    }

    /// Runs `command` (a program with whatever environment, user or standard error the caller
    /// gave it) as `serve` on `db`, its HTTP door on `http`, the text door on a free port and
    /// `--log warn` unless `extra` names a level; returns once it has printed the address of
    /// every door it opened (reading them all: a server whose stdout is closed ends at its next
    /// line).
    pub fn launch(
        mut command: Command,
        db: impl Into<OsString>,
        http: &str,
        extra: &[&str],
    ) -> Served {
        command.args(["serve", "--http", http, "--text", "127.0.0.1:0"]);
        if !extra.contains(&"--log") {
            command.args(["--log", "warn"]);
        }
        let mut child = command
            .arg("--db")
            .arg(db.into())
            .args(extra)
            .stdout(Stdio::piped())
            .spawn()
            .expect("ataxx serve starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut door = |name: &str| {
            let line = lines
                .next()
                .expect("the server prints its addresses")
                .unwrap();
            line.strip_prefix(name)
                .and_then(|addr| addr.strip_prefix(' '))
                .unwrap_or_else(|| panic!("expected {name:?}, got {line:?}"))
                .to_string()
        };
        let http = door("http");
        let text = door("text");
        let smtp = extra.contains(&"--smtp").then(|| door("smtp"));
        let metrics = extra.contains(&"--metrics").then(|| door("metrics"));
        Served {
            child,
            http,
            text,
            smtp,
            metrics,
        }
    }

    pub fn text(&self) -> TextDoor {
        TextDoor::connect(&self.text, None)
    }

    /// A text connection whose source address is `from` (any 127.x.y.z works on loopback).
    pub fn text_from(&self, from: &str) -> TextDoor {
        TextDoor::connect(&self.text, Some(from))
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.http)
    }

    pub fn ws(&self, path: &str) -> String {
        format!("ws://{}{path}", self.http)
    }

    /// Kills the server (SIGKILL) and waits for it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A port nothing listens on right now (for a server restarted on the same address, or a
/// program that must be told its port in advance).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A TCP connection to `to` from the source address `from`.
pub fn connect_from(to: &str, from: Option<&str>) -> TcpStream {
    let to: SocketAddr = to.parse().unwrap();
    match from {
        None => TcpStream::connect(to).unwrap(),
        Some(from) => {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                let socket = tokio::net::TcpSocket::new_v4().unwrap();
                let ip: IpAddr = from.parse().unwrap();
                socket.bind(SocketAddr::new(ip, 0)).unwrap();
                let stream = socket.connect(to).await.unwrap();
                let std = stream.into_std().unwrap();
                std.set_nonblocking(false).unwrap();
                std
            })
        }
    }
}

/// A connection to the text port.
pub struct TextDoor {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl TextDoor {
    /// A connection whose greeting is still unread.
    pub fn raw(addr: &str, from: Option<&str>) -> TextDoor {
        let stream = connect_from(addr, from);
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        TextDoor { stream, reader }
    }

    pub fn connect(addr: &str, from: Option<&str>) -> TextDoor {
        let mut door = TextDoor::raw(addr, from);
        let greeting = door.reply();
        assert!(greeting.contains("one command per line"), "{greeting}");
        door
    }

    /// The next reply, or None if the server closed the connection first.
    pub fn try_reply(&mut self) -> Option<String> {
        let mut lines = vec![];
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line).ok()? == 0 {
                return None;
            }
            if line.trim_end() == "." {
                return ataxx_server::unframe(lines.iter().map(String::as_str).chain(["."]));
            }
            lines.push(line);
        }
    }

    pub fn reply(&mut self) -> String {
        self.try_reply()
            .expect("a reply before the connection closed")
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) -> String {
        self.stream.write_all(bytes).unwrap();
        self.reply()
    }

    pub fn send(&mut self, line: &str) -> String {
        self.send_bytes(format!("{line}\r\n").as_bytes())
    }

    /// Sends a command that must succeed.
    pub fn ok(&mut self, line: &str) -> String {
        let reply = self.send(line);
        assert!(!reply.starts_with("error"), "{line}: {reply}");
        reply
    }

    /// Sends a command with `--json` and returns the reply's JSON.
    pub fn json(&mut self, line: &str) -> Value {
        serde_json::from_str(&self.send(&format!("{line} --json"))).unwrap()
    }

    /// The board's summary.
    pub fn board(&mut self, board: i64) -> Value {
        self.json(&format!("ataxx show {board}"))["data"][0].clone()
    }

    /// Whether the server closed the connection (EOF) within the read timeout.
    pub fn closed(&mut self) -> bool {
        let mut rest = String::new();
        self.reader.read_to_string(&mut rest).is_ok()
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

/// An HTTP request: (status, content type, body as JSON or a JSON string).
pub fn http(
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<Vec<u8>>,
) -> (u16, String, Value) {
    let agent = agent();
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut response = match method {
        "GET" | "DELETE" => {
            let mut req = match method {
                "GET" => agent.get(url),
                _ => agent.delete(url),
            };
            if let Some(auth) = &auth {
                req = req.header("Authorization", auth);
            }
            req.call().unwrap()
        }
        _ => {
            let mut req = agent.post(url).header("Content-Type", "application/json");
            if let Some(auth) = &auth {
                req = req.header("Authorization", auth);
            }
            req.send(body.unwrap_or_else(|| b"{}".to_vec()).as_slice())
                .unwrap()
        }
    };
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let text = response.body_mut().read_to_string().unwrap();
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, kind, value)
}

/// An API call: (status, JSON body).
pub fn api(method: &str, url: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let (status, _, value) = http(method, url, token, body.map(|b| b.to_string().into_bytes()));
    (status, value)
}

/// Logs in by `POST /api/login`; returns the token.
pub fn login(server: &Served, userid: &str, password: &str) -> String {
    let (status, body) = api(
        "POST",
        &server.url("/api/login"),
        None,
        Some(json!({"userid": userid, "password": password})),
    );
    assert_eq!(status, 200, "{body}");
    body["token"].as_str().unwrap().to_string()
}

/// Signs up by `POST /api/signup`, then logs in; returns the token.
pub fn signup_and_login(server: &Served, userid: &str, password: &str) -> String {
    let (status, _) = api(
        "POST",
        &server.url("/api/signup"),
        None,
        Some(json!({"userid": userid, "password": password})),
    );
    assert_eq!(status, 201);
    login(server, userid, password)
}

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn socket(url: &str) -> Socket {
    tokio_tungstenite::connect_async(url)
        .await
        .expect("websocket opens")
        .0
}

/// Reads messages until one satisfies `want` (at most 10 seconds).
pub async fn next_where(ws: &mut Socket, want: impl Fn(&Value) -> bool) -> Value {
    next_where_within(ws, 10, want).await
}

/// Reads messages until one satisfies `want` (at most `secs` seconds).
pub async fn next_where_within(ws: &mut Socket, secs: u64, want: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let message = tokio::time::timeout(left, ws.next())
            .await
            .expect("an awaited message arrives")
            .expect("socket open")
            .unwrap();
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(&text).unwrap();
            if want(&value) {
                return value;
            }
        }
    }
}

pub async fn send(ws: &mut Socket, value: Value) {
    ws.send(Message::Text(value.to_string().into()))
        .await
        .unwrap();
}

/// Sends a move over a board socket; returns the board's `moves` event that carries it and the
/// move's `ack`, which arrive in either order. An `error` answer fails the test.
pub async fn play_over_socket(ws: &mut Socket, id: Value, mv: &str, guard: i64) -> (Value, Value) {
    send(
        ws,
        json!({"type": "move", "id": id, "move": mv, "guard": guard}),
    )
    .await;
    let (mut event, mut ack) = (Value::Null, Value::Null);
    while event.is_null() || ack.is_null() {
        let message = next_where(ws, |v| {
            ["moves", "ack", "error"].contains(&v["type"].as_str().unwrap_or(""))
        })
        .await;
        assert_ne!(message["type"], "error", "{message}");
        match message["type"].as_str() {
            Some("moves") if message["ply"].as_i64() >= Some(guard) => event = message,
            Some("ack") => ack = message,
            _ => {}
        }
    }
    (event, ack)
}

/// Reads until the server's close frame; returns its code.
pub async fn close_code(ws: &mut Socket) -> Option<CloseCode> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, ws.next()).await {
            Ok(Some(Ok(Message::Close(frame)))) => return frame.map(|f| f.code),
            Ok(Some(Ok(_))) => continue,
            Ok(Some(Err(err))) => panic!("socket failed without a close frame: {err}"),
            Ok(None) => panic!("socket ended without a close frame"),
            Err(_) => panic!("no close frame within 10 s"),
        }
    }
}

/// Polls a board until `done` holds (a few seconds at most).
pub fn wait_for(door: &mut TextDoor, board: i64, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let game = door.board(board);
        if done(&game) {
            return game;
        }
        assert!(Instant::now() < deadline, "board never got there: {game}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends a pbmserv command through `POST /api/command` and returns the JSON reply.
pub fn command(server: &Served, line: &str) -> Value {
    let mut response = agent()
        .post(&server.url("/api/command"))
        .header("Accept", "application/json")
        .send(line.to_string())
        .unwrap();
    serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap()
}

/// Polls `GET path` until `done` holds (at most `secs` seconds); returns the last body.
pub fn poll(server: &Served, path: &str, secs: u64, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let (_, body) = api("GET", &server.url(path), None, None);
        if done(&body) {
            return body;
        }
        assert!(
            Instant::now() < deadline,
            "{path} never became what the test waits for: {body}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
