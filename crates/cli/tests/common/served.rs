//! A real `ataxx serve` process for the site's tests (seeks, lobby, leaderboards, `ataxx bot`),
//! and the HTTP and WebSocket calls they make. Each test file uses a part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// A running `ataxx serve` on loopback ports, killed when dropped.
pub struct Served {
    pub child: Child,
    pub http: String,
    pub db: PathBuf,
}

impl Served {
    /// Starts a server on `db`; `http` is the address to bind (`127.0.0.1:0` for any port).
    pub fn start_on(db: &Path, http: &str, extra: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ataxx"))
            .args(["serve", "--http", http, "--text", "off", "--log", "warn"])
            .arg("--db")
            .arg(db)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("ataxx serve starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let line = lines
            .next()
            .expect("the server prints its address")
            .unwrap();
        let http = line
            .strip_prefix("http ")
            .unwrap_or_else(|| panic!("expected the http address, got {line:?}"))
            .to_string();
        Served {
            child,
            http,
            db: db.to_path_buf(),
        }
    }

    pub fn start(db: &Path) -> Served {
        Served::start_on(db, "127.0.0.1:0", &[])
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

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

/// An API call: (status, JSON body, or the text as a JSON string).
pub fn api(method: &str, url: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
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
            req.send(body.unwrap_or(json!({})).to_string()).unwrap()
        }
    };
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// Signs a new user up and returns their session token.
pub fn signup_and_login(server: &Served, userid: &str, password: &str) -> String {
    let body = json!({"userid": userid, "password": password});
    let (status, reply) = api("POST", &server.url("/api/signup"), None, Some(body.clone()));
    assert_eq!(status, 201, "{reply}");
    let (status, reply) = api("POST", &server.url("/api/login"), None, Some(body));
    assert_eq!(status, 200, "{reply}");
    reply["token"].as_str().unwrap().to_string()
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

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn socket(url: &str) -> Socket {
    tokio_tungstenite::connect_async(url)
        .await
        .expect("websocket opens")
        .0
}

/// Reads messages until one satisfies `want` (at most `secs` seconds).
pub async fn next_where(ws: &mut Socket, secs: u64, want: impl Fn(&Value) -> bool) -> Value {
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
