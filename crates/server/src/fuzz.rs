//! The fuzz targets' way in (`fuzz/checks.rs`, whose inputs the `ataxx` tests replay on stable):
//! the parsers they feed, and a table that answers WebSocket messages, without the rooms behind
//! them made public.

use std::net::Ipv4Addr;
use std::sync::atomic::{AtomicI64, Ordering};

use games::GameKind;

use crate::app::App;
use crate::domain::accounts::RateLimits;
use crate::domain::games::{Answer, ChallengeOptions};
use crate::doors::command::{self, Command};
use crate::doors::http::socket_messages::{self, Caller};
use crate::error::Result;
use crate::model::Status;
use crate::server::Config;
use crate::store::Durability;

pub use crate::doors::http::socket_messages::ClientMessage;
pub use crate::doors::mail::parse::{
    comment as mail_comment, parse as parse_mail, Inbound as InboundMail,
};

/// A command line as the command language read it: compared, not looked into.
#[derive(Debug, PartialEq, Eq)]
pub struct ParsedCommand(Command);

/// Reads a command line as every door does; the error is the refusal the door sends.
pub fn parse_command(line: &str) -> Result<ParsedCommand> {
    command::parse(line).map(ParsedCommand)
}

/// The services of a server on a database of their own, with alice (x) and bob (o) signed up
/// and a game in play between them: what the WebSocket check answers messages against.
pub struct SocketTable {
    app: App,
    /// The board in play; a message that ends its game gets a new one for the next input.
    board: AtomicI64,
}

impl SocketTable {
    /// Opens (creating) the SQLite database `db` without rate limits, signs up alice and bob and
    /// starts their game.
    pub async fn open(db: &str) -> Result<SocketTable> {
        let config = Config {
            db: db.to_string(),
            rate_limits: RateLimits::OFF,
            sync: Durability::Normal,
            ..Default::default()
        };
        let app = App::open(&config.app_options(None)).await?;
        for user in ["alice", "bob"] {
            app.accounts.signup(user, "secret-1", &[], None).await?;
        }
        let table = SocketTable {
            app,
            board: AtomicI64::new(0),
        };
        table
            .board
            .store(table.new_game().await?, Ordering::Relaxed);
        Ok(table)
    }

    async fn new_game(&self) -> Result<i64> {
        let players = ["alice".to_string(), "bob".to_string()];
        let options = ChallengeOptions::new(GameKind::Ataxx);
        let games = &self.app.games;
        let game = games.challenge(&players, &options, Some("alice")).await?;
        games.answer(game.board, "bob", Answer::Accept).await?;
        Ok(game.board)
    }

    /// The board in play, after starting a new one if the last input ended it.
    pub async fn board_in_play(&self) -> Result<i64> {
        let board = self.board.load(Ordering::Relaxed);
        if self.app.games.summary(board).await?.status == Status::Active {
            return Ok(board);
        }
        let board = self.new_game().await?;
        self.board.store(board, Ordering::Relaxed);
        Ok(board)
    }

    /// The answer to `message` on a socket of `user` (None: a watcher) from the loopback address,
    /// following `stream_board` (None: the user's stream). A live analysis the message starts
    /// ends with its socket, which closes here once it is answered.
    pub async fn answer(
        &self,
        user: Option<&str>,
        stream_board: Option<i64>,
        message: ClientMessage,
    ) -> String {
        let caller = Caller {
            user,
            address: Ipv4Addr::LOCALHOST.into(),
        };
        let mut live = None;
        socket_messages::answer(&self.app, caller, stream_board, message, &mut live).await
    }
}
