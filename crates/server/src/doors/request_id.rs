//! A request id for every request through every door (an HTTP request, a text-door command, an
//! inbound mail): a tracing span carries it, so each log line the request causes names it
//! (`ataxx serve --log-format json` writes it as `span.id`), and the HTTP door answers it in
//! `X-Request-Id` for a client's bug report to quote.

use tracing::Span;

/// A new request id: 16 hex digits, random.
pub fn new_id() -> String {
    format!("{:016x}", rand::random::<u64>())
}

/// The span of one request through `door`, with the id `id`.
pub fn span(door: &'static str, id: &str) -> Span {
    tracing::info_span!("request", id = %id, door)
}
