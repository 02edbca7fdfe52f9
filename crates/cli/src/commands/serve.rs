//! `ataxx serve`: the game server with an embedded SQLite database by default.
//!
//! Prints `http <addr>` and `text <addr>` on stdout once listening (port 0 picks a free port),
//! logs to stderr, and shuts down gracefully on Ctrl-C or SIGTERM.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use ataxx_server::{
    AnalysisOptions, Config, Durability, HttpLimits, HttpOptions, LiveOptions, MailConfig,
    RateLimits, Server, Site, TlsFiles, TrustedProxies,
};
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// SQLite file path, or a database URL (sqlite://..., postgres://... with the postgres feature).
    #[arg(
        long,
        env = "ATAXX_DB",
        default_value = "ataxx.db",
        hide_env_values = true
    )]
    db: String,
    /// Read the database URL from this file instead (its first line), so that a PostgreSQL
    /// password is on no command line.
    #[arg(long, value_name = "PATH", conflicts_with = "db")]
    db_file: Option<std::path::PathBuf>,
    /// Address of the HTTP door (JSON API, WebSocket, POST /api/command), or `off`.
    #[arg(long, default_value = "127.0.0.1:8080")]
    http: String,
    /// Address of the line-based text door, or `off`.
    #[arg(long, default_value = "127.0.0.1:7070")]
    text: String,
    /// Serve the text door over TLS with this certificate chain and private key (PEM files).
    /// Its commands carry passwords: without TLS keep it on loopback behind a TLS tunnel.
    #[arg(long, num_args = 2, value_names = ["CERT", "KEY"])]
    text_tls: Option<Vec<std::path::PathBuf>>,
    /// Durability of each commit before the server answers (SQLite): `full` = on disk (the WAL
    /// flushed, one flush shared by all commits waiting), `normal` = survives a crash of the
    /// server process but not of the machine.
    #[arg(long, default_value = "full", value_parser = ["full", "normal"])]
    sync: String,
    /// Log level: error, warn, info, debug, trace.
    #[arg(long, default_value = "info")]
    log: tracing::Level,
    /// Log lines as `text` or as `json` objects (one a line, with the request's id in
    /// `span.id`).
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    log_format: String,
    /// Serve `GET /metrics` (Prometheus text format) on this address; off by default, so that
    /// it is never public by accident.
    #[arg(long, value_name = "ADDR")]
    metrics: Option<String>,
    /// Testing only: allow the command `clock advance <seconds>` to move the server's clock.
    #[arg(long, hide = true)]
    test_clock: bool,
    /// Testing only: no rate limits at all (load tests, the API and browser test runs).
    #[arg(long, hide = true)]
    no_rate_limits: bool,
    /// How often deadlines are checked, in milliseconds.
    #[arg(long, hide = true, default_value_t = 1000)]
    sweep_ms: u64,
    /// A text connection with no command for this many seconds is closed.
    #[arg(long, default_value_t = 1800)]
    text_idle_secs: u64,
    /// Open text connections per client address.
    #[arg(long, default_value_t = 20)]
    text_max_per_address: u32,
    /// Failed logins per client address, on any accounts, before that address waits (a minute,
    /// doubling with each further failure, up to an hour).
    #[arg(long, default_value_t = 100)]
    login_failures_per_address: u32,
    /// Failed logins on one account from all addresses together (in the hour since the last)
    /// before the addresses that never signed in to it wait; those the owner signed in from in
    /// the last 90 days are let in.
    #[arg(long, default_value_t = 100)]
    login_failures_per_account: u32,
    /// Password reset requests per client address per minute, whatever the accounts named.
    #[arg(long, default_value_t = 5)]
    password_resets_per_address: u32,
    /// A reverse proxy (IP address) whose `X-Forwarded-For` header names the client: limits and
    /// throttles then count that address. Repeatable. Without it the header is ignored.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// Open HTTP connections (WebSockets included) per client address.
    #[arg(long, default_value_t = 100)]
    http_max_per_address: u32,
    /// An HTTP connection that sends no complete request head for this many seconds (since it
    /// opened, or since its last answer) is closed.
    #[arg(long, default_value_t = 30)]
    http_idle_secs: u64,
    /// The admins (`--admin`) must have a second factor (TOTP) on to use admin powers.
    #[arg(long = "admin-2fa")]
    admin_2fa: bool,
    /// The URL browsers reach the server at (e.g. https://ataxx.example.org behind a TLS proxy):
    /// its origin may use the session cookie, and with https the cookie is `Secure`.
    #[arg(long)]
    public_url: Option<String>,
    /// Threads that analyse finished games (below the server's priority); 0 leaves the jobs
    /// to other nodes.
    #[arg(long, default_value_t = 1)]
    analysis_workers: usize,
    /// Search nodes per position of an analysed game.
    #[arg(long, default_value_t = 200_000)]
    analysis_nodes: u64,
    /// Seconds an analysis job stays its worker's without news (a dead node's job is taken
    /// again after it).
    #[arg(long, default_value_t = 30)]
    analysis_lease_secs: u64,
    /// The analysis board's live searches at once on this node, all users together (one per
    /// user or visiting address); more are refused as busy. Default: one per two cores.
    #[arg(long)]
    live_analyses: Option<usize>,
    /// Seconds one position of the analysis board is searched at most.
    #[arg(long, default_value_t = 30)]
    live_analysis_secs: u64,
    #[command(flatten)]
    mail: super::mail::ServeArgs,
}

