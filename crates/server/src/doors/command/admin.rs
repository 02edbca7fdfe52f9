//! `admin <act> <userid> <password> …`: the server admins' acts (`serve --admin`) in the command
//! language, so that an admin can act from the text port, `POST /api/command` or by mail:
//! `admin ban|unban|close|cheater|uncheater|reset <userid> <password> <user> [<reason>...]`,
//! `admin abort <userid> <password> <board> [<reason>...]` and `admin log <userid> <password>`.

use serde_json::json;

use super::words::usage;
use super::{Command, Reply, Request};
use crate::error::{Error, Result};
use crate::App;

const USAGE: &str = "admin ban|unban|close|cheater|uncheater|reset <userid> <password> <user> [<reason>...] | admin abort <userid> <password> <board> [<reason>...] | admin log <userid> <password>";

/// What an `admin` command does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdminCommand {
    Ban {
        user: String,
    },
    Unban {
        user: String,
    },
    Close {
        user: String,
    },
    Cheater {
        user: String,
        on: bool,
    },
    Abort {
        board: i64,
    },
    /// Mails the user a password reset token.
    Reset {
        user: String,
    },
    Log,
}

/// Reads the words after `admin`.
pub(super) fn parse_admin(w: &[&str]) -> Result<Command> {
    let (Some(act), Some(userid), Some(password)) = (w.first(), w.get(1), w.get(2)) else {
        return Err(usage(USAGE));
    };
    let target = w.get(3).map(|t| t.to_string());
    let reason = w.get(4..).unwrap_or(&[]).join(" ");
    let act = match (act.to_ascii_lowercase().as_str(), target) {
        ("log", None) => AdminCommand::Log,
        ("ban", Some(user)) => AdminCommand::Ban { user },
        ("unban", Some(user)) => AdminCommand::Unban { user },
        ("close", Some(user)) => AdminCommand::Close { user },
        ("reset", Some(user)) => AdminCommand::Reset { user },
        ("cheater", Some(user)) => AdminCommand::Cheater { user, on: true },
        ("uncheater", Some(user)) => AdminCommand::Cheater { user, on: false },
        ("abort", Some(board)) => AdminCommand::Abort {
            board: board.parse().map_err(|_| {
                Error::Command(format!("admin abort needs a board number, not {board:?}"))
            })?,
        },
        _ => return Err(usage(USAGE)),
    };
    Ok(Command::Admin {
        act,
        userid: userid.to_string(),
        password: password.to_string(),
        reason,
    })
}

/// Runs an `admin` command as the signed-in admin.
pub(super) async fn run(
    app: &App,
    request: &Request,
    act: &AdminCommand,
    userid: &str,
    password: &str,
    reason: &str,
) -> Result<Reply> {
    let me = app
        .accounts
        .for_peer(request.peer)
        .verify(userid, password)
        .await?;
    let admin = &app.admin;
    Ok(match act {
        AdminCommand::Ban { user } => {
            let shut = admin.ban(&me, user, reason).await?;
            Reply::ok(
                format!("{} banned", shut.user),
                format!(
                    "{} is banned: their sessions ended, {} seek(s) withdrawn.\n{}",
                    shut.user,
                    shut.seeks.len(),
                    shut.boards.describe()
                ),
                json!(shut),
            )
        }
        AdminCommand::Unban { user } => {
            let user = admin.unban(&me, user, reason).await?;
            Reply::ok(
                format!("{user} unbanned"),
                format!("{user} is no longer banned.\n"),
                json!({"user": user}),
            )
        }
        AdminCommand::Close { user } => {
            let shut = admin.close(&me, user, reason).await?;
            Reply::ok(
                format!("account {} closed", shut.user),
                format!(
                    "Account {} is closed; {} seek(s) withdrawn.\n{}",
                    shut.user,
                    shut.seeks.len(),
                    shut.boards.describe()
                ),
                json!(shut),
            )
        }
        AdminCommand::Cheater { user, on } => {
            let user = admin.cheater(&me, user, *on, reason).await?;
            let text = match on {
                true => {
                    format!("{user} is marked as a cheater: their games from now on are unrated.\n")
                }
                false => format!("{user} is no longer marked as a cheater.\n"),
            };
            Reply::ok(
                text.trim_end().to_string(),
                text,
                json!({"user": user, "cheater": on}),
            )
        }
        AdminCommand::Abort { board } => {
            let summary = admin.abort(&me, *board, reason).await?;
            Reply::ok(
                format!("board {board} aborted"),
                format!("Board {board} is aborted: no result, unrated.\n"),
                json!(summary),
            )
        }
        AdminCommand::Reset { user } => {
            let mailed = app.messages.send_reset(admin, &me, user, reason).await?;
            let text = super::mail::describe_reset(&mailed);
            Reply::ok(text.trim_end().to_string(), text, json!(mailed))
        }
        AdminCommand::Log => {
            let acts = admin.log(&me).await?;
            let mut text = String::new();
            for act in &acts {
                text.push_str(&format!(
                    "#{} {} {} {} {} {}\n",
                    act.id,
                    crate::doors::render::board::timestamp(act.at_ms),
                    act.admin,
                    act.act,
                    act.target,
                    act.reason
                ));
            }
            if acts.is_empty() {
                text.push_str("The admin log is empty.\n");
            }
            Reply::ok("admin log", text, json!({"acts": acts}))
        }
    })
}
