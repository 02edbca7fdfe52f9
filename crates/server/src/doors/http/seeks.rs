//! The HTTP door of seeks and the lobby: `POST/GET /api/seeks`, `DELETE /api/seeks/{id}`,
//! `POST /api/seeks/{id}/accept`, `POST /api/seeks/pair` (quick pairing) and the lobby
//! WebSocket `/api/lobby/ws`.

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;
use futures_util::{SinkExt, StreamExt};
use games::GameKind;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use super::{authenticated, bad, token, ApiResult, Body, HttpState, SocketQuery, MAX_BODY};
use crate::domain::games::ChallengeOptions;
use crate::domain::seeks::{Paired, SeekColor, SeekRequest};
use crate::model::GameFilter;
use crate::model::Status;

/// `POST /api/seeks` and `/api/seeks/pair`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SeekBody {
    game: Option<String>,
    size: Option<u8>,
    blocks: Option<String>,
    /// `minutes+seconds` for a live game; null or left out for correspondence.
    clock: Option<String>,
    #[serde(default = "rated_by_default")]
    rated: bool,
    color: Option<String>,
    rating_min: Option<i64>,
    rating_max: Option<i64>,
}

fn rated_by_default() -> bool {
    true
}

impl SeekBody {
    fn request(self) -> Result<SeekRequest, super::ApiError> {
        let game = match &self.game {
            Some(name) => name.parse::<GameKind>().map_err(|e| bad(e.to_string()))?,
            None => GameKind::Ataxx,
        };
        let mut options = ChallengeOptions::new(game);
        if let Some(size) = self.size {
            options.set("size", Some(&size.to_string()))?;
        }
        if let Some(blocks) = &self.blocks {
            options.set("blocks", Some(blocks))?;
        }
        if let Some(clock) = &self.clock {
            options.set("clock", Some(clock))?;
        }
        Ok(SeekRequest {
            options,
            rated: self.rated,
            color: SeekColor::parse(self.color.as_deref().unwrap_or("random"))?,
            rating_min: self.rating_min,
            rating_max: self.rating_max,
        })
    }
}

pub(super) async fn list(State(state): State<HttpState>) -> ApiResult {
    Ok(Json(json!(state.app.seeks.list().await?)))
}

pub(super) async fn post(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Body(body): Body<SeekBody>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let me = authenticated(&state, &headers, None).await?;
    let seek = state.app.seeks.post(&me, &body.request()?).await?;
    Ok((StatusCode::CREATED, Json(json!(seek))))
}

pub(super) async fn pair(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Body(body): Body<SeekBody>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let me = authenticated(&state, &headers, None).await?;
    let paired = state.app.seeks.pair(&me, &body.request()?).await?;
    let status = match paired {
        Paired::Game(_) => StatusCode::CREATED,
        Paired::Seek(_) => StatusCode::ACCEPTED,
    };
    Ok((status, Json(json!(paired))))
}

pub(super) async fn withdraw(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    state.app.seeks.withdraw(id, &me).await?;
    Ok(Json(json!({"id": id, "withdrawn": true})))
}

pub(super) async fn accept(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let me = authenticated(&state, &headers, None).await?;
    let game = state.app.seeks.accept(id, &me).await?;
    Ok((StatusCode::CREATED, Json(json!(game))))
}

/// `GET /api/lobby/ws`: anyone may listen; a signed-in page keeps its owner's live seeks open.
pub(super) async fn socket(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Query(query): Query<SocketQuery>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let user = match token(&headers, query.token.as_deref()) {
        Some(_) => Some(authenticated(&state, &headers, query.token.as_deref()).await?),
        None => None,
    };
    let events = state.app.hub.lobby();
    let games = state
        .app
        .games
        .list(&GameFilter {
            statuses: vec![Status::Active],
            limit: 50,
            ..GameFilter::default()
        })
        .await?;
    let greeting = json!({
        "type": "lobby",
        "user": user,
        "seeks": state.app.seeks.list().await?,
        "games": games,
    })
    .to_string();
    let presence = user.as_deref().map(|user| state.app.seeks.present(user));
    Ok(
        super::socket::sized(upgrade, MAX_BODY).on_upgrade(move |socket| async move {
            lobby_stream(state, socket, greeting, events).await;
            drop(presence);
        }),
    )
}

async fn lobby_stream(
    mut state: HttpState,
    socket: WebSocket,
    greeting: String,
    mut events: tokio::sync::broadcast::Receiver<std::sync::Arc<str>>,
) {
    let _connected = crate::metrics::Connected::to("websocket");
    let (mut sink, mut incoming) = socket.split();
    if sink.send(Message::Text(greeting.into())).await.is_err() {
        return;
    }
    loop {
        let out: String = tokio::select! {
            event = events.recv() => match event {
                Ok(json) => json.to_string(),
                Err(RecvError::Lagged(_)) => json!({"type": "resync"}).to_string(),
                Err(RecvError::Closed) => return,
            },
            message = incoming.next() => match message {
                Some(Ok(Message::Text(text))) => {
                    match serde_json::from_str::<Value>(&text) {
                        Ok(value) if value["type"] == "ping" => json!({"type": "pong", "id": value["id"]}).to_string(),
                        _ => json!({"type": "error", "code": "bad_message", "message": "the lobby answers {\"type\":\"ping\"} only"}).to_string(),
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => continue,
            },
            _ = state.stopped.changed() => {
                let _ = sink.send(Message::Close(None)).await;
                return;
            }
        };
        if sink.send(Message::Text(out.into())).await.is_err() {
            return;
        }
    }
}
