//! The pbmserv command language (spec sections 1-6, 8): one parser and one set of handlers for
//! every door (text port, `POST /api/command`, `ataxx client`).
//!
//! A request is a command line and, optionally, a body (the mail body of pbmserv: a chat message
//! or a comment). Replies carry text (what pbmserv mailed) and JSON; `--json` anywhere in the
//! command asks a door for the JSON.

use std::net::IpAddr;

use serde::Serialize;
use serde_json::{json, Value};

use games::GameKind;

use crate::domain::games::{Action, Answer, ChallengeOptions, GameSummary};
use crate::doors::render::board;
use crate::error::{Error, Result};
use crate::model::GameFilter;
use crate::model::Status;
use crate::store;
use crate::App;

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

/// A reply: a subject, the text pbmserv would have mailed, and the same as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct Reply {
    pub ok: bool,
    pub subject: String,
    pub text: String,
    pub data: Value,
}

impl Reply {
    pub(crate) fn ok(subject: impl Into<String>, text: impl Into<String>, data: Value) -> Reply {
        Reply {
            ok: true,
            subject: subject.into(),
            text: text.into(),
            data,
        }
    }

    /// The reply to a refused command; `board` is the board's mail when the error concerns one.
    pub fn error(err: &Error, board: Option<String>) -> Reply {
        let mut text = format!("error: {err}\n");
        if let Some(board) = &board {
            text.push('\n');
            text.push_str(board);
        }
        Reply {
            ok: false,
            subject: format!("error: {err}"),
            text,
            data: json!({"code": err.code(), "message": err.to_string()}),
        }
    }

    /// The JSON form: `{"ok", "subject", "text", "data"}` (`data` holds `code` and `message`
    /// for errors).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("replies serialize")
    }
}

/// What a `games` or `show <userid>` listing selects (spec section 3), plus `open` (challenges
/// waiting for acceptance) and `recent` (latest finished games).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    All,
    Active,
    Inactive,
    Next,
    Open,
    Recent,
}

impl Selection {
    fn parse(word: &str) -> Option<Selection> {
        Some(match word {
            "all" => Selection::All,
            "active" => Selection::Active,
            "inactive" => Selection::Inactive,
            "next" => Selection::Next,
            "open" | "challenges" => Selection::Open,
            "recent" => Selection::Recent,
            _ => return None,
        })
    }

    fn statuses(self) -> Vec<Status> {
        match self {
            Selection::All => vec![],
            Selection::Active | Selection::Next => vec![Status::Active],
            Selection::Inactive | Selection::Recent => vec![Status::Finished],
            Selection::Open => vec![Status::Challenge],
        }
    }
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
    /// `broadcast <userid> <password>`: mails the body to everyone (admins only).
    Broadcast {
        userid: String,
        password: String,
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
    /// `ataxx pgn <board>` and `ataxx record <board>` \[project\]: the game as PGN or as the 1995
    /// two-column record with flip counts.
    Export {
        board: i64,
        format: ExportFormat,
    },
}

/// The export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    Pgn,
    Record,
}

/// The command words and options of a line.
struct Words {
    words: Vec<String>,
    /// `-name[=value]` game options, in order.
    options: Vec<(String, Option<String>)>,
    /// `--name[=value]` framework options, in order.
    framework: Vec<(String, Option<String>)>,
}

fn split_option(text: &str) -> (String, Option<String>) {
    match text.split_once('=') {
        Some((name, value)) => (name.to_ascii_lowercase(), Some(value.to_string())),
        None => (text.to_ascii_lowercase(), None),
    }
}

/// Splits a line into words, taking out options (`-x`, `--x`, with a letter after the dashes, so
/// that the move text `--` stays a word) and dropping a lone `**`.
fn words(line: &str) -> Words {
    let mut out = Words {
        words: vec![],
        options: vec![],
        framework: vec![],
    };
    for (i, word) in line.split_whitespace().enumerate() {
        let starts_letter = |rest: &str| rest.starts_with(|c: char| c.is_ascii_alphabetic());
        if i > 0 && word.starts_with("--") && starts_letter(&word[2..]) {
            out.framework.push(split_option(&word[2..]));
        } else if i > 0 && word.starts_with('-') && starts_letter(&word[1..]) {
            out.options.push(split_option(&word[1..]));
        } else if word != "**" {
            out.words.push(word.to_string());
        }
    }
    out
}

/// Whether the line asks for a JSON reply (`--json`).
pub fn wants_json(line: &str) -> bool {
    words(line).framework.iter().any(|(name, _)| name == "json")
}

fn usage(text: &str) -> Error {
    Error::Command(format!("usage: {text}"))
}

fn board_number(word: &str) -> Result<i64> {
    word.parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| Error::Command(format!("{word:?} is not a board number")))
}

/// `101` or `101#5`.
fn board_and_move(word: &str) -> Result<(i64, Option<usize>)> {
    match word.split_once('#') {
        Some((board, n)) => {
            let n = n
                .parse::<usize>()
                .map_err(|_| Error::Command(format!("{word:?}: #N needs a move number")))?;
            Ok((board_number(board)?, Some(n)))
        }
        None => Ok((board_number(word)?, None)),
    }
}

/// Abbreviations of spec section 3: a word stands for `full` if it is at least `min` letters of it.
fn abbreviates(word: &str, full: &str, min: usize) -> bool {
    word.len() >= min && full.starts_with(word)
}

