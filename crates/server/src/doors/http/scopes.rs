//! What an API token may reach: every request that carries one (`Authorization: Bearer`,
//! `?token=`) is checked here against the token's scopes before its handler runs, so that no
//! handler can forget. A request beyond them is answered 403 naming the scope it needs; a
//! revoked or unknown token 401. Session tokens pass untouched.
//!
//! Every scope reads (GET, and the event sockets); `board:play` and `bot:play` play the
//! account's own games; `bot:play` alone makes it a bot; anything else (the tokens themselves,
//! the password, moderation, admin, running tournaments) needs a signed-in session. A socket's
//! `move` messages are held to the same rule ([`may_move`]).

use axum::extract::{Query, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::{token, ApiError, HttpState};
use crate::domain::accounts::is_api_token;
use crate::error::Error;
use crate::model::Scope;
use crate::App;

/// What a request needs of a token.
#[derive(Debug, PartialEq, Eq)]
enum Need {
    /// Any scope: every token reads.
    Read,
    /// Playing the account's games: `board:play` or `bot:play`.
    Play,
    /// Making the account a bot.
    Bot,
    /// No token may: the request, in words.
    Session(&'static str),
}

fn need(method: &Method, path: &str) -> Need {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    if parts.starts_with(&["api", "account", "tokens"]) {
        return Need::Session("managing API tokens");
    }
    if matches!(*method, Method::GET | Method::HEAD) {
        return Need::Read;
    }
    let playing = match parts.as_slice() {
        ["api", "bot", "upgrade"] => return Need::Bot,
        ["api", "games"] | ["api", "seeks"] | ["api", "seeks", "pair"] => true,
        ["api", "games", _, act] => matches!(
            *act,
            "accept"
                | "decline"
                | "withdraw"
                | "move"
                | "chat"
                | "subscribe"
                | "unsubscribe"
                | "analysis"
        ),
        ["api", "seeks", _] => *method == Method::DELETE,
        ["api", "seeks", _, "accept"] => true,
        ["api", "tournaments", _, act] => matches!(*act, "join" | "withdraw"),
        _ => false,
    };
    match playing {
        true => Need::Play,
        false => Need::Session("this request"),
    }
}

/// Whether `scopes` meet `need`, or the refusal.
fn allows(scopes: &[Scope], need: Need) -> Result<(), Error> {
    let has = |scope| scopes.contains(&scope);
    match need {
        Need::Read => Ok(()),
        Need::Play if has(Scope::BoardPlay) || has(Scope::BotPlay) => Ok(()),
        Need::Play => Err(Error::MissingScope(format!(
            "{} (or {})",
            Scope::BoardPlay,
            Scope::BotPlay
        ))),
        Need::Bot if has(Scope::BotPlay) => Ok(()),
        Need::Bot => Err(Error::MissingScope(Scope::BotPlay.to_string())),
        Need::Session(what) => Err(Error::SessionOnly(what)),
    }
}

/// Whether a socket opened with `token` may move (its `move` messages): what
/// `POST /api/games/{board}/move` needs of a token. Sessions may.
pub(super) async fn may_move(app: &App, token: &str) -> Result<(), Error> {
    if !is_api_token(token) {
        return Ok(());
    }
    let (_, scopes) = app.accounts.api_token_scopes(token).await?;
    allows(&scopes, Need::Play)
}

#[derive(serde::Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

/// The middleware: lets a request with an API token through only within the token's scopes.
pub(super) async fn enforce(
    State(state): State<HttpState>,
    request: Request,
    next: Next,
) -> Response {
    let query = Query::<TokenQuery>::try_from_uri(request.uri())
        .ok()
        .and_then(|query| query.0.token);
    let Some(api_token) = token(request.headers(), query.as_deref())
        .filter(|t| is_api_token(t))
        .map(str::to_string)
    else {
        return next.run(request).await;
    };
    let checked = match state.app.accounts.api_token_scopes(&api_token).await {
        Ok((_, scopes)) => allows(&scopes, need(request.method(), request.uri().path())),
        Err(err) => Err(err),
    };
    match checked {
        Ok(()) => next.run(request).await,
        Err(err) => ApiError(err).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_is_every_scope_playing_two_and_the_rest_a_session() {
        assert_eq!(need(&Method::GET, "/api/games/101"), Need::Read);
        assert_eq!(need(&Method::GET, "/api/ws"), Need::Read);
        assert_eq!(need(&Method::POST, "/api/games/101/move"), Need::Play);
        assert_eq!(need(&Method::POST, "/api/games"), Need::Play);
        assert_eq!(need(&Method::DELETE, "/api/seeks/4"), Need::Play);
        assert_eq!(need(&Method::POST, "/api/bot/upgrade"), Need::Bot);
        assert!(matches!(
            need(&Method::GET, "/api/account/tokens"),
            Need::Session(_)
        ));
        assert!(matches!(
            need(&Method::POST, "/api/password"),
            Need::Session(_)
        ));
        assert!(matches!(
            need(&Method::POST, "/api/tournaments/3/start"),
            Need::Session(_)
        ));
        assert!(allows(&[Scope::Read], Need::Read).is_ok());
        let refused = allows(&[Scope::Read], Need::Play).unwrap_err().to_string();
        assert!(refused.contains("board:play"), "{refused}");
        assert!(allows(&[Scope::BoardPlay], Need::Bot).is_err());
        assert!(allows(&[Scope::BotPlay], Need::Play).is_ok());
    }
}
