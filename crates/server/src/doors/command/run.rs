//! Running a command: the commands that change a board or pair players, each one call into
//! [`crate::domain`] and the reply; account commands are in [`super::accounts`], those that mail
//! in [`super::mail`], the commands that only read in [`super::views`].

use serde_json::json;

use super::reply::board_reply;
use super::{accounts, views, Command, Reply, Request};
use crate::domain::accounts::{Accounts, BOT_PREFIX};
use crate::domain::games::Queued;
use crate::domain::seeks::{Paired, SeekRequest};
use crate::error::{Error, Result};
use crate::App;

/// Runs a parsed command.
pub(super) async fn run(app: &App, request: &Request, command: &Command) -> Result<Reply> {
    match command {
        Command::Help { .. }
        | Command::GameHelp { .. }
        | Command::List
        | Command::ShowBoards { .. }
        | Command::ShowUsers { .. }
        | Command::Games { .. }
        | Command::History { .. }
        | Command::Standings { .. }
        | Command::Export { .. }
        | Command::Preview { .. } => views::show(app, command).await,
        Command::Challenge { .. }
        | Command::Act { .. }
        | Command::Subscribe { .. }
        | Command::Queue { .. }
        | Command::Answer { .. }
        | Command::Seek { .. }
        | Command::Chat { .. } => play(app, request, command).await,
        Command::Message { .. }
        | Command::Broadcast { .. }
        | Command::ConfirmAddress { .. }
        | Command::ResetRequest { .. }
        | Command::Reset { .. }
        | Command::MailEvents { .. } => super::mail::run(app, request, command).await,
        Command::Tournament(command) => super::tournaments::run(app, request, command).await,
        Command::Admin {
            act,
            userid,
            password,
            reason,
        } => super::admin::run(app, request, act, userid, password, reason).await,
        Command::Analysis {
            board,
            userid,
            password,
        } => {
            let user = match (userid, password) {
                (Some(userid), Some(password)) => Some(
                    app.accounts
                        .for_peer(request.peer)
                        .verify(userid, password)
                        .await?,
                ),
                _ => None,
            };
            super::analysis::reply(app, *board, user.as_deref()).await
        }
        _ => accounts::run(app, request, command).await,
    }
}

/// The commands on boards: challenges and their answers, moves, chat, following, seeks.
async fn play(app: &App, request: &Request, command: &Command) -> Result<Reply> {
    let accounts = &app.accounts.for_peer(request.peer);
    let games = &app.games;
    Ok(match command {
        Command::Challenge {
            options,
            players,
            password,
        } => {
            check_challenger(app, accounts, players, password.as_deref()).await?;
            board_reply(app, games.challenge(players, options, None).await?).await
        }
        Command::Act {
            board,
            userid,
            password,
            action,
            guard,
        } => {
            let user = accounts.verify(userid, password).await?;
            board_reply(app, games.act(*board, &user, action, *guard).await?).await
        }
        Command::Subscribe {
            board,
            userid,
            password,
            on,
        } => {
            let user = accounts.verify(userid, password).await?;
            let mut reply = board_reply(app, games.subscribe(*board, &user, *on).await?).await;
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
            queue(app, *board, &user, text, *guard).await?
        }
        Command::Answer {
            board,
            userid,
            password,
            answer,
        } => {
            let user = accounts.verify(userid, password).await?;
            board_reply(app, games.answer(*board, &user, *answer).await?).await
        }
        Command::Seek {
            userid,
            password,
            count,
            request,
        } => {
            let user = accounts.verify(userid, password).await?;
            seek(app, &user, *count, request).await?
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
        _ => unreachable!("run sends only board commands here"),
    })
}

/// A challenge mails its players when the server sends mail, so there it needs the password of
/// the challenger: the first player named who is a person. Elsewhere the password is optional
/// (pbmserv's `challenge` has none), and checked when given.
async fn check_challenger(
    app: &App,
    accounts: &Accounts,
    players: &[String],
    password: Option<&str>,
) -> Result<()> {
    let challenger = players
        .iter()
        .find(|p| !p.to_ascii_lowercase().starts_with(BOT_PREFIX));
    match (password, challenger) {
        (Some(password), Some(challenger)) => accounts.verify(challenger, password).await.map(drop),
        (None, _) if !app.messages.sends_mail() => Ok(()),
        _ => Err(Error::Command(
            "this server mails the players of a challenge, so a challenge names the password \
             of its first player: ataxx challenge -password=<password> <you> <opponent>"
                .into(),
        )),
    }
}

/// Runs `queue`: the move is played when it is the user's turn; the reply says what it replaced.
async fn queue(app: &App, board: i64, user: &str, text: &str, guard: Option<i64>) -> Result<Reply> {
    let (game, replaced) = match app.games.queue(board, user, text, guard).await? {
        Queued::Played(game) => return Ok(board_reply(app, game).await),
        Queued::Stored { game, replaced } => (game, replaced),
    };
    let mut reply = board_reply(app, game).await;
    let replaced = match replaced {
        Some(before) => format!(" It replaces the move queued before, {before}."),
        None => String::new(),
    };
    reply.text = format!(
        "Queued {text} for {user}: played when it is {user}'s turn.{replaced}\n\n{}",
        reply.text
    );
    Ok(reply)
}

/// Runs `seek`: n quick pairings (each takes a matching seek or posts one), or with n = 0
/// withdraws the user's seeks of the game.
async fn seek(app: &App, user: &str, count: usize, request: &SeekRequest) -> Result<Reply> {
    let game = request.options.game;
    if count == 0 {
        let ids = app.seeks.withdraw_all(user, Some(game)).await?;
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