fn address(flag: &str, text: &str) -> anyhow::Result<Option<SocketAddr>> {
    if text == "off" {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .with_context(|| format!("--{flag} {text:?}: give host:port (e.g. 127.0.0.1:8080) or off"))
}

/// Allocations at least this large get pages of their own, returned to the system when freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const OWN_PAGES_FROM: libc::c_int = 1 << 20;

/// Makes glibc give large blocks back when they are freed. By default it raises its mmap
/// threshold to the size of the largest block freed (up to 32 MiB), after which argon2's 19 MiB
/// and an analysis's 16 MiB table come from per-thread heaps that keep them: a burst of logins
/// left the server at 15.6 GB for good. A fixed threshold also stops the raising.
fn give_large_blocks_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; it is called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, OWN_PAGES_FROM);
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    give_large_blocks_back();
    let log = tracing_subscriber::fmt()
        .with_max_level(args.log)
        .with_writer(std::io::stderr);
    match args.log_format.as_str() {
        "json" => log
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .init(),
        _ => log.with_ansi(std::io::stderr().is_terminal()).init(),
    }
    let config = Config {
        db: match &args.db_file {
            Some(path) => database_url_in(path)?,
            None => args.db,
        },
        http: address("http", &args.http)?,
        http_options: HttpOptions {
            limits: HttpLimits {
                idle: Duration::from_secs(args.http_idle_secs.max(1)),
                ..HttpLimits::default()
            },
            site: match &args.public_url {
                Some(url) => Site::at(url).map_err(anyhow::Error::msg)?,
                None => Site::default(),
            },
            trusted_proxies: TrustedProxies::new(args.trusted_proxies),
            // Set from the rate limits when the server starts.
            limit_reads: false,
        },
        text: address("text", &args.text)?,
        text_tls: args.text_tls.map(|files| TlsFiles {
            cert: files[0].clone(),
            key: files[1].clone(),
        }),
        test_clock: args.test_clock,
        rate_limits: if args.no_rate_limits {
            RateLimits::OFF
        } else {
            RateLimits {
                text_connections_per_address: args.text_max_per_address.max(1),
                http_connections_per_address: args.http_max_per_address.max(1),
                failures_per_address: args.login_failures_per_address.max(1),
                failures_per_account: args.login_failures_per_account.max(1),
                resets_per_minute: args.password_resets_per_address.max(1),
                ..RateLimits::DEFAULT
            }
        },
        sweep_interval: Duration::from_millis(args.sweep_ms.max(10)),
        sync: match args.sync.as_str() {
            "normal" => Durability::Normal,
            _ => Durability::Full,
        },
        text_idle: Duration::from_secs(args.text_idle_secs.max(1)),
        smtp: address("smtp", &args.mail.smtp)?,
        admins: args.mail.admins(),
        admin_2fa: args.admin_2fa,
        // Password reset mails link to the site's own page.
        mail: args.mail.config()?.map(|mail| MailConfig {
            site_url: args.public_url.clone(),
            ..mail
        }),
        metrics: match &args.metrics {
            Some(text) => address("metrics", text)?,
            None => None,
        },
        analysis: AnalysisOptions {
            workers: args.analysis_workers,
            nodes: args.analysis_nodes.max(1),
            lease: Duration::from_secs(args.analysis_lease_secs.max(1)),
            ..Default::default()
        },
        live_analysis: {
            let defaults = LiveOptions::default();
            LiveOptions {
                searches: args.live_analyses.unwrap_or(defaults.searches).max(1),
                time: Duration::from_secs(args.live_analysis_secs.max(1)),
            }
        },
    };
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async move {
        let server = Server::start(config).await?;
        if let Some(addr) = server.http_addr {
            println!("http {addr}");
            tracing::info!("http door on http://{addr}/api/");
        }
        if let Some(addr) = server.text_addr {
            println!("text {addr}");
            tracing::info!(
                "text door on {addr} (try: telnet {} {})",
                addr.ip(),
                addr.port()
            );
        }
        if let Some(addr) = server.smtp_addr {
            println!("smtp {addr}");
            tracing::info!("SMTP door on {addr}");
        }
        if let Some(addr) = server.metrics_addr {
            println!("metrics {addr}");
            tracing::info!("metrics on http://{addr}/metrics");
        }
        shutdown_signal().await;
        tracing::info!("shutting down");
        server.shutdown().await;
        anyhow::Ok(())
    })
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("SIGTERM handler");
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}

/// The database URL written in `path` (`--db-file`): its first line, trimmed.
fn database_url_in(path: &std::path::Path) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading --db-file {}", path.display()))?;
    match text.lines().next().map(str::trim) {
        Some(url) if !url.is_empty() => Ok(url.to_string()),
        _ => anyhow::bail!(
            "--db-file {} is empty: write the database URL in it",
            path.display()
        ),
    }
}
