//! The HTTP door of tournaments (issue 34): `GET/POST /api/tournaments`,
//! `GET /api/tournaments/{id}`, `POST /api/tournaments/{id}/join|withdraw|start|stop`,
//! `GET /api/tournaments/{id}/pgn` (every game) and the WebSocket `/api/tournaments/{id}/ws`
//! (the tournament, again at each change).

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{post, MethodRouter};
use axum::Json;
use futures_util::{SinkExt, StreamExt};
use games::GameKind;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use super::{authenticated, bad, ApiResult, Body, HttpState, MAX_BODY};
use crate::domain::tournaments::NewTournament;
use crate::doors::command::TournamentAct;
use crate::doors::render::export;

/// `POST /api/tournaments`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TournamentBody {
    kind: String,
    name: String,
    game: Option<String>,
    rounds: Option<i64>,
    minutes: Option<i64>,
    /// `M+S`, a live clock.
    clock: Option<String>,
    /// Days per move (correspondence).
    days: Option<i64>,
    rated: Option<bool>,
    /// An arena or league starts by itself at this time (milliseconds since 1970).
    starts_ms: Option<i64>,
}

impl TournamentBody {
    fn new_tournament(self) -> Result<NewTournament, super::ApiError> {
        let kind = self.kind.parse().map_err(bad)?;
        let mut new = NewTournament::new(kind, &self.name);
        if let Some(game) = &self.game {
            new.game = game.parse::<GameKind>().map_err(|e| bad(e.to_string()))?;
        }
        new.rounds = self.rounds.unwrap_or(new.rounds);
        new.minutes = self.minutes.unwrap_or(new.minutes);
        new.clock = self.clock;
        new.days = self.days;
        new.rated = self.rated.unwrap_or(new.rated);
        new.starts_ms = self.starts_ms;
        Ok(new)
    }
}

pub(super) async fn list(State(state): State<HttpState>) -> ApiResult {
    Ok(Json(json!(state.app.tournaments.list().await?)))
}

pub(super) async fn create(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Body(body): Body<TournamentBody>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let me = authenticated(&state, &headers, None).await?;
    let view = state
        .app
        .tournaments
        .create(&me, &body.new_tournament()?)
        .await?;
    Ok((StatusCode::CREATED, Json(json!(view))))
}

pub(super) async fn show(State(state): State<HttpState>, Path(id): Path<i64>) -> ApiResult {
    Ok(Json(json!(state.app.tournaments.show(id).await?)))
}

/// `POST /api/tournaments/{id}/join` (`withdraw`, `start`), as the signed-in account.
pub(super) fn acting(act: TournamentAct) -> MethodRouter<HttpState> {
    post(
        move |State(state): State<HttpState>, headers: HeaderMap, Path(id): Path<i64>| async move {
            let me = authenticated(&state, &headers, None).await?;
            let tournaments = &state.app.tournaments;
            let view = match act {
                TournamentAct::Join => tournaments.join(id, &me).await?,
                TournamentAct::Withdraw => tournaments.withdraw(id, &me).await?,
                TournamentAct::Start => tournaments.start(id, &me).await?,
                TournamentAct::Stop => tournaments.stop(id, &me).await?,
            };
            ApiResult::Ok(Json(json!(view)))
        },
    )
}

/// `GET /api/tournaments/{id}/pgn`: every game of the tournament, in round and board order.
pub(super) async fn pgn(
    State(state): State<HttpState>,
    Path(id): Path<i64>,
) -> ApiResult<Response> {
    let view = state.app.tournaments.show(id).await?;
    let mut text = String::new();
    for board in view
        .rounds
        .iter()
        .flat_map(|r| &r.pairings)
        .filter_map(|p| p.game)
    {
        text.push_str(&export::pgn(&state.app.games.view(board).await?, None));
        text.push('\n');
    }
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        text,
    )
        .into_response())
}

/// `GET /api/tournaments/{id}/ws`: `{"type": "tournament", "tournament": …}` at once and after
/// every change (a join, a pairing, a result); anyone may listen.
pub(super) async fn socket(
    State(state): State<HttpState>,
    Path(id): Path<i64>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let events = state.app.hub.lobby();
    let first = state.app.tournaments.show(id).await?;
    Ok(upgrade
        .max_message_size(MAX_BODY)
        .on_upgrade(move |socket| stream(state, socket, id, json!(first), events)))
}

async fn stream(
    mut state: HttpState,
    socket: WebSocket,
    id: i64,
    first: Value,
    mut events: tokio::sync::broadcast::Receiver<std::sync::Arc<str>>,
) {
    let (mut sink, mut incoming) = socket.split();
    let message = |t: Value| json!({"type": "tournament", "tournament": t}).to_string();
    if sink
        .send(Message::Text(message(first).into()))
        .await
        .is_err()
    {
        return;
    }
    loop {
        tokio::select! {
            event = events.recv() => {
                let concerns_us = match event {
                    Ok(json) => serde_json::from_str::<Value>(&json)
                        .is_ok_and(|v| v["type"] == "tournament" && v["id"] == id),
                    Err(RecvError::Lagged(_)) => true,
                    Err(RecvError::Closed) => return,
                };
                if !concerns_us {
                    continue;
                }
                let Ok(view) = state.app.tournaments.show(id).await else { continue };
                if sink.send(Message::Text(message(json!(view)).into())).await.is_err() {
                    return;
                }
            }
            message = incoming.next() => match message {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => continue,
            },
            _ = state.stopped.changed() => {
                let _ = sink.send(Message::Close(None)).await;
                return;
            }
        }
    }
}
