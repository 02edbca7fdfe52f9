//! The HTTP door's accept loop and connections, driven with hyper directly because
//! `axum::serve` has no knobs for what a server on the open internet needs: it read headers
//! without a time limit and kept idle connections for ever (2,000 silent connections stayed), and
//! one address could open connections until the process ran out of file descriptors.
//!
//! Here each client address holds at most [`Limits::per_address`] connections (WebSockets
//! included: the count is held by the connection's socket, which an upgrade keeps); one more is
//! answered 503 and closed at once. A connection that sends no complete request head within
//! [`Limits::idle`], whether it is new or idle between requests, is closed. Accept errors back
//! off (doors/accept.rs).

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tower::ServiceExt;

use super::TrustedProxies;
use crate::doors::accept::{Acceptor, Open, Slot, Warnings};
use crate::metrics::{self, Connected};

/// The HTTP door's limits on connections.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Open connections per client address (WebSockets included).
    pub per_address: usize,
    /// How long a connection may take to send a request's head, counted from its opening or
    /// from the end of its last answer.
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            per_address: 100,
            idle: Duration::from_secs(30),
        }
    }
}

/// The answer to a connection over its address's cap, written without waiting.
const TOO_MANY: &str = "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\n\
Content-Type: application/json\r\nContent-Length: 89\r\nConnection: close\r\n\r\n\
{\"error\": {\"code\": \"busy\", \"message\": \"too many connections from this address at once\"}}\n";

/// Serves `router` on `listener` until `stopped`, then lets open connections finish (at most
/// 5 s).
pub(super) async fn serve(
    router: Router,
    listener: TcpListener,
    mut stopped: watch::Receiver<bool>,
    limits: Limits,
    proxies: TrustedProxies,
) {
    let open = Open::default();
    let mut acceptor = Acceptor::new(listener, "http");
    let mut refusals = Warnings::default();
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            (stream, peer) = acceptor.accept() => match open.take(peer.ip(), cap(&proxies, peer, limits)) {
                Some(slot) => {
                    let io = Counted { stream, _slot: slot, _connected: Connected::to("http") };
                    let proxies = proxies.clone();
                    connections.spawn(connection(router.clone(), io, peer, proxies, stopped.clone(), limits.idle));
                }
                None => {
                    if let Some(held_back) = refusals.may_log() {
                        tracing::warn!(%peer, max = limits.per_address, held_back,
                            "http: too many connections from one address");
                    }
                    metrics::refused("http");
                    // Best effort and at once: a refusal must not hold a descriptor or a task.
                    let _ = stream.try_write(TOO_MANY.as_bytes());
                }
            },
            _ = stopped.changed() => break,
        }
        while connections.try_join_next().is_some() {}
    }
    drop(acceptor);
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        while connections.join_next().await.is_some() {}
    })
    .await;
}

/// The open connections `peer` may hold: a trusted proxy carries every client's, and caps its
/// own clients itself.
fn cap(proxies: &TrustedProxies, peer: SocketAddr, limits: Limits) -> usize {
    match proxies.trusts(peer.ip()) {
        true => usize::MAX,
        false => limits.per_address,
    }
}

/// One HTTP/1.1 connection (with upgrades to WebSocket), the client's address given to the
/// handlers as `ConnectInfo` (from `X-Forwarded-For` when a trusted proxy forwards it).
async fn connection(
    router: Router,
    io: Counted,
    peer: SocketAddr,
    proxies: TrustedProxies,
    mut stopped: watch::Receiver<bool>,
    idle: Duration,
) {
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        let client = proxies.client(peer, request.headers());
        request.extensions_mut().insert(ConnectInfo(client));
        router.clone().oneshot(request)
    });
    // HTTP/1.1 only: a browser speaks HTTP/2 only over TLS, which a proxy in front ends, and
    // serving both would first wait, without a time limit, for the bytes that tell them apart.
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(idle)
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades();
    tokio::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => return,
        _ = stopped.changed() => {}
    }
    conn.as_mut().graceful_shutdown();
    let _ = conn.await;
}

/// A connection's socket holding its place in its address's count until it is closed, even
/// after an upgrade hands it to a WebSocket.
struct Counted {
    stream: TcpStream,
    _slot: Slot,
    _connected: Connected,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_is_a_whole_http_answer() {
        let (head, body) = TOO_MANY.split_once("\r\n\r\n").unwrap();
        assert!(head.contains(&format!("Content-Length: {}", body.len())));
        serde_json::from_str::<serde_json::Value>(body).unwrap();
    }
}
