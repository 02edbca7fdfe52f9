//! `ataxx bot`: puts any UAI engine on a server as a bot account. It signs in, marks the
//! account as a bot, listens to the account's WebSocket, accepts the challenges its filters
//! allow (declining others with a reason in the board's chat), and plays every game through its
//! own engine process over UAI. A lost connection is retried and the bot catches up from the
//! game list; an engine that exits, stalls or answers an illegal move is restarted, and the
//! bot resigns only when the restarted engine fails too. docs/bots.md has the protocol.

mod api;
mod engine;

use std::collections::{HashMap, HashSet};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use clap::{Args as ClapArgs, ValueEnum};
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async_tls_with_config, Connector};

use super::tls::{self, Trust, TrustArgs};
use api::{Api, Credentials};
use engine::Engine;

#[derive(ClapArgs)]
pub struct Args {
    /// The server's address, e.g. http://127.0.0.1:8080 or https://ataxx.example.org.
    #[arg(long)]
    server: String,
    #[command(flatten)]
    trust: TrustArgs,
    /// An API token of the bot's account with the `bot:play` scope (made on the site's tokens
    /// page or with POST /api/account/tokens); better than a password, which `ps` shows.
    #[arg(
        long,
        env = "ATAXX_TOKEN",
        hide_env_values = true,
        required_unless_present = "user"
    )]
    token: Option<String>,
    /// The bot's account, signed in with --password instead of a token (made a bot account on
    /// first use; it must have no games yet).
    #[arg(long, conflicts_with = "token", requires = "password")]
    user: Option<String>,
    #[arg(long, requires = "user")]
    password: Option<String>,
    /// Which challenges to accept.
    #[arg(long, value_enum, default_value_t = AcceptFilter::All)]
    accept: AcceptFilter,
    /// Games played at once (one engine process each); challenges beyond are declined.
    #[arg(long, default_value_t = 1)]
    games: usize,
    /// Thinking time per move in correspondence games, in milliseconds (`go movetime`).
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Join this tournament (an engine league) and play its games.
    #[arg(long)]
    tournament: Option<i64>,
    /// Log level.
    #[arg(long, default_value_t = tracing::Level::INFO)]
    log: tracing::Level,
    /// The engine's command and arguments, after `--`.
    #[arg(required = true, last = true)]
    engine: Vec<String>,
}

/// Which challenges the bot accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum AcceptFilter {
    All,
    Rated,
    Casual,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_max_level(args.log)
        .with_writer(std::io::stderr)
        .init();
    // The engine must start before the bot takes any challenge; this also learns its games.
    let probe = Engine::start(&args.engine)?;
    let mut games = vec!["ataxx".to_string()];
    games.extend(probe.variants.iter().filter(|v| *v != "ataxx").cloned());
    drop(probe);
    let trust = Trust::load(&args.trust)?;
    let connector = trust.connector()?;
    let credentials = match (&args.token, &args.user, &args.password) {
        (_, Some(user), Some(password)) => Credentials::Password { user, password },
        (Some(token), _, _) => Credentials::Token(token),
        _ => anyhow::bail!("give --token (or ATAXX_TOKEN), or --user and --password"),
    };
    let api = Api::sign_in(trust.agent(), &args.server, credentials).map_err(tls::explained)?;
    tracing::info!(user = %api.user, games = %games.join(" "), "signed in as a bot");
    if let Some(id) = args.tournament {
        api.join_tournament(id)?;
        tracing::info!(tournament = id, "playing in the tournament");
    }
    let bot = Arc::new(Bot {
        api,
        engine: args.engine,
        games,
        accept: args.accept,
        max_games: args.games.max(1),
        movetime: args.movetime,
        workers: Mutex::default(),
        active: Mutex::default(),
    });
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the runtime")?
        .block_on(listen(bot, connector))
}

struct Bot {
    api: Api,
    engine: Vec<String>,
    /// The games the engine plays.
    games: Vec<String>,
    accept: AcceptFilter,
    max_games: usize,
    movetime: u64,
    /// One worker thread per board, fed the board's summaries.
    workers: Mutex<HashMap<i64, Sender<Value>>>,
    /// Boards in play.
    active: Mutex<HashSet<i64>>,
}

