//! The server: [`Config`] (how to run one) and [`Server::start`], which builds the services
//! ([`App::open`]) and starts what uses them: the doors, the cluster's listener, the bots, the
//! tournament director, the analysis workers and the deadline sweeper. The door types are named
//! here and in the doors only.

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::app::{self, App};
use crate::cluster;
use crate::domain::accounts::RateLimits;
use crate::domain::analysis::{LiveOptions, Options as AnalysisOptions};
use crate::domain::outbox::Outbox;
use crate::domain::{games::Games, leader::Leader};
use crate::doors::{http, mail, text, text_tls};
use crate::error::{Error, Result};
use crate::store;

/// How to run a server.
#[derive(Clone, Debug)]
pub struct Config {
    /// SQLite file path or database URL.
    pub db: String,
    /// HTTP (JSON API, WebSocket, `POST /api/command`) address; None = no HTTP door.
    pub http: Option<SocketAddr>,
    /// The HTTP door's limits (connections per address, header and idle timeout) and public URL.
    pub http_options: http::Options,
    /// Text port address; None = no text door.
    pub text: Option<SocketAddr>,
    /// The text door's TLS certificate and key; None = plain TCP (for loopback behind a tunnel).
    pub text_tls: Option<text_tls::TlsFiles>,
    /// Let `clock advance <seconds>` move the server's clock (tests of deadlines).
    pub test_clock: bool,
    pub rate_limits: RateLimits,
    /// How often the sweeper looks for passed deadlines.
    pub sweep_interval: Duration,
    /// How durable a commit is before the server answers (SQLite).
    pub sync: store::Durability,
    /// A text connection with no command for this long is closed.
    pub text_idle: Duration,
    /// SMTP listener address (the mail door's way in); None = none.
    pub smtp: Option<SocketAddr>,
    /// The mail door (inbox processing, board mails, the outbox); None = no mail.
    pub mail: Option<mail::MailConfig>,
    /// Where `GET /metrics` (Prometheus) is served; None = nowhere.
    pub metrics: Option<SocketAddr>,
    /// The server's admins (`serve --admin`): moderators, who may make others moderators.
    pub admins: Vec<String>,
    /// `serve --admin-2fa`: admins must have a second factor on to use admin powers.
    pub admin_2fa: bool,
    /// The computer analysis of finished games: workers, budget, lease.
    pub analysis: AnalysisOptions,
    /// The analysis board's live searches: how many at once, how long each.
    pub live_analysis: LiveOptions,
}

impl Config {
    /// What the services are built from; `outbox` is the mail door's, when there is one.
    pub(crate) fn app_options(&self, outbox: Option<Outbox>) -> app::Options {
        app::Options {
            db: self.db.clone(),
            sync: self.sync,
            test_clock: self.test_clock,
            rate_limits: self.rate_limits,
            admins: self.admins.clone(),
            admin_2fa: self.admin_2fa,
            analysis: self.analysis.clone(),
            live_analysis: self.live_analysis.clone(),
            outbox,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            db: "ataxx.db".into(),
            http: Some(SocketAddr::from(([127, 0, 0, 1], 8080))),
            http_options: http::Options::default(),
            text: Some(SocketAddr::from(([127, 0, 0, 1], 7070))),
            text_tls: None,
            test_clock: false,
            rate_limits: RateLimits::DEFAULT,
            sweep_interval: Duration::from_secs(1),
            sync: store::Durability::Full,
            text_idle: text::IDLE_TIMEOUT,
            smtp: None,
            mail: None,
            metrics: None,
            admins: vec![],
            admin_2fa: false,
            analysis: AnalysisOptions::default(),
            live_analysis: LiveOptions::default(),
        }
    }
}

/// A running server.
pub struct Server {
    pub http_addr: Option<SocketAddr>,
    pub text_addr: Option<SocketAddr>,
    pub smtp_addr: Option<SocketAddr>,
    pub metrics_addr: Option<SocketAddr>,
    app: App,
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
    /// The analysis workers' threads.
    workers: Vec<std::thread::JoinHandle<()>>,
}

/// The tasks a starting server spawns, each stopped by the same signal.
struct Tasks {
    stopped: watch::Receiver<bool>,
    handles: Vec<JoinHandle<()>>,
}

impl Tasks {
    fn spawn(&mut self, task: impl Future<Output = ()> + Send + 'static) {
        self.handles.push(tokio::spawn(task));
    }
}

impl Server {
    /// Opens the database, creates the bot accounts, binds the doors and starts serving.
    pub async fn start(config: Config) -> Result<Server> {
        let mail = config.mail.clone().map(mail::Mail::new);
        let app = App::open(&config.app_options(mail.as_ref().map(|m| m.outbox.clone()))).await?;
        let (stop, stopped) = watch::channel(false);
        catch_up(&app, &stopped).await?;
        app.start_bots().await?;
        let mut tasks = Tasks {
            stopped,
            handles: vec![],
        };
        let http_addr = start_http(&config, &app, &mut tasks).await?;
        let text_addr = start_text(&config, &app, &mut tasks).await?;
        let smtp_addr = start_mail(&config, &app, mail.as_ref(), &mut tasks).await?;
        let metrics_addr = match config.metrics {
            Some(addr) => {
                let listener = bind(addr).await?;
                let bound = listener.local_addr().map_err(io_error)?;
                let stopped = tasks.stopped.clone();
                tasks.spawn(http::metrics::serve(app.clone(), listener, stopped));
                Some(bound)
            }
            None => None,
        };
        let stopped = tasks.stopped.clone();
        let leader = app.leader.clone();
        let interval = config.sweep_interval;
        tasks.spawn(
            app.tournaments
                .clone()
                .direct(leader.clone(), interval, stopped.clone()),
        );
        let workers = app.analyses.start_workers(stopped.clone());
        tasks.spawn(sweeper(app.games.clone(), leader, interval, stopped));
        Ok(Server {
            http_addr,
            text_addr,
            smtp_addr,
            metrics_addr,
            app,
            stop,
            tasks: tasks.handles,
            workers,
        })
    }

