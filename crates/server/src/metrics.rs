//! What an operator watches, in the Prometheus text format (`ataxx serve --metrics ADDR`, served
//! by doors/http/metrics.rs): moves, games started and finished per game kind, open connections
//! per door, move and commit latencies, failed logins and refusals, live analyses running; the gauges read from the
//! database (games in play, queued mail) are set when scraped, never on the move path.
//!
//! One set per process (the counters belong to the process, like its log), kept in a
//! `prometheus` registry of its own. Counting is an atomic add: a move pays no database
//! statement for it (crates/cli/tests/server/move_cost.rs pins those).

use std::sync::LazyLock;
use std::time::Instant;

use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};

/// The server's metrics.
pub struct Metrics {
    registry: Registry,
    /// Recorded moves per game kind (automatic passes included).
    pub moves: IntCounterVec,
    pub games_started: IntCounterVec,
    pub games_finished: IntCounterVec,
    /// Games in play, set when scraped.
    pub active_games: IntGauge,
    /// Open connections per door (`http`, `websocket`, `text`, `smtp`).
    pub connections: IntGaugeVec,
    /// Connections refused per door (over an address's cap).
    pub refused_connections: IntCounterVec,
    /// Seconds from a move's arrival in the domain to its commit, per game kind.
    pub move_seconds: HistogramVec,
    /// Seconds a write transaction's commit takes (`sqlite`, `postgres`).
    pub commit_seconds: HistogramVec,
    /// Queue lengths, set when scraped (`outbox`: mails waiting to be sent; `analysis`: analysis
    /// jobs queued or running).
    pub queue_length: IntGaugeVec,
    /// Set when scraped: `this` is 1 while this node leads, `any` while some node does (0: a
    /// cluster with nobody running bots, deadlines, tournaments and mail).
    pub leader: IntGaugeVec,
    pub failed_logins: IntCounter,
    /// Live analysis searches running (the analysis board's lines).
    pub live_analyses: IntGauge,
    /// Attempts refused by a rate limit (`login`, `signup`).
    pub rate_limited: IntCounterVec,
}

fn counter(registry: &Registry, name: &str, help: &str, label: &str) -> IntCounterVec {
    let counter = IntCounterVec::new(Opts::new(name, help), &[label]).expect("a valid metric");
    registry
        .register(Box::new(counter.clone()))
        .expect("registered once");
    counter
}

fn gauge(registry: &Registry, name: &str, help: &str, label: &str) -> IntGaugeVec {
    let gauge = IntGaugeVec::new(Opts::new(name, help), &[label]).expect("a valid metric");
    registry
        .register(Box::new(gauge.clone()))
        .expect("registered once");
    gauge
}

fn histogram(registry: &Registry, name: &str, help: &str, label: &str) -> HistogramVec {
    // From 0.5 ms to about 4 s.
    let buckets = prometheus::exponential_buckets(0.0005, 2.0, 14).expect("valid buckets");
    let histogram = HistogramVec::new(HistogramOpts::new(name, help).buckets(buckets), &[label])
        .expect("a valid metric");
    registry
        .register(Box::new(histogram.clone()))
        .expect("registered once");
    histogram
}

impl Metrics {
    fn new() -> Metrics {
        let r = Registry::new();
        let active_games = IntGauge::new("ataxx_active_games", "Games in play.").expect("valid");
        r.register(Box::new(active_games.clone()))
            .expect("registered once");
        let failed_logins = IntCounter::new(
            "ataxx_failed_logins_total",
            "Logins refused for a wrong userid or password.",
        )
        .expect("valid");
        r.register(Box::new(failed_logins.clone()))
            .expect("registered once");
        let live_analyses = IntGauge::new(
            "ataxx_live_analyses",
            "Live analysis searches running (the analysis board).",
        )
        .expect("valid");
        r.register(Box::new(live_analyses.clone()))
            .expect("registered once");
        Metrics {
            moves: counter(
                &r,
                "ataxx_moves_total",
                "Moves recorded (automatic passes included).",
                "kind",
            ),
            games_started: counter(
                &r,
                "ataxx_games_started_total",
                "Games begun (every player accepted).",
                "kind",
            ),
            games_finished: counter(&r, "ataxx_games_finished_total", "Games ended.", "kind"),
            active_games,
            connections: gauge(
                &r,
                "ataxx_connections",
                "Open connections per door.",
                "door",
            ),
            refused_connections: counter(
                &r,
                "ataxx_refused_connections_total",
                "Connections refused over an address's cap.",
                "door",
            ),
            move_seconds: histogram(
                &r,
                "ataxx_move_seconds",
                "Seconds from a move's arrival to its commit.",
                "kind",
            ),
            commit_seconds: histogram(
                &r,
                "ataxx_db_commit_seconds",
                "Seconds a write transaction's commit takes.",
                "database",
            ),
            queue_length: gauge(
                &r,
                "ataxx_queue_length",
                "Items waiting in a queue.",
                "queue",
            ),
            leader: gauge(
                &r,
                "ataxx_leader",
                "1 when the node named leads the cluster: `this` node, or `any` node at all.",
                "node",
            ),
            failed_logins,
            live_analyses,
            rate_limited: counter(
                &r,
                "ataxx_rate_limited_total",
                "Attempts refused by a rate limit.",
                "limit",
            ),
            registry: r,
        }
    }

    /// Everything, in the Prometheus text format.
    pub fn render(&self) -> String {
        let mut text = Vec::new();
        TextEncoder::new()
            .encode(&self.registry.gather(), &mut text)
            .expect("the text encoder writes to memory");
        String::from_utf8(text).expect("the text format is UTF-8")
    }
}

/// The process's metrics.
pub fn metrics() -> &'static Metrics {
    static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);
    &METRICS
}

/// Holds a door's open-connection gauge up while it lives.
pub struct Connected(&'static str);

impl Connected {
    pub fn to(door: &'static str) -> Connected {
        metrics().connections.with_label_values(&[door]).inc();
        Connected(door)
    }
}

/// Counts a connection refused by `door`.
pub fn refused(door: &'static str) {
    metrics()
        .refused_connections
        .with_label_values(&[door])
        .inc();
}

impl Drop for Connected {
    fn drop(&mut self) {
        metrics().connections.with_label_values(&[self.0]).dec();
    }
}

/// Seconds since `started`, for a histogram.
pub fn seconds_since(started: Instant) -> f64 {
    started.elapsed().as_secs_f64()
}
