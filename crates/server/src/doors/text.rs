//! The text door: a line-based TCP port, telnet-friendly. Each line is one command of the
//! pbmserv language; each reply is the reply's text (or its JSON with `--json`) followed by a
//! line holding a single `.`. Reply lines that begin with `.` get one more (as SMTP does).
//! Lines longer than [`MAX_LINE`] are refused and skipped; the connection stays usable.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::doors::accept::{Acceptor, Open, Slot, Warnings};
use crate::doors::command::{self, Reply, Request, MAX_LINE};
use crate::error::Error;
use crate::App;

const GREETING: &str =
    "ataxx server: one command per line (help lists them); replies end with a line \".\"";

/// Writes a reply in the text door's framing.
pub fn frame(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    for line in text.lines() {
        if line.starts_with('.') {
            out.push('.');
        }
        out.push_str(line);
        out.push_str("\r\n");
    }
    out.push_str(".\r\n");
    out
}

/// Reads a framed reply from lines (for clients): undoes the dot-stuffing, stops at `.`.
pub fn unframe<'a>(lines: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut out = String::new();
    for line in lines {
        let line = line.trim_end_matches(['\r', '\n']);
        if line == "." {
            return Some(out);
        }
        out.push_str(line.strip_prefix('.').unwrap_or(line));
        out.push('\n');
    }
    None
}

/// A connection with no command for this long is closed (the default of [`Limits::idle`]).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// How long a text connection may idle, and how many one client address may hold open.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub idle: Duration,
    pub per_address: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            idle: IDLE_TIMEOUT,
            per_address: 20,
        }
    }
}

pub async fn serve(app: App, listener: TcpListener, stopped: watch::Receiver<bool>) {
    serve_with(app, listener, stopped, Limits::default()).await
}

/// Serves the text door with these limits.
pub async fn serve_with(
    app: App,
    listener: TcpListener,
    mut stopped: watch::Receiver<bool>,
    limits: Limits,
) {
    let mut connections = JoinSet::new();
    let open = Open::default();
    let mut acceptor = Acceptor::new(listener, "text");
    let mut refusals = Warnings::default();
    loop {
        tokio::select! {
            (stream, peer) = acceptor.accept() => match open.take(peer.ip(), limits.per_address) {
                Some(slot) => {
                    connections.spawn(connection(app.clone(), stream, peer, stopped.clone(), limits.idle, slot));
                }
                None => {
                    if let Some(held_back) = refusals.may_log() {
                        tracing::warn!(%peer, max = limits.per_address, held_back, "text port: too many connections from one address");
                    }
                    connections.spawn(refuse(stream, peer, limits.per_address));
                }
            },
            _ = stopped.changed() => break,
        }
        // Finished connections' results are dropped as they come, not kept until shutdown.
        while connections.try_join_next().is_some() {}
    }
    // Connections finish the command they are running; idle ones close at once.
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        while connections.join_next().await.is_some() {}
    })
    .await;
}

/// One line: Ok(text), or Err(reply) for a line that is too long or not UTF-8. Ok(None) at EOF.
async fn read_line<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<Result<String, Error>>> {
    buf.clear();
    let n = (&mut *reader)
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', buf)
        .await?;
    if n == 0 {
        return Ok(None);
    }
    if !buf.ends_with(b"\n") && buf.len() > MAX_LINE {
        // Skip the rest of the long line, a bounded piece at a time.
        loop {
            buf.clear();
            let n = (&mut *reader)
                .take(MAX_LINE as u64)
                .read_until(b'\n', buf)
                .await?;
            if n == 0 || buf.ends_with(b"\n") {
                break;
            }
        }
        return Ok(Some(Err(Error::TooLong {
            what: "a command line",
            max: MAX_LINE,
        })));
    }
    Ok(Some(match std::str::from_utf8(buf) {
        Ok(text) => Ok(text.trim().to_string()),
        Err(_) => Err(Error::Command("the command is not UTF-8 text".into())),
    }))
}

/// Tells a client over the per-address cap why it is turned away, then closes.
async fn refuse(mut stream: TcpStream, peer: SocketAddr, max: usize) {
    crate::metrics::refused("text");
    let text = format!(
        "error: too many connections from {} (at most {max} at once); close one and try again",
        peer.ip()
    );
    let _ = tokio::time::timeout(
        Duration::from_secs(5),
        stream.write_all(frame(&text).as_bytes()),
    )
    .await;
    let _ = stream.shutdown().await;
}

async fn connection(
    app: App,
    stream: TcpStream,
    peer: SocketAddr,
    mut stopped: watch::Receiver<bool>,
    idle: Duration,
    _slot: Slot,
) {
    let _connected = crate::metrics::Connected::to("text");
    let _ = stream.set_nodelay(true);
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    if write.write_all(frame(GREETING).as_bytes()).await.is_err() {
        return;
    }
    let mut buf = Vec::new();
    loop {
        let line = tokio::select! {
            line = tokio::time::timeout(idle, read_line(&mut reader, &mut buf)) => match line {
                Ok(line) => line,
                Err(_) => {
                    let text = format!(
                        "closing the connection: no command for {} s (reconnect to go on)",
                        idle.as_secs()
                    );
                    let _ = write.write_all(frame(&text).as_bytes()).await;
                    return;
                }
            },
            _ = stopped.changed() => return,
        };
        let reply = match line {
            Ok(None) | Err(_) => return,
            Ok(Some(Ok(line))) if line.is_empty() => continue,
            Ok(Some(Ok(line))) if line.eq_ignore_ascii_case("quit") => {
                let _ = write.write_all(frame("bye").as_bytes()).await;
                return;
            }
            Ok(Some(Ok(line))) => {
                let request = Request {
                    line,
                    body: None,
                    peer: Some(peer.ip()),
                };
                let id = crate::doors::request_id::new_id();
                let span = crate::doors::request_id::span("text", &id);
                let reply =
                    tracing::Instrument::instrument(command::execute(&app, &request), span).await;
                match command::wants_json(&request.line) {
                    true => reply.to_json(),
                    false => reply.text,
                }
            }
            Ok(Some(Err(err))) => Reply::error(&err, None).text,
        };
        if write.write_all(frame(&reply).as_bytes()).await.is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_round_trips_lines_that_start_with_a_dot() {
        let text = "one\n.two\n..three\n";
        let framed = frame(text);
        assert_eq!(framed, "one\r\n..two\r\n...three\r\n.\r\n");
        assert_eq!(unframe(framed.split_inclusive('\n')).unwrap(), text);
    }
}
