//! The pbmserv command language (spec sections 1-6, 8): one parser and one set of handlers for
//! every door (text port, `POST /api/command`, `ataxx client`).
//!
//! A request is a command line and, optionally, a body (the mail body of pbmserv: a chat message
//! or a comment). Replies carry text (what pbmserv mailed) and JSON; `--json` anywhere in the
//! command asks a door for the JSON.
//!
//! [`parse`] reads a line into a [`Command`]; [`execute`] runs it ([`execute_parsed`] runs one a
//! door has read already), each command one call into the domain, and renders the [`Reply`]
//! (`run` for the commands that change things, `mail` for those that mail, `views` for those that
//! only read).

use std::net::IpAddr;

use games::GameKind;

use crate::domain::games::{Action, Answer, ChallengeOptions};
use crate::error::Error;
use crate::App;

mod accounts;
mod admin;
mod analysis;
mod help;
pub(crate) mod mail;
mod parse;
mod parse_game;
mod parse_tournament;
mod reply;
mod run;
mod tournaments;
mod views;
mod words;

use crate::domain::listings::Selection;
pub use admin::AdminCommand;
pub use parse::parse;
pub use parse_tournament::{TournamentAct, TournamentCommand};
pub use reply::Reply;
pub use words::wants_json;

/// The longest command line.
pub const MAX_LINE: usize = 4096;

/// A command as a door received it.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub line: String,
    /// Text after the command line (chat message), if the door has one.
    pub body: Option<String>,
    /// The client's address (signup and failed-login limits).
    pub peer: Option<IpAddr>,
}

/// A parsed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Signup {
        userid: String,
        password: String,
        addresses: Vec<String>,
    },
    ChangePassword {
        userid: String,
        current: String,
        new: String,
    },
    ChangeAddress {
        userid: String,
        password: String,
        addresses: Vec<String>,
    },
    /// `signoff` and `delete`.
    Close {
        userid: String,
        password: String,
    },
    Help {
        subjects: Vec<String>,
    },
    List,
    /// `message <userid> <password> <to>...`: mails the body to those users.
    Message {
        userid: String,
        password: String,
        to: Vec<String>,
    },
    /// `confirm address <userid> <token>`: the answer to a `change address` confirmation mail.
    ConfirmAddress {
        userid: String,
        token: String,
    },
    /// `reset <userid|address>`: mails a password reset token to the account's confirmed
    /// addresses (the same answer whatever the account).
    ResetRequest {
        who: String,
    },
    /// `reset <token> <new password>`: sets the password with the mailed token.
    Reset {
        token: String,
        password: String,
    },
    /// `broadcast <userid> <password>`: mails the body to everyone (admins only).
    Broadcast {
        userid: String,
        password: String,
    },
    /// `admin <act> <userid> <password> …`: the server admins' acts (`serve --admin` only).
    Admin {
        act: AdminCommand,
        userid: String,
        password: String,
        /// The words after the target, as one line (empty when none).
        reason: String,
    },
    /// `change mail <userid> <password> <event>...|all|none`: which events mail the user.
    MailEvents {
        userid: String,
        password: String,
        events: Vec<String>,
    },
    /// Moves a test server's clock (`clock advance <seconds>`), then runs the sweeper.
    ClockAdvance {
        seconds: i64,
    },
    GameHelp {
        game: GameKind,
    },
    Challenge {
        options: ChallengeOptions,
        /// In seat order: the first moves first.
        players: Vec<String>,
        /// `-password=`: the challenger's (the first person named). A server that sends mail
        /// needs it, since the challenge mails the players.
        password: Option<String>,
    },
    /// `subscribe` / `unsubscribe`.
    Subscribe {
        board: i64,
        userid: String,
        password: String,
        on: bool,
    },
    /// `queue` (and `qmove`, `qboard`, `moveq`, `boardq`).
    Queue {
        board: i64,
        userid: String,
        password: String,
        text: String,
        guard: Option<i64>,
    },
    /// `move`/`board`/`mvoe` and `resign`.
    Act {
        board: i64,
        userid: String,
        password: String,
        action: Action,
        guard: Option<i64>,
    },
    Answer {
        board: i64,
        userid: String,
        password: String,
        answer: Answer,
    },
    /// `accept`/`reject <userid> <password>`: take or refuse challenges.
    Policy {
        userid: String,
        password: String,
        accept: bool,
    },
    Limit {
        userid: String,
        password: String,
        limit: i64,
    },
    /// `vacation <userid> <password> <days>|off`: away for some days (correspondence clocks
    /// paused), or back (None).
    Vacation {
        userid: String,
        password: String,
        days: Option<i64>,
    },
    /// `seek <userid> <password> <n>`: take n open seeks that match, posting seeks for the
    /// rest; `0` withdraws the user's seeks of the game.
    Seek {
        userid: String,
        password: String,
        count: usize,
        request: crate::domain::seeks::SeekRequest,
    },
    Chat {
        board: i64,
        userid: String,
        password: String,
        message: String,
    },
    ShowBoards {
        boards: Vec<(i64, Option<usize>)>,
    },
    /// The boards of `game` where these users play.
    ShowUsers {
        game: GameKind,
        users: Vec<String>,
        selection: Selection,
    },
    /// The boards of `game` (where these users play, if any are named).
    Games {
        game: GameKind,
        users: Vec<String>,
        selection: Selection,
    },
    History {
        game: GameKind,
    },
    Standings {
        game: GameKind,
    },
    Preview {
        board: i64,
        moves: Vec<String>,
    },
    /// `<game> analysis <board> [<userid> <password>]`: asks for the board's computer analysis if
    /// it is not there, and shows its summary and flagged moves once done.
    Analysis {
        board: i64,
        userid: Option<String>,
        password: Option<String>,
    },
    /// `ataxx pgn <board>` and `ataxx record <board>` \[project\]: the game as PGN or as the 1995
    /// two-column record with flip counts.
    Export {
        board: i64,
        format: ExportFormat,
    },
    /// `tournament list|show|create|join|withdraw|start …` (issue 34).
    Tournament(TournamentCommand),
}