/// Parses a command line.
///
/// ```
/// use ataxx_server::doors::command::{parse, Command};
/// use ataxx_server::domain::games::Action;
/// let cmd = parse("ataxx move 101 alice s3cret c3b5#9").unwrap();
/// assert_eq!(cmd, Command::Act {
///     board: 101, userid: "alice".into(), password: "s3cret".into(),
///     action: Action::Play("c3b5".into()), guard: Some(9),
/// });
/// assert!(parse("ataxx move 101 alice").is_err());
/// ```
pub fn parse(line: &str) -> Result<Command> {
    if line.len() > MAX_LINE {
        return Err(Error::TooLong {
            what: "a command line",
            max: MAX_LINE,
        });
    }
    let Words {
        words,
        options,
        framework,
    } = words(line);
    let framework: Vec<_> = framework.into_iter().filter(|(n, _)| n != "json").collect();
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    let Some(first) = w.first() else {
        return Err(Error::Command("empty command; try help".into()));
    };
    let first = first.to_ascii_lowercase();
    let s = |i: usize| w[i].to_string();
    let rest = |i: usize| {
        w.get(i..)
            .unwrap_or(&[])
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    let no_options = |what: &str| -> Result<()> {
        match options.first().or(framework.first()) {
            Some((name, _)) => Err(Error::Command(format!("{what} takes no option -{name}"))),
            None => Ok(()),
        }
    };
    let game = first.parse::<GameKind>().ok();
    if game.is_none() {
        no_options(&first)?;
    }
    Ok(match first.as_str() {
        "signup" if w.len() >= 3 => Command::Signup {
            userid: s(1),
            password: s(2),
            addresses: rest(3),
        },
        "signup" => return Err(usage("signup <userid> <password> [<address>...]")),
        "change" => match w.get(1).map(|w| w.to_ascii_lowercase()).as_deref() {
            Some("password") if w.len() == 5 => Command::ChangePassword {
                userid: s(2),
                current: s(3),
                new: s(4),
            },
            Some("address") if w.len() >= 4 => Command::ChangeAddress {
                userid: s(2),
                password: s(3),
                addresses: rest(4),
            },
            Some("mail") if w.len() >= 5 => Command::MailEvents {
                userid: s(2),
                password: s(3),
                events: rest(4).into_iter().map(|e: String| e.to_ascii_lowercase()).collect(),
            },
            _ => {
                return Err(usage(
                    "change password <userid> <current> <new> | change address <userid> <password> [<address>...] | change mail <userid> <password> <event>...|all|none",
                ))
            }
        },
        "message" if w.len() >= 4 => Command::Message {
            userid: s(1),
            password: s(2),
            to: rest(3).into_iter().map(|t: String| t.to_ascii_lowercase()).collect(),
        },
        "message" => return Err(usage("message <userid> <password> <to>... (the mail body is the message)")),
        "confirm" if w.len() == 4 && w[1].eq_ignore_ascii_case("address") => Command::ConfirmAddress {
            userid: s(2).to_ascii_lowercase(),
            token: s(3),
        },
        "confirm" => return Err(usage("confirm address <userid> <token> (from the confirmation mail)")),
        "broadcast" if w.len() == 3 => Command::Broadcast {
            userid: s(1),
            password: s(2),
        },
        "broadcast" => return Err(usage("broadcast <userid> <password> (the mail body is the message)")),
        "signoff" | "delete" if w.len() == 3 => Command::Close {
            userid: s(1),
            password: s(2),
        },
        "signoff" | "delete" => return Err(usage(&format!("{first} <userid> <password>"))),
        "help" => Command::Help {
            subjects: rest(1).into_iter().map(|s: String| s.to_ascii_lowercase()).collect(),
        },
        "list" => Command::List,
        "clock" if w.len() == 3 && w[1].eq_ignore_ascii_case("advance") => Command::ClockAdvance {
            seconds: w[2]
                .parse()
                .ok()
                .filter(|s| *s > 0)
                .ok_or_else(|| usage("clock advance <seconds>"))?,
        },
        _ if game.is_some() => {
            parse_game(game.expect("a game"), &w[1..], options, framework)?
        }
        _ => {
            return Err(Error::Command(format!(
                "unknown command {first:?}; commands: signup, change, signoff, delete, help, list, \
                 <game> <command> with a game of {} (try: help commands)",
                GameKind::names()
            )))
        }
    })
}

/// `<game> seek [-size=N] [-blocks=B] [-clock=M+S] [-color=x|o|random] [-unrated]
/// [-rating_min=R] [-rating_max=R] <userid> <password> <n>`.
fn parse_seek(
    game: GameKind,
    w: &[&str],
    options: &[(String, Option<String>)],
    framework: &[(String, Option<String>)],
) -> Result<Command> {
    let usage_text = format!(
        "{game} seek [-size=N] [-blocks=B] [-clock=M+S] [-color=x|o|random] [-unrated] \
         [-rating_min=R] [-rating_max=R] <userid> <password> <n> (n from 0 to {})",
        crate::domain::seeks::MAX_SEEKS_PER_USER
    );
    if w.len() != 4 {
        return Err(usage(&usage_text));
    }
    let count = w[3]
        .parse::<usize>()
        .ok()
        .filter(|n| *n <= crate::domain::seeks::MAX_SEEKS_PER_USER)
        .ok_or_else(|| usage(&usage_text))?;
    let mut request = crate::domain::seeks::SeekRequest {
        options: ChallengeOptions::new(game),
        rated: true,
        color: crate::domain::seeks::SeekColor::Random,
        rating_min: None,
        rating_max: None,
    };
    let rating = |name: &str, value: Option<&str>| -> Result<Option<i64>> {
        value
            .and_then(|v| v.parse::<i64>().ok())
            .map(Some)
            .ok_or_else(|| Error::Command(format!("-{name} needs a rating, e.g. -{name}=1400")))
    };
    for (name, value) in options.iter().chain(framework) {
        match name.as_str() {
            "unrated" => request.rated = false,
            "color" | "colour" => {
                request.color =
                    crate::domain::seeks::SeekColor::parse(value.as_deref().unwrap_or(""))?
            }
            "rating_min" => request.rating_min = rating(name, value.as_deref())?,
            "rating_max" => request.rating_max = rating(name, value.as_deref())?,
            _ => request.options.set(name, value.as_deref())?,
        }
    }
    Ok(Command::Seek {
        userid: w[1].to_string(),
        password: w[2].to_string(),
        count,
        request,
    })
}

/// A game's command (the words after the game's name).
fn parse_game(
    game: GameKind,
    w: &[&str],
    options: Vec<(String, Option<String>)>,
    framework: Vec<(String, Option<String>)>,
) -> Result<Command> {
    let Some(word) = w.first() else {
        return Err(usage(&format!("{game} <command> ... (try: {game} help)")));
    };
    let word = word.to_ascii_lowercase();
    let s = |i: usize| w[i].to_string();
    if !abbreviates(&word, "challenge", 5) && word != "seek" {
        if let Some((name, _)) = options.first().or(framework.first()) {
            return Err(Error::Command(format!(
                "{game} {word} takes no option -{name}"
            )));
        }
    }
    let user_filter = |args: &[&str]| -> Result<(Vec<String>, Selection)> {
        let mut users = vec![];
        let mut selection = None;
        for arg in args {
            match Selection::parse(&arg.to_ascii_lowercase()) {
                Some(sel) => selection = Some(sel),
                None => users.push(arg.to_ascii_lowercase()),
            }
        }
        Ok((users, selection.unwrap_or(Selection::Active)))
    };
    Ok(match word.as_str() {
        "help" => Command::GameHelp { game },
        w0 if abbreviates(w0, "challenge", 5) => {
            let mut opts = ChallengeOptions::new(game);
            for (name, value) in options.iter().chain(framework.iter()) {
                opts.set(name, value.as_deref())?;
            }
            if w.len() < 3 {
                return Err(usage(&format!(
                    "{game} challenge [-<option>=<value>...] <userid1> <userid2> [<userid3> <userid4>] [--nagtime=N] [--forfeittime=N] [--totaltime=N]",
                )));
            }
            Command::Challenge {
                options: opts,
                players: w[1..].iter().map(|p| p.to_string()).collect(),
            }
        }
        "move" | "board" | "mvoe" | "queue" | "qmove" | "qboard" | "moveq" | "boardq" => {
            if w.len() != 5 {
                return Err(usage(&format!(
                    "{game} {word} <board> <userid> <password> <move>[#N]"
                )));
            }
            let (text, guard) = match w[4].split_once('#') {
                Some((text, n)) => (
                    text,
                    Some(n.parse::<i64>().map_err(|_| {
                        Error::Command(format!("{:?}: #N needs a move number", w[4]))
                    })?),
                ),
                None => (w[4], None),
            };
            let board = board_number(w[1])?;
            match word.as_str() {
                "move" | "board" | "mvoe" => Command::Act {
                    board,
                    userid: s(2),
                    password: s(3),
                    action: Action::parse(text),
                    guard,
                },
                _ => Command::Queue {
                    board,
                    userid: s(2),
                    password: s(3),
                    text: text.to_string(),
                    guard,
                },
            }
        }
        "resign" => {
            if w.len() != 4 {
                return Err(usage(&format!("{game} resign <board> <userid> <password>")));
            }
            Command::Act {
                board: board_number(w[1])?,
                userid: s(2),
                password: s(3),
                action: Action::Resign,
                guard: None,
            }
        }
        "accept" | "reject" | "decline" | "withdraw" if w.len() == 4 => Command::Answer {
            board: board_number(w[1])?,
            userid: s(2),
            password: s(3),
            answer: match word.as_str() {
                "accept" => Answer::Accept,
                "withdraw" => Answer::Withdraw,
                _ => Answer::Decline,
            },
        },
        "accept" | "reject" if w.len() == 3 => Command::Policy {
            userid: s(1),
            password: s(2),
            accept: word == "accept",
        },
        "accept" | "reject" | "decline" | "withdraw" => {
            return Err(usage(&format!(
                "{game} accept|decline|withdraw <board> <userid> <password>, or {game} accept|reject <userid> <password>",
            )))
        }
        "limit" => {
            if w.len() != 4 {
                return Err(usage(&format!("{game} limit <userid> <password> <n>")));
            }
            Command::Limit {
                userid: s(1),
                password: s(2),
                limit: w[3]
                    .parse()
                    .ok()
                    .filter(|n| (0..=10_000).contains(n))
                    .ok_or_else(|| usage(&format!("{game} limit <userid> <password> <n> (n from 0)")))?,
            }
        }
        "seek" => parse_seek(game, w, &options, &framework)?,
        "chat" => {
            if w.len() < 4 {
                return Err(usage(&format!("{game} chat <board> <userid> <password> [<message>]")));
            }
            Command::Chat {
                board: board_number(w[1])?,
                userid: s(2),
                password: s(3),
                message: w[4..].join(" "),
            }
        }
        "show" => {
            let args = &w[1..];
            if args.is_empty() {
                return Err(usage(&format!("{game} show <board>[#N]... | {game} show <userid>... [all|active|inactive|next]")));
            }
            if args[0].starts_with(|c: char| c.is_ascii_digit()) {
                Command::ShowBoards {
                    boards: args.iter().map(|a| board_and_move(a)).collect::<Result<_>>()?,
                }
            } else {
                let (users, selection) = user_filter(args)?;
                Command::ShowUsers {
                    game,
                    users,
                    selection,
                }
            }
        }
        "games" => {
            let (users, selection) = user_filter(&w[1..])?;
            Command::Games {
                game,
                users,
                selection,
            }
        }
        "pgn" | "record" => {
            if w.len() != 2 {
                return Err(usage(&format!("{game} {word} <board>")));
            }
            Command::Export {
                board: board_number(w[1])?,
                format: if word == "pgn" { ExportFormat::Pgn } else { ExportFormat::Record },
            }
        }
        "history" => Command::History { game },
        "standings" | "ratings" => Command::Standings { game },
        w0 if abbreviates(w0, "subscribe", 3) || abbreviates(w0, "unsubscribe", 5) => {
            if w.len() != 4 {
                return Err(usage(&format!("{game} {word} <board> <userid> <password>")));
            }
            Command::Subscribe {
                board: board_number(w[1])?,
                userid: s(2),
                password: s(3),
                on: w0.starts_with("sub"),
            }
        }
        w0 if abbreviates(w0, "preview", 4) => {
            if w.len() < 3 {
                return Err(usage(&format!("{game} preview <board> <move>...")));
            }
            Command::Preview {
                board: board_number(w[1])?,
                moves: w[2..].iter().map(|m| m.to_string()).collect(),
            }
        }
        _ => {
            return Err(Error::Command(format!(
                "unknown ataxx command {word:?}; commands: help, challenge, accept, decline, \
                 withdraw, reject, move, queue, resign, chat, subscribe, unsubscribe, show, games, \
                 history, standings, limit, preview, pgn, record"
            )))
        }
    })
}

/// Parses and runs one request.
pub async fn execute(app: &App, request: &Request) -> Reply {
    let command = match parse(request.line.trim()) {
        Ok(command) => command,
        Err(err) => return Reply::error(&err, None),
    };
    match run(app, request, &command).await {
        Ok(reply) => reply,
        Err(err) => {
            if let Error::Database(db) = &err {
                tracing::error!(%db, "database error in a command");
            }
            // pbmserv answers a refused move with the board (spec section 5).
            let board = match err.board().or(command.board()) {
                Some(board) => board_mail(app, board, None).await.ok(),
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
            | Command::ConfirmAddress { userid, .. }
            | Command::MailEvents { userid, .. }
            | Command::Subscribe { userid, .. }
            | Command::Queue { userid, .. }
            | Command::Act { userid, .. }
            | Command::Answer { userid, .. }
            | Command::Policy { userid, .. }
            | Command::Limit { userid, .. }
            | Command::Chat { userid, .. } => Some(userid),
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

async fn board_mail(app: &App, board: i64, at: Option<usize>) -> Result<String> {
    let view = app.games.view(board).await?;
    Ok(board::mail(&view, at, app.games.now_ms()))
}

/// The reply to a change already committed: the board's mail, or, when the board cannot be read
/// back at once (the database refused a connection just after the commit), the board's summary
/// and why. A change that was made is never answered with an error, which would send its author
/// to repeat it.
async fn board_reply(app: &App, game: GameSummary) -> Reply {
    let text = match board_mail(app, game.board, None).await {
        Ok(text) => text,
        Err(err) => {
            tracing::warn!(board = game.board, %err, "board not shown after a committed change");
            format!(
                "Done.\n{}\n\nThe board cannot be shown now ({err}); `show {}` shows it later.\n",
                summary_line(&game),
                game.board
            )
        }
    };
    Reply::ok(board::subject(&game), text, json!(game))
}

fn summary_line(game: &GameSummary) -> String {
    format!(
        "{:>5}  {:<10} {} (x) vs {} (o)  {}",
        game.board,
        game.status,
        game.x,
        game.o,
        board::status(game)
    )
}

async fn run(app: &App, request: &Request, command: &Command) -> Result<Reply> {
    let accounts = &app.accounts.from_peer(request.peer);
    let games = &app.games;
    Ok(match command {
        Command::Signup {
            userid,
            password,
            addresses,
        } => {
            let user = accounts
                .signup(userid, password, addresses, request.peer)
                .await?;
            Reply::ok(
                format!("signed up {}", user.name),
                format!(
                    "Welcome, {}. Challenge someone with: ataxx challenge {} <userid>\n",
                    user.name, user.name
                ),
                json!({"userid": user.name}),
            )
        }
        Command::ChangePassword {
            userid,
            current,
            new,
        } => {
            accounts.change_password(userid, current, new).await?;
            Reply::ok("password changed", "Password changed.\n", json!({}))
        }
        Command::ChangeAddress {
            userid,
            password,
            addresses,
        } if app.mail.is_some() && !addresses.is_empty() => {
            let user = accounts.verify(userid, password).await?;
            crate::doors::mail::commands::request_address_change(app, &user, addresses).await?
        }
        Command::ChangeAddress {
            userid,
            password,
            addresses,
        } => {
            accounts
                .change_addresses(userid, password, addresses)
                .await?;
            Reply::ok(
                "address changed",
                "Addresses changed.\n",
                json!({"addresses": addresses}),
            )
        }
        Command::Close { userid, password } => {
            let name = accounts.close(userid, password).await?;
            let left = games.leave_all(&name).await?;
            Reply::ok(
                format!("account {name} closed"),
                format!(
                    "Account {name} is closed; its games stay on record.\n{}",
                    left.describe()
                ),
                json!({"userid": name, "resigned": left.resigned, "cancelled": left.cancelled}),
            )
        }
        Command::Help { subjects } => {
            let text = match subjects.first().map(String::as_str) {
                Some("ataxx") => GAME_HELP.to_string(),
                Some("tutorial") => TUTORIAL.to_string(),
                None | Some("commands") => COMMANDS_HELP.to_string(),
                Some(topic) => {
                    return Err(Error::Command(format!(
                        "unknown help topic {topic:?}; topics: commands, tutorial, ataxx"
                    )))
                }
            };
            Reply::ok("help", text, json!({}))
        }
        Command::GameHelp { game } => Reply::ok(
            format!("{game} help"),
            game_help(*game),
            json!({"game": game.name()}),
        ),
        Command::List => {
            let mut conn = app.storage.read().await?;
            let players = store::users(&mut conn).await?.len();
            let mut text = String::new();
            let mut counts = vec![];
            for game in GameKind::ALL {
                let active = store::count_games(&mut conn, game.name(), Status::Active).await?;
                text.push_str(&format!("{game}: {active} boards in play\n"));
                counts.push(json!({"game": game.name(), "active": active, "players": players}));
            }
            text.push_str(&format!("{players} players\n"));
            Reply::ok("list", text, json!({"games": counts}))
        }
        Command::Message {
            userid,
            password,
            to,
        } => {
            let user = accounts.verify(userid, password).await?;
            crate::doors::mail::commands::message(app, &user, Some(to), request.body.as_deref())
                .await?
        }
        Command::ConfirmAddress { userid, token } => {
            crate::doors::mail::commands::confirm_address(app, userid, token).await?
        }
        Command::Broadcast { userid, password } => {
            let user = accounts.verify(userid, password).await?;
            crate::doors::mail::commands::message(app, &user, None, request.body.as_deref()).await?
        }
        Command::MailEvents {
            userid,
            password,
            events,
        } => {
            let user = accounts.verify(userid, password).await?;
            crate::doors::mail::commands::set_events(app, &user, events).await?
        }
        Command::ClockAdvance { seconds } => {
            app.clock
                .advance(seconds.saturating_mul(1000))
                .map_err(|e| Error::Command(e.to_string()))?;
            let changed = games.sweep().await?;
            Reply::ok(
                "clock advanced",
                format!("Clock advanced {seconds} s; {changed} boards changed.\n"),
                json!({"now_ms": app.clock.now_ms(), "changed": changed}),
            )
        }
        Command::Challenge { options, players } => {
            let game = games.challenge(players, options, None).await?;
            board_reply(app, game).await
        }
        Command::Act {
            board,
            userid,
            password,
            action,
            guard,
        } => {
            let user = accounts.verify(userid, password).await?;
            let game = games.act(*board, &user, action, *guard).await?;
            board_reply(app, game).await
        }
        Command::Subscribe {
            board,
            userid,
            password,
            on,
        } => {
            let user = accounts.verify(userid, password).await?;
            let game = games.subscribe(*board, &user, *on).await?;
            let mut reply = board_reply(app, game).await;
            let what = if *on { "follows" } else { "no longer follows" };
            reply.text = format!("{user} {what} board {board}.\n\n{}", reply.text);
            reply
        }
        Command::Queue {
            board,
            userid,
            password,
            text,
            guard,
        } => {
            let user = accounts.verify(userid, password).await?;
            let before = games.queued_move_of(*board, &user).await?;
            let (game, stored) = games.queue(*board, &user, text, *guard).await?;
            let mut reply = board_reply(app, game).await;
            if stored {
                let replaced = match before {
                    Some(before) => format!(" It replaces the move queued before, {before}."),
                    None => String::new(),
                };
                reply.text = format!(
                    "Queued {text} for {user}: played when it is {user}'s turn.{replaced}\n\n{}",
                    reply.text
                );
            }
            reply
        }
        Command::Answer {
            board,
            userid,
            password,
            answer,
        } => {
            let user = accounts.verify(userid, password).await?;
            let game = games.answer(*board, &user, *answer).await?;
            board_reply(app, game).await
        }
        Command::Policy {
            userid,
            password,
            accept,
        } => {
            let user = accounts.verify(userid, password).await?;
            let limit = current_user(app, &user).await?.game_limit;
            let mut tx = app.storage.write().await?;
            store::set_challenge_policy(&mut tx, &user, !accept, limit).await?;
            tx.commit().await?;
            let what = if *accept { "accepts" } else { "refuses" };
            Reply::ok(
                format!("{user} {what} challenges"),
                format!("{user} now {what} ataxx challenges.\n"),
                json!({"userid": user, "accepts_challenges": accept}),
            )
        }
        Command::Limit {
            userid,
            password,
            limit,
        } => {
            let user = accounts.verify(userid, password).await?;
            let refuses = current_user(app, &user).await?.refuses_challenges;
            let mut tx = app.storage.write().await?;
            store::set_challenge_policy(&mut tx, &user, refuses, Some(*limit)).await?;
            tx.commit().await?;
            Reply::ok(
                format!("{user} limit {limit}"),
                format!("{user} plays at most {limit} ataxx games at once.\n"),
                json!({"userid": user, "limit": limit}),
            )
        }
        Command::Seek {
            userid,
            password,
            count,
            request,
        } => {
            let user = accounts.verify(userid, password).await?;
            seek_reply(app, &user, *count, request).await?
        }
        Command::Chat {
            board,
            userid,
            password,
            message,
        } => {
            let user = accounts.verify(userid, password).await?;
            let body = match &request.body {
                Some(body) if !body.trim().is_empty() => body.clone(),
                _ => message.clone(),
            };
            let chat = games.chat(*board, &user, &body).await?;
            Reply::ok(
                format!("ataxx chat {board} {user}"),
                format!("{user} writes:\n  {}\n", chat.body),
                json!(chat),
            )
        }
        Command::ShowBoards { boards } => {
            let mut texts = vec![];
            let mut data = vec![];
            for (board, at) in boards {
                let view = games.view(*board).await?;
                let mut text = board::mail(&view, *at, games.now_ms());
                if let Some(at) = at.filter(|&at| at > view.moves.len()) {
                    text = format!(
                        "Board {board} has {} moves: #{at} is beyond the end; this is the current position.\n\n{text}",
                        view.moves.len()
                    );
                }
                texts.push(text);
                data.push(json!(view));
            }
            let subject = match boards.as_slice() {
                [(board, _)] => board::subject(&games.summary(*board).await?),
                _ => format!("ataxx boards {}", boards.len()),
            };
            Reply::ok(
                subject,
                texts.join("\n----------------------------------------\n\n"),
                json!(data),
            )
        }
        Command::ShowUsers {
            game,
            users,
            selection,
        } => {
            let list = listing(app, *game, users, *selection).await?;
            let mut texts = vec![];
            let mut data = vec![];
            for game in list {
                let view = games.view(game.board).await?;
                texts.push(board::mail(&view, None, games.now_ms()));
                data.push(json!(view));
            }
            if texts.is_empty() {
                texts.push("No boards.\n".into());
            }
            Reply::ok(
                format!("{game} show"),
                texts.join("\n----------------------------------------\n\n"),
                json!(data),
            )
        }
        Command::Games {
            game,
            users,
            selection,
        } => {
            let list = listing(app, *game, users, *selection).await?;
            let mut text: String = list.iter().map(|g| summary_line(g) + "\n").collect();
            if text.is_empty() {
                text = "No boards.\n".into();
            }
            Reply::ok(format!("{game} games"), text, json!(list))
        }
        Command::History { game } => {
            let list = games
                .list(&GameFilter {
                    statuses: vec![Status::Finished],
                    game: Some(game.name().to_string()),
                    limit: 100,
                    ..Default::default()
                })
                .await?;
            let mut text = String::from("Finished (UTC)     Board  Winner      Points  Players\n");
            for g in &list {
                let points: Vec<String> = g.seats.iter().map(|s| s.pieces.to_string()).collect();
                let players: Vec<&str> = g.seats.iter().map(|s| s.name.as_str()).collect();
                text.push_str(&format!(
                    "{:<16}  {:>5}  {:<10}  {:<6}  {}\n",
                    board::timestamp(g.finished_ms.unwrap_or(0))
                        .get(..16)
                        .unwrap_or(""),
                    g.board,
                    g.winner.as_deref().unwrap_or("(draw)"),
                    points.join("-"),
                    players.join(" ")
                ));
            }
            Reply::ok(format!("{game} history"), text, json!(list))
        }
        Command::Standings { game } => standings(app, *game).await?,
        Command::Export { board, format } => {
            let view = games.view(*board).await?;
            let text = match format {
                ExportFormat::Pgn => crate::doors::render::export::pgn(&view),
                ExportFormat::Record => crate::doors::render::export::record(&view),
            };
            Reply::ok(
                format!("{} board {board}", view.summary.game),
                text.clone(),
                json!({"board": board, "text": text}),
            )
        }
        Command::Preview { board, moves } => {
            let view = games.view(*board).await?;
            // Replayed, so that the position remembers its past (Ankor's repetitions).
            let mut pos = crate::domain::games::replay(
                view.summary
                    .game
                    .parse()
                    .expect("stored boards name a known game"),
                &view.summary.start_fen,
                &mut view.moves.clone(),
            );
            let (mut played, mut last) = (vec![], None);
            for text in moves {
                let text = pos.play(text)?.text;
                last = Some(text.clone());
                played.push(text);
                while pos.outcome().is_none() && pos.legal_moves() == ["0000"] {
                    pos.play("0000")?;
                    played.push("--(Auto)".into());
                }
            }
            Reply::ok(
                format!("{} preview {board}", view.summary.game),
                format!(
                    "Board {board} after {} (not played):\n\n{}",
                    played.join(" "),
                    board::diagram(&*pos, last.as_deref())
                ),
                json!({"board": board, "fen": pos.fen(), "moves": played}),
            )
        }
    })
}

/// Runs `seek`: n quick pairings (each takes a matching seek or posts one), or with n = 0
/// withdraws the user's seeks of the game.
async fn seek_reply(
    app: &App,
    user: &str,
    count: usize,
    request: &crate::domain::seeks::SeekRequest,
) -> Result<Reply> {
    use crate::domain::seeks::Paired;
    let game = request.options.game;
    if count == 0 {
        let ids = app.seeks.withdraw_all(user, game).await?;
        return Ok(Reply::ok(
            format!("{user} seeks withdrawn"),
            format!("{user} withdrew {} open {game} seeks.\n", ids.len()),
            json!({"userid": user, "withdrawn": ids}),
        ));
    }
    let mut text = String::new();
    let mut started = vec![];
    let mut posted = vec![];
    for _ in 0..count {
        match app.seeks.pair(user, request).await? {
            Paired::Game(summary) => {
                text.push_str(&format!(
                    "Board {} started: {} (x) against {} (o).\n",
                    summary.board, summary.x, summary.o
                ));
                started.push(summary);
            }
            Paired::Seek(seek) => {
                text.push_str(&format!(
                    "Seek {} is open: the board starts when someone takes it.\n",
                    seek.id
                ));
                posted.push(seek);
            }
        }
    }
    Ok(Reply::ok(
        format!("{user} seek {count}"),
        text,
        json!({"userid": user, "games": started, "seeks": posted}),
    ))
}

async fn current_user(app: &App, name: &str) -> Result<crate::model::UserRow> {
    let mut conn = app.storage.read().await?;
    store::user(&mut conn, name)
        .await?
        .ok_or_else(|| Error::UnknownUser(name.to_string()))
}

/// The boards of `game` where `users` play (every board of it when none is named) that
/// a selection picks.
async fn listing(
    app: &App,
    game: GameKind,
    users: &[String],
    selection: Selection,
) -> Result<Vec<GameSummary>> {
    let limit = if selection == Selection::Recent {
        20
    } else {
        500
    };
    let players: Vec<Option<String>> = match users.is_empty() {
        true => vec![None],
        false => users.iter().cloned().map(Some).collect(),
    };
    let mut out: Vec<GameSummary> = vec![];
    for player in players {
        let filter = GameFilter {
            player: player.clone(),
            statuses: selection.statuses(),
            game: Some(game.name().to_string()),
            limit,
        };
        for game in app.games.list(&filter).await? {
            let next = selection != Selection::Next
                || player
                    .as_ref()
                    .is_none_or(|p| game.to_move.as_ref() == Some(p));
            if next && !out.iter().any(|g| g.board == game.board) {
                out.push(game);
            }
        }
    }
    Ok(out)
}

/// Days without a game after which a player is listed as inactive.
const INACTIVE_DAYS: i64 = 180;

async fn standings(app: &App, game: GameKind) -> Result<Reply> {
    let (ratings, bots) = {
        let mut conn = app.storage.read().await?;
        let ratings = store::ratings_of_game(&mut conn, game.name()).await?;
        let mut bots = vec![];
        for rating in &ratings {
            let user = store::user(&mut conn, &rating.name).await?;
            bots.push(user.is_some_and(|u| u.bot_level.is_some()));
        }
        (ratings, bots)
    };
    let now = app.clock.now_ms();
    let mut groups: [(&str, Vec<(&crate::model::RatingRow, bool)>); 3] = [
        ("Established", vec![]),
        ("Provisional", vec![]),
        ("Inactive", vec![]),
    ];
    for (rating, bot) in ratings
        .iter()
        .zip(bots)
        .filter(|(r, _)| r.games_played() > 0)
    {
        let inactive = rating
            .last_game_ms
            .is_none_or(|t| now - t > INACTIVE_DAYS * 24 * 3600 * 1000);
        let group = if inactive {
            2
        } else if rating.is_provisional() {
            1
        } else {
            0
        };
        groups[group].1.push((rating, bot));
    }
    let mut text = format!(
        "{} standings\n\n",
        crate::doors::render::board::title(game.name())
    );
    let mut data = serde_json::Map::new();
    data.insert("game".into(), json!(game.name()));
    for (name, members) in &groups {
        text.push_str(&format!(
            "{name} players\n  Rating  Won Lost Drawn  Userid\n"
        ));
        let mut rows = vec![];
        for (u, bot) in members {
            text.push_str(&format!(
                "  {:>6} {:>4} {:>4} {:>5}  {}\n",
                u.rating_text(),
                u.wins,
                u.losses,
                u.draws,
                u.name
            ));
            rows.push(json!({
                "userid": u.name, "rating": u.rating, "deviation": u.deviation,
                "provisional": u.is_provisional(), "wins": u.wins, "losses": u.losses,
                "draws": u.draws, "bot": bot,
            }));
        }
        text.push('\n');
        data.insert(name.to_ascii_lowercase(), Value::Array(rows));
    }
    Ok(Reply::ok(
        format!("{game} standings"),
        text,
        Value::Object(data),
    ))
}

/// `<game> help`: the rules of square Ataxx in words; for every game, its options, how moves
/// are written and its start position.
fn game_help(game: GameKind) -> String {
    let mut text = String::new();
    if game == GameKind::Ataxx {
        text.push_str(GAME_HELP);
    }
    text.push_str(&format!(
        "\n{} challenge options: {}. The game refuses what it cannot honour and says why.\n",
        game,
        crate::domain::games::OPTION_HELP
    ));
    if let Ok(start) = game.start(&Default::default()) {
        let moves = start.legal_moves();
        text.push_str(&format!(
            "\nThe start ({} players; the first named moves first); first moves: {}\n\n{}",
            start.seats(),
            moves.iter().take(8).cloned().collect::<Vec<_>>().join(" "),
            board::diagram(&*start, None)
        ));
    }
    text
}

const COMMANDS_HELP: &str = "\
Commands (one per line; words separated by spaces):
  signup <userid> <password> [<address>...]
  change password <userid> <current> <new>
  change address <userid> <password> [<address>...]   (with mail: confirmed by a mail to
        the new addresses; answer it, or send: confirm address <userid> <token>)
  change mail <userid> <password> <event>...|all|none   (events that mail you: challenge,
        move, chat, nag, end, message)
  message <userid> <password> <to>...   (mails the body; broadcast <userid> <password>: to all)
  signoff <userid> <password>          (or delete)
  help [commands|tutorial|ataxx]
  list
  ataxx help
  ataxx challenge [-size=N] [-blocks=CODE|0xMASK] [-clock=MIN+SEC] <userid1> <userid2>
        [--nagtime=DAYS] [--forfeittime=DAYS] [--totaltime=DAYS]   (userid1 moves first, as x)
  hexxagon|ataxx4|ankor challenge ...   (the other games; ankor: [-size=3..8]
        [-win_height=0|1|-1], userid1 opens as o; moves d3, d3-f4', swap on move 2)
  ataxx accept|decline|withdraw <board> <userid> <password>
  ataxx accept|reject <userid> <password>    (take or refuse challenges)
  ataxx limit <userid> <password> <n>        (at most n games at once)
  ataxx seek <userid> <password> <n>         (n games with anyone: open seeks taken or posted;
                                              0 withdraws yours; -clock=M+S -color=x|o -unrated)
  ataxx move <board> <userid> <password> <move>[#N]   (also: board, mvoe)
        move words: resign, propose (a draw), undo, accept, reject
  ataxx queue <board> <userid> <password> <move>[#N]   (played when it is your turn;
        also qmove, qboard, moveq, boardq)
  ataxx resign <board> <userid> <password>
  ataxx chat <board> <userid> <password> <message>
  ataxx subscribe|unsubscribe <board> <userid> <password>   (follow a board's events)
  ataxx show <board>[#N]...  |  ataxx show <userid>... [all|active|inactive|next]
  ataxx games [<userid>...] [all|active|inactive|next|open|recent]
  ataxx history  |  ataxx standings  |  ataxx preview <board> <move>...
  ataxx pgn <board>  |  ataxx record <board>   (the game as PGN / as a two-column record)
Add --json anywhere for a JSON reply.
";

const TUTORIAL: &str = "\
A first game:
  signup alice secret1
  signup bob secret2
  ataxx challenge alice bob          -> board 101, alice (x) moves first
  ataxx accept 101 alice secret1
  ataxx accept 101 bob secret2
  ataxx move 101 alice secret1 f6#1  -> #1: this is move 1 (guards against resent moves)
  ataxx move 101 bob secret2 b6#2
  ataxx show 101
Challenge a computer player: ataxx challenge alice bot-easy (bots accept at once).
";

const GAME_HELP: &str = "\
Ataxx: two players, x and o, on a 7x7 board; x starts on a7 and g1, o on g7 and a1; x moves first.
A move either fills an empty square next to one of your pieces (a single: d4) or jumps a piece
exactly two squares away, leaving its square empty (c3b5). Enemy pieces next to the square moved
to become yours. A player who cannot move is skipped: the server passes for them (--(Auto)).
The game ends when a side has no pieces, when no empty square can be reached, or after 100 plies
without a single; the side with more pieces wins.
Moves are read tolerantly: c3b5, C3-B5, b2b3 (a single written from-to) are all accepted.
Options of ataxx challenge: -size=3..8, -blocks=<Blocks-Config code like h or 36, or a 0x wall
mask>, -clock=<minutes>+<seconds> for a live game with a Fischer clock, --nagtime, --forfeittime,
--totaltime in days for correspondence games (defaults 7, 21, none).
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_come_out_anywhere_and_dashes_stay_move_text() {
        let cmd = parse("ataxx chall -blocks=h alice --nagtime=3 bob **").unwrap();
        let Command::Challenge { options, players } = cmd else {
            panic!("not a challenge")
        };
        assert_eq!(players, ["alice", "bob"]);
        assert_eq!(options.blocks_text, "h");
        assert_eq!(options.nag_days, 3);
        let cmd = parse("ataxx mvoe 101 alice pw --").unwrap();
        assert!(matches!(cmd, Command::Act { action: Action::Play(ref m), .. } if m == "--"));
    }

    #[test]
    fn refusals_name_what_was_wrong() {
        let err = parse("ataxx challenge -colour=red alice bob").unwrap_err();
        assert!(err.to_string().contains("unknown option -colour"), "{err}");
        assert!(err.to_string().contains("-blocks="), "{err}");
        let err = parse("ataxx move x101 alice pw c3").unwrap_err();
        assert!(
            err.to_string().contains("\"x101\" is not a board number"),
            "{err}"
        );
        let err = parse("ataxx move 101 alice pw c3#x").unwrap_err();
        assert!(err.to_string().contains("#N"), "{err}");
        assert!(parse("frobnicate")
            .unwrap_err()
            .to_string()
            .contains("unknown command"));
        assert!(parse(&"a".repeat(MAX_LINE + 1)).is_err());
    }

    #[test]
    fn board_accept_and_policy_accept_are_told_apart_by_their_arguments() {
        assert!(matches!(
            parse("ataxx accept 101 bob pw").unwrap(),
            Command::Answer {
                board: 101,
                answer: Answer::Accept,
                ..
            }
        ));
        assert!(matches!(
            parse("ataxx reject bob pw").unwrap(),
            Command::Policy { accept: false, .. }
        ));
        assert!(matches!(
            parse("ataxx show 101#5 102").unwrap(),
            Command::ShowBoards { ref boards } if boards == &[(101, Some(5)), (102, None)]
        ));
    }
}
