//! The account commands: signing up, passwords and addresses, closing, the stance on challenges,
//! the mail settings and messages (their replies in [`super::mail`]), and a test server's clock.

use serde_json::json;

use super::{mail, Command, Reply, Request};
use crate::error::Result;
use crate::App;

/// Runs an account command.
pub(super) async fn run(app: &App, request: &Request, command: &Command) -> Result<Reply> {
    let accounts = &app.accounts.for_peer(request.peer);
    Ok(match command {
        Command::Signup {
            userid,
            password,
            addresses,
        } if app.messages.sends_mail() && !addresses.is_empty() => {
            mail::signup(app, accounts, userid, password, addresses, request.peer).await?
        }
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
        } if app.messages.sends_mail() && !addresses.is_empty() => {
            let user = accounts.verify(userid, password).await?;
            mail::change_address(app, &user, addresses).await?
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
        Command::Close { userid, password } => close(app, request, userid, password).await?,
        Command::Policy {
            userid,
            password,
            accept,
        } => {
            let user = accounts.verify(userid, password).await?;
            accounts.set_accepts_challenges(&user, *accept).await?;
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
            accounts.set_game_limit(&user, *limit).await?;
            Reply::ok(
                format!("{user} limit {limit}"),
                format!("{user} plays at most {limit} ataxx games at once.\n"),
                json!({"userid": user, "limit": limit}),
            )
        }
        Command::Vacation {
            userid,
            password,
            days,
        } => {
            let user = accounts.verify(userid, password).await?;
            let vacation = match days {
                Some(days) => app.games.start_vacation(&user, *days).await?,
                None => app.games.end_vacation(&user).await?,
            };
            let text = match vacation.away_until_ms {
                Some(_) => format!(
                    "{user} is on vacation for {} days: the clocks of their correspondence games \
                     are paused. {} days left this year.\n",
                    days.unwrap_or_default(),
                    vacation.days_left
                ),
                None => format!(
                    "{user} is back: the clocks of their correspondence games run again. {} \
                     vacation days left this year.\n",
                    vacation.days_left
                ),
            };
            let summary = match vacation.away_until_ms {
                Some(_) => format!("{user} on vacation"),
                None => format!("{user} back from vacation"),
            };
            Reply::ok(summary, text, json!(vacation))
        }
        Command::ClockAdvance { seconds } => clock_advance(app, *seconds).await?,
        _ => unreachable!("run sends every other command elsewhere"),
    })
}

/// `signoff`/`delete`: closes the account, then resigns or cancels its games.
async fn close(app: &App, request: &Request, userid: &str, password: &str) -> Result<Reply> {
    let accounts = app.accounts.for_peer(request.peer);
    let (name, left) = app.games.close_account(&accounts, userid, password).await?;
    Ok(Reply::ok(
        format!("account {name} closed"),
        format!(
            "Account {name} is closed; its games stay on record.\n{}",
            left.describe()
        ),
        json!({"userid": name, "resigned": left.resigned, "cancelled": left.cancelled}),
    ))
}

/// `clock advance <seconds>` (test servers): moves the clock, then runs the deadline sweeper.
async fn clock_advance(app: &App, seconds: i64) -> Result<Reply> {
    let changed = app
        .games
        .advance_clock(seconds.saturating_mul(1000))
        .await?;
    Ok(Reply::ok(
        "clock advanced",
        format!("Clock advanced {seconds} s; {changed} boards changed.\n"),
        json!({"now_ms": app.clock.now_ms(), "changed": changed}),
    ))
}