/// The export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    Pgn,
    Record,
}

/// Parses and runs one request.
pub async fn execute(app: &App, request: &Request) -> Reply {
    match parse(request.line.trim()) {
        Ok(command) => execute_parsed(app, request, &command).await,
        Err(err) => Reply::error(&err, None),
    }
}

/// Runs a request's command, parsed already by a door that reads the command itself too (the
/// mail door: a signup's addresses, a move's comment, whom to answer).
pub async fn execute_parsed(app: &App, request: &Request, command: &Command) -> Reply {
    match run::run(app, request, command).await {
        Ok(reply) => reply,
        Err(err) => {
            if let Error::Database(db) = &err {
                tracing::error!(%db, "database error in a command");
            }
            // pbmserv answers a refused move with the board (spec section 5).
            let board = match err.board().or(command.board()) {
                Some(board) => reply::board_mail(app, board, None).await.ok(),
                None => None,
            };
            Reply::error(&err, board)
        }
    }
}

impl Command {
    /// The account a command is authenticated as (its reply goes to that account's addresses).
    pub fn userid(&self) -> Option<&str> {
        match self {
            Command::ChangePassword { userid, .. }
            | Command::ChangeAddress { userid, .. }
            | Command::Close { userid, .. }
            | Command::Message { userid, .. }
            | Command::Broadcast { userid, .. }
            | Command::Admin { userid, .. }
            | Command::ConfirmAddress { userid, .. }
            | Command::MailEvents { userid, .. }
            | Command::Subscribe { userid, .. }
            | Command::Queue { userid, .. }
            | Command::Act { userid, .. }
            | Command::Answer { userid, .. }
            | Command::Policy { userid, .. }
            | Command::Limit { userid, .. }
            | Command::Vacation { userid, .. }
            | Command::Chat { userid, .. } => Some(userid),
            Command::Tournament(
                TournamentCommand::Create { userid, .. } | TournamentCommand::Act { userid, .. },
            ) => Some(userid),
            Command::Analysis {
                userid: Some(userid),
                ..
            } => Some(userid),
            _ => None,
        }
    }

    /// The board a command acts on.
    pub fn board(&self) -> Option<i64> {
        match self {
            Command::Act { board, .. }
            | Command::Queue { board, .. }
            | Command::Subscribe { board, .. }
            | Command::Answer { board, .. }
            | Command::Chat { board, .. } => Some(*board),
            _ => None,
        }
    }
}
