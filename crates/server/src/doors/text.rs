//! The text door: a line-based TCP port, telnet-friendly. Each line is one command of the
//! pbmserv language; each reply is the reply's text (or its JSON with `--json`) followed by a
//! line holding a single `.`. Reply lines that begin with `.` get one more (as SMTP does).
//! Lines longer than [`MAX_LINE`] are refused and skipped; the connection stays usable.
//! With `--text-tls` every connection is a TLS session (text_tls.rs).

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;

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

/// Serves the text door with these limits, over TLS when given an acceptor.
pub async fn serve_with(
    app: App,
    listener: TcpListener,
    mut stopped: watch::Receiver<bool>,
    limits: Limits,
    tls: Option<TlsAcceptor>,
) {
    let mut connections = JoinSet::new();
    let open = Open::default();
    let mut acceptor = Acceptor::new(listener, "text");
    let mut refusals = Warnings::default();
    loop {
        tokio::select! {
            (stream, peer) = acceptor.accept() => match open.take(peer.ip(), limits.per_address) {
                Some(slot) => {
                    let (app, stopped, tls) = (app.clone(), stopped.clone(), tls.clone());
                    connections.spawn(async move {
                        if let Some(stream) = handshake(stream, peer, tls.as_ref()).await {
                            connection(app, stream, peer, stopped, limits.idle, slot).await;
                        }
                    });
                }
                None => {
                    if let Some(held_back) = refusals.may_log() {
                        tracing::warn!(%peer, max = limits.per_address, held_back, "text port: too many connections from one address");
                    }
                    let tls = tls.clone();
                    connections.spawn(async move {
                        if let Some(stream) = handshake(stream, peer, tls.as_ref()).await {
                            refuse(stream, peer, limits.per_address).await;
                        }
                    });
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

/// A text connection's byte stream: the TCP socket itself, or the TLS session over it.
trait Duplex: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Duplex for T {}

/// The stream a new connection talks over: with TLS, once its handshake is done (None when it
/// fails or takes longer than [`crate::doors::text_tls::HANDSHAKE`]).
async fn handshake(
    stream: TcpStream,
    peer: SocketAddr,
    tls: Option<&TlsAcceptor>,
) -> Option<Box<dyn Duplex>> {
    let _ = stream.set_nodelay(true);
    let Some(acceptor) = tls else {
        return Some(Box::new(stream));
    };
    match tokio::time::timeout(crate::doors::text_tls::HANDSHAKE, acceptor.accept(stream)).await {
        Ok(Ok(session)) => Some(Box::new(session)),
        Ok(Err(err)) => {
            tracing::debug!(%peer, %err, "text port: TLS handshake failed");
            None
        }
        Err(_) => {
            tracing::debug!(%peer, "text port: TLS handshake timed out");
            None
        }
    }
}

/// Writes a framed reply and flushes it (a TLS session holds what it is given until then).
async fn send<W: AsyncWrite + Unpin>(write: &mut W, text: &str) -> std::io::Result<()> {
    write.write_all(frame(text).as_bytes()).await?;
    write.flush().await
}

/// Tells a client over the per-address cap why it is turned away, then closes.
async fn refuse(mut stream: Box<dyn Duplex>, peer: SocketAddr, max: usize) {
    crate::metrics::refused("text");
    let text = format!(
        "error: too many connections from {} (at most {max} at once); close one and try again",
        peer.ip()
    );
    let _ = tokio::time::timeout(Duration::from_secs(5), send(&mut stream, &text)).await;
    let _ = stream.shutdown().await;
}

async fn connection(
    app: App,
    stream: Box<dyn Duplex>,
    peer: SocketAddr,
    mut stopped: watch::Receiver<bool>,
    idle: Duration,
    _slot: Slot,
) {
    let _connected = crate::metrics::Connected::to("text");
    let (read, mut write) = tokio::io::split(stream);
    let mut reader = BufReader::new(read);
    if send(&mut write, GREETING).await.is_err() {
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
                    let _ = send(&mut write, &text).await;
                    return;
                }
            },
            _ = stopped.changed() => return,
        };
        let reply = match line {
            Ok(None) | Err(_) => return,
            Ok(Some(Ok(line))) if line.is_empty() => continue,
            Ok(Some(Ok(line))) if line.eq_ignore_ascii_case("quit") => {
                let _ = send(&mut write, "bye").await;
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
        if send(&mut write, &reply).await.is_err() {
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