    /// Stops accepting, lets the doors finish their current requests, closes the database.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        for task in self.tasks {
            let _ = task.await;
        }
        for worker in self.workers {
            let _ = tokio::task::spawn_blocking(move || worker.join()).await;
        }
        self.app.close().await;
    }
}

/// Brings this node up to date with the database: on a shared one, the cluster's listener feeds
/// the hub from now on; a lone node loads its subscriptions and drops the live seeks of pages a
/// restart closed.
async fn catch_up(app: &App, stopped: &watch::Receiver<bool>) -> Result<()> {
    match app.is_shared() {
        true => cluster::listen(app.cluster_node(), stopped.clone()).await,
        false => {
            app.games.load_subscriptions().await?;
            // Live seeks belong to open pages, and a restarted lone node has none; on a
            // shared database other nodes' pages may still be open.
            app.seeks.clear_live().await
        }
    }
}

/// The HTTP door (JSON API, WebSocket, pages), when the configuration has an address for it.
async fn start_http(config: &Config, app: &App, tasks: &mut Tasks) -> Result<Option<SocketAddr>> {
    let Some(addr) = config.http else {
        return Ok(None);
    };
    let listener = bind(addr).await?;
    let bound = listener.local_addr().map_err(io_error)?;
    let mut options = config.http_options.clone();
    options.limits.per_address = config.rate_limits.http_connections_per_address as usize;
    options.limit_reads = config.rate_limits.public_reads;
    let stopped = tasks.stopped.clone();
    tasks.spawn(http::serve(app.clone(), listener, stopped, options));
    Ok(Some(bound))
}

/// The text door, over TLS when the configuration has its files.
async fn start_text(config: &Config, app: &App, tasks: &mut Tasks) -> Result<Option<SocketAddr>> {
    let Some(addr) = config.text else {
        return Ok(None);
    };
    let tls = config
        .text_tls
        .as_ref()
        .map(|files| files.acceptor())
        .transpose()?;
    let listener = bind(addr).await?;
    let bound = listener.local_addr().map_err(io_error)?;
    let limits = text::Limits {
        idle: config.text_idle,
        per_address: config.rate_limits.text_connections_per_address as usize,
    };
    let stopped = tasks.stopped.clone();
    tasks.spawn(text::serve_with(
        app.clone(),
        listener,
        stopped,
        limits,
        tls,
    ));
    Ok(Some(bound))
}

/// The mail door: its SMTP listener when asked for, the mail worker and the relay; the SMTP
/// listener's address.
async fn start_mail(
    config: &Config,
    app: &App,
    mail: Option<&mail::Mail>,
    tasks: &mut Tasks,
) -> Result<Option<SocketAddr>> {
    let Some(mail) = mail else {
        return match config.smtp {
            Some(_) => Err(Error::Config(
                "--smtp needs the mail door (a mail configuration)".into(),
            )),
            None => Ok(None),
        };
    };
    if let Some(transport) = &mail.config.transport {
        transport.check()?;
    }
    let mut smtp_addr = None;
    if let Some(addr) = config.smtp {
        let listener = bind(addr).await?;
        smtp_addr = Some(listener.local_addr().map_err(io_error)?);
        let stopped = tasks.stopped.clone();
        tasks.spawn(mail::smtp::serve(
            app.clone(),
            mail.clone(),
            listener,
            stopped,
        ));
    }
    let stopped = tasks.stopped.clone();
    tasks.spawn(mail::work(app.clone(), mail.clone(), stopped.clone()));
    tasks.spawn(mail::relay::run(app.clone(), mail.clone(), stopped));
    Ok(smtp_addr)
}

fn io_error(err: std::io::Error) -> Error {
    Error::Config(err.to_string())
}

async fn bind(addr: SocketAddr) -> Result<tokio::net::TcpListener> {
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|err| Error::Config(format!("cannot listen on {addr}: {err}")))
}

/// Applies passed deadlines (nag, forfeit, clocks) every `interval` until stopped, while this
/// node leads.
async fn sweeper(
    games: Games,
    leader: Leader,
    interval: Duration,
    mut stopped: watch::Receiver<bool>,
) {
    let mut ticker = tokio::time::interval(interval);
    loop {
        tokio::select! {
            _ = ticker.tick() => {
                if !leader.leads() {
                    continue;
                }
                if let Err(err) = games.sweep().await {
                    tracing::warn!(%err, "sweeper");
                }
            }
            _ = stopped.changed() => return,
        }
    }
}
