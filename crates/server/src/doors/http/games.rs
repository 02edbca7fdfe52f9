//! Boards over HTTP: `GET/POST /api/games`, `GET /api/games/{board}` (JSON, text, PGN, record)
//! and what players do on a board: accept, decline, withdraw, move, chat, subscribe.

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{post, MethodRouter};
use axum::Json;
use games::GameKind;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{authenticated, bad, ApiResult, Body, HttpState};
use crate::domain::games::{Action, Answer, ChallengeOptions};
use crate::doors::render::{board, export};
use crate::model::GameFilter;
use crate::model::Status;

#[derive(Deserialize)]
pub(super) struct ListQuery {
    player: Option<String>,
    /// A game's name: only boards of that game.
    game: Option<String>,
    /// `challenge`, `active`, `finished` (comma-separated), or all.
    status: Option<String>,
    limit: Option<i64>,
}

pub(super) async fn list(
    State(state): State<HttpState>,
    Query(query): Query<ListQuery>,
) -> ApiResult {
    let mut statuses = vec![];
    for status in query.status.iter().flat_map(|s| s.split(',')) {
        statuses.push(match status.trim().parse::<Status>() {
            Ok(status) => status,
            Err(_) => {
                return Err(bad(format!(
                    "unknown status {:?}: challenge, active, finished, declined, withdrawn",
                    status.trim()
                )))
            }
        });
    }
    let game = match &query.game {
        Some(name) => Some(name.parse::<GameKind>().map_err(|e| bad(e.to_string()))?),
        None => None,
    };
    let filter = GameFilter {
        player: query.player.map(|p| p.to_ascii_lowercase()),
        game: game.map(|g| g.name().to_string()),
        statuses,
        limit: match query.limit {
            None => 100,
            Some(limit @ 1..=500) => limit,
            Some(limit) => return Err(bad(format!("limit {limit}: from 1 to 500"))),
        },
    };
    Ok(Json(json!(state.app.games.list(&filter).await?)))
}

#[derive(Deserialize)]
pub(super) struct ChallengeBody {
    /// The game's name; `ataxx` if left out (`options` may also pick it: `variant`, `players`).
    #[serde(default)]
    game: Option<String>,
    /// The opponent of a two-player game.
    #[serde(default)]
    opponent: Option<String>,
    /// The opponents of a game for more players, in seat order after the challenger.
    #[serde(default)]
    opponents: Vec<String>,
    /// `x` (the challenger moves first, the default), `o` (second), or `random` (seats shuffled).
    #[serde(default)]
    color: Option<String>,
    /// Options as the command language writes them, without dashes: `{"blocks": "h",
    /// "clock": "5+3", "nagtime": "3"}`.
    #[serde(default)]
    options: HashMap<String, Value>,
}

pub(super) async fn challenge(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Body(body): Body<ChallengeBody>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let me = authenticated(&state, &headers, None).await?;
    let game = match &body.game {
        Some(name) => name.parse::<GameKind>().map_err(|e| bad(e.to_string()))?,
        None => GameKind::Ataxx,
    };
    let mut options = ChallengeOptions::new(game);
    let mut names: Vec<&String> = body.options.keys().collect();
    names.sort();
    for name in names {
        let value = match &body.options[name] {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            other => {
                return Err(bad(format!(
                    "option {name}: {other} is not a string or number"
                )))
            }
        };
        options.set(&name.to_ascii_lowercase(), Some(&value))?;
    }
    let mut players = vec![me.clone()];
    players.extend(body.opponent);
    players.extend(body.opponents);
    if players.len() < 2 {
        return Err(bad("name an opponent (or opponents)"));
    }
    match body.color.as_deref().unwrap_or("x") {
        "x" => {}
        "o" => players.swap(0, 1),
        "random" => {
            use rand::seq::SliceRandom;
            players.shuffle(&mut rand::rng());
        }
        other => return Err(bad(format!("color {other:?}: x, o or random"))),
    }
    let game = state
        .app
        .games
        .challenge(&players, &options, Some(&me))
        .await?;
    Ok((StatusCode::CREATED, Json(json!(game))))
}

pub(super) async fn game(State(state): State<HttpState>, Path(board): Path<i64>) -> ApiResult {
    Ok(Json(json!(state.app.games.view(board).await?)))
}

#[derive(Deserialize)]
pub(super) struct AtQuery {
    /// Show the board as it was after this many moves.
    at: Option<usize>,
}

pub(super) async fn game_text(
    State(state): State<HttpState>,
    Path(board): Path<i64>,
    Query(query): Query<AtQuery>,
) -> ApiResult<Response> {
    let view = state.app.games.view(board).await?;
    let text = board::mail(&view, query.at, state.app.games.now_ms());
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

pub(super) async fn game_pgn(
    State(state): State<HttpState>,
    Path(board): Path<i64>,
) -> ApiResult<Response> {
    let analysis = state.app.analyses.report(board).await?;
    let pgn = export::pgn(&state.app.games.view(board).await?, analysis.as_ref());
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        pgn,
    )
        .into_response())
}

pub(super) async fn game_record(
    State(state): State<HttpState>,
    Path(board): Path<i64>,
) -> ApiResult<Response> {
    let text = export::record(&state.app.games.view(board).await?);
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// `POST /api/games/{board}/accept` (`decline`, `withdraw`): the signed-in player's answer to a
/// challenge.
pub(super) fn answering(answer: Answer) -> MethodRouter<HttpState> {
    post(
        move |State(state): State<HttpState>, headers: HeaderMap, Path(board): Path<i64>| async move {
            let me = authenticated(&state, &headers, None).await?;
            let summary = state.app.games.answer(board, &me, answer).await?;
            ApiResult::Ok(Json(json!(summary)))
        },
    )
}

#[derive(Deserialize)]
pub(super) struct MoveBody {
    /// Move text, or one of the words resign, propose, undo, accept, reject.
    #[serde(rename = "move")]
    mv: String,
    /// The number this move gets (the board's `ply` + 1); a stale number is refused.
    guard: Option<i64>,
}

pub(super) async fn play(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(board): Path<i64>,
    Body(body): Body<MoveBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    let action = Action::parse(&body.mv);
    Ok(Json(json!(
        state.app.games.act(board, &me, &action, body.guard).await?
    )))
}

pub(super) async fn subscribe(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(board): Path<i64>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    Ok(Json(json!(
        state.app.games.subscribe(board, &me, true).await?
    )))
}

pub(super) async fn unsubscribe(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(board): Path<i64>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    Ok(Json(json!(
        state.app.games.subscribe(board, &me, false).await?
    )))
}

#[derive(Deserialize)]
pub(super) struct ChatBody {
    text: String,
}

pub(super) async fn chat(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(board): Path<i64>,
    Body(body): Body<ChatBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    Ok(Json(json!(
        state.app.games.chat(board, &me, &body.text).await?
    )))
}