/// Follows the account's events forever, reconnecting after a lost connection.
async fn listen(bot: Arc<Bot>, connector: Connector) -> anyhow::Result<()> {
    let mut backoff = Duration::from_millis(200);
    loop {
        let url = bot.api.socket_url();
        let connecting = connect_async_tls_with_config(url, None, false, Some(connector.clone()));
        match connecting.await {
            Ok((mut socket, _)) => {
                tracing::info!("connected");
                backoff = Duration::from_millis(200);
                catch_up(&bot).await;
                while let Some(Ok(message)) = socket.next().await {
                    let Message::Text(text) = message else {
                        continue;
                    };
                    let Ok(event) = serde_json::from_str::<Value>(&text) else {
                        continue;
                    };
                    match event["type"].as_str() {
                        Some("resync") => catch_up(&bot).await,
                        _ if event["game"].is_object() => bot.dispatch(event["game"].clone()),
                        _ => {}
                    }
                }
                tracing::warn!("connection lost; reconnecting");
            }
            Err(err) => {
                let err = tls::explained(err.into());
                tracing::warn!("cannot connect: {err:#}; retrying")
            }
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(5));
    }
}

/// Feeds every open board to its worker (after a connection, or when told to resync).
async fn catch_up(bot: &Arc<Bot>) {
    let lister = bot.clone();
    match tokio::task::spawn_blocking(move || lister.api.open_boards()).await {
        Ok(Ok(boards)) => boards.into_iter().for_each(|game| bot.dispatch(game)),
        Ok(Err(err)) => tracing::warn!(%err, "catching up"),
        Err(err) => tracing::warn!(%err, "catching up"),
    }
}

impl Bot {
    /// Sends a board's summary to its worker, starting one for a board still open.
    fn dispatch(self: &Arc<Self>, game: Value) {
        let Some(board) = game["board"].as_i64() else {
            return;
        };
        // Counted here, in the order events arrive, so that a challenge read after a game
        // started sees that game.
        {
            let mut active = self.active.lock().expect("bot games");
            match game["status"].as_str() {
                Some("active") => active.insert(board),
                Some("challenge") => false,
                _ => active.remove(&board),
            };
        }
        let mut workers = self.workers.lock().expect("bot workers");
        let game = match workers.get(&board) {
            Some(worker) => match worker.send(game) {
                Ok(()) => return,
                Err(returned) => returned.0,
            },
            None => game,
        };
        if !matches!(game["status"].as_str(), Some("challenge" | "active")) {
            return;
        }
        let (sender, summaries) = channel();
        let _ = sender.send(game);
        workers.insert(board, sender);
        let bot = self.clone();
        std::thread::spawn(move || bot.attend(board, summaries));
    }

    /// A board's worker: answers the challenge, plays each turn, ends with the game.
    fn attend(self: Arc<Self>, board: i64, summaries: Receiver<Value>) {
        let mut engine: Option<Engine> = None;
        let mut version = 0;
        let mut moved_at_ply = -1;
        // A challenge is answered once: the chat line of a refusal brings its summary again.
        let mut answered = false;
        while let Ok(mut game) = summaries.recv() {
            // Only the newest summary matters.
            while let Ok(newer) = summaries.try_recv() {
                game = newer;
            }
            let this_version = game["version"].as_i64().unwrap_or(0);
            if this_version < version {
                continue;
            }
            version = this_version;
            let outcome = match game["status"].as_str() {
                Some("challenge") if answered => Ok(()),
                Some("challenge") => {
                    answered = true;
                    self.answer(board, &game)
                }
                Some("active") => self.play(board, &game, &mut engine, &mut moved_at_ply),
                _ => {
                    tracing::info!(
                        board,
                        status = %game["status"].as_str().unwrap_or("?"),
                        result = %game["result"].as_str().unwrap_or("?"),
                        termination = %game["termination"].as_str().unwrap_or(""),
                        "game over"
                    );
                    break;
                }
            };
            if let Err(err) = outcome {
                tracing::warn!(board, "{err:#}");
            }
        }
        self.active.lock().expect("bot games").remove(&board);
        self.workers.lock().expect("bot workers").remove(&board);
    }

    /// Accepts a challenge the filters allow, or declines it with the reason in the chat.
    fn answer(&self, board: i64, game: &Value) -> anyhow::Result<()> {
        let mine = game["seats"]
            .as_array()
            .and_then(|seats| seats.iter().find(|s| s["name"] == self.api.user.as_str()));
        if mine.is_none_or(|seat| seat["accepted"] == true) {
            return Ok(());
        }
        let kind = game["game"].as_str().unwrap_or("ataxx");
        let rated = game["rated"] == true;
        let playing = self.active.lock().expect("bot games").len();
        let refusal = if !self.games.iter().any(|g| g == kind) {
            Some(format!("this engine plays {} only", self.games.join(", ")))
        } else if self.accept == AcceptFilter::Rated && !rated {
            Some("this bot plays rated games only".to_string())
        } else if self.accept == AcceptFilter::Casual && rated {
            Some("this bot plays casual (unrated) games only".to_string())
        } else if playing >= self.max_games {
            Some(format!(
                "this bot is playing {}, its most at once; try again later",
                games_count(playing)
            ))
        } else {
            None
        };
        match refusal {
            Some(reason) => {
                self.api.act(
                    &format!("/api/games/{board}/chat"),
                    Some(json!({"text": format!("declined: {reason}")})),
                )?;
                self.api.act(&format!("/api/games/{board}/decline"), None)?;
                tracing::info!(board, %reason, "challenge declined");
            }
            None => {
                self.api.act(&format!("/api/games/{board}/accept"), None)?;
                tracing::info!(board, game = kind, rated, "challenge accepted");
            }
        }
        Ok(())
    }

    /// Plays the bot's turn: asks the engine, restarts it once if it fails, resigns if the
    /// restarted engine fails too. Rejects draw and undo offers.
    fn play(
        &self,
        board: i64,
        game: &Value,
        engine: &mut Option<Engine>,
        moved_at_ply: &mut i64,
    ) -> anyhow::Result<()> {
        let me = self.api.user.as_str();
        if game["proposal"].is_object() && game["proposal"]["by"] != me {
            self.api.act(
                &format!("/api/games/{board}/move"),
                Some(json!({"move": "reject"})),
            )?;
            return Ok(());
        }
        let ply = game["ply"].as_i64().unwrap_or(0);
        if game["to_move"] != me || ply == *moved_at_ply {
            return Ok(());
        }
        let kind = game["game"].as_str().unwrap_or("ataxx");
        let fen = game["fen"].as_str().unwrap_or_default();
        let legal: Vec<&str> = game["legal_moves"]
            .as_array()
            .map(|moves| moves.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let (go, within) = self.limits(game);
        for attempt in 1..=2 {
            let answer = match engine {
                Some(running) => running.best_move(kind, fen, &go, within),
                None => Engine::start(&self.engine).and_then(|mut started| {
                    let answer = started.best_move(kind, fen, &go, within);
                    *engine = Some(started);
                    answer
                }),
            };
            let failure = match answer {
                Ok(mv) if legal.iter().any(|l| l.eq_ignore_ascii_case(&mv)) => {
                    let guard = ply + 1;
                    self.api.act(
                        &format!("/api/games/{board}/move"),
                        Some(json!({"move": mv, "guard": guard})),
                    )?;
                    *moved_at_ply = ply;
                    tracing::info!(board, ply = guard, %mv, "played");
                    return Ok(());
                }
                Ok(mv) => format!("the engine answered the illegal move {mv:?} in {fen}"),
                Err(err) => format!("{err:#}"),
            };
            tracing::warn!(board, attempt, %failure, "engine failed; restarting it");
            *engine = None;
        }
        self.api.act(
            &format!("/api/games/{board}/move"),
            Some(json!({"move": "resign"})),
        )?;
        tracing::warn!(board, "resigned: the engine failed twice");
        Ok(())
    }

    /// The `go` arguments of a turn and how long to wait for the answer: a live game passes
    /// the clocks (`btime`/`binc` are x's, `wtime`/`winc` o's, as `ataxx uai` reads them), a
    /// correspondence game the bot's `movetime`.
    fn limits(&self, game: &Value) -> (String, Duration) {
        let clock = &game["clock"];
        match (clock["x_ms"].as_i64(), clock["o_ms"].as_i64()) {
            (Some(x), Some(o)) => {
                let inc = clock["increment_ms"].as_i64().unwrap_or(0);
                let mine = if game["turn"] == "x" { x } else { o };
                let go = format!("btime {x} wtime {o} binc {inc} winc {inc}");
                (go, Duration::from_millis(mine.max(0) as u64 + 5_000))
            }
            _ => (
                format!("movetime {}", self.movetime),
                Duration::from_millis(self.movetime + 10_000),
            ),
        }
    }
}

/// "1 game", "2 games".
fn games_count(n: usize) -> String {
    match n {
        1 => "1 game".to_string(),
        n => format!("{n} games"),
    }
}

#[cfg(test)]
mod tests {
    use super::games_count;

    #[test]
    fn one_game_is_singular() {
        assert_eq!(games_count(1), "1 game");
        assert_eq!(games_count(2), "2 games");
    }
}
