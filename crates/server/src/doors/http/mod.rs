//! The HTTP door: a JSON API over the same services as the command language, `POST
//! /api/command` for the language itself, WebSocket event streams per board and per user, and
//! the OpenAPI document. docs/server.md describes every endpoint.

use std::collections::HashMap;
use std::net::SocketAddr;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;

use crate::domain::games::{Action, Answer, ChallengeOptions};
use crate::doors::command::{self, Request};
use crate::doors::http::socket_messages::{error_message, snapshot};
use crate::doors::render::board;
use crate::error::Error;
use crate::model::Event;
use crate::model::GameFilter;
use crate::model::Status;
use crate::store;
use crate::App;
use games::GameKind;

mod errors;
mod kinds;
mod leaderboard;
mod seeks;
pub mod socket_messages;
mod tv;

/// The largest request body and WebSocket message.
pub const MAX_BODY: usize = 64 * 1024;
/// The cookie that carries a browser's session token.
pub const SESSION_COOKIE: &str = "ataxx_session";

#[derive(Clone)]
struct HttpState {
    app: App,
    stopped: watch::Receiver<bool>,
}

/// An error as the API answers it: a status and `{"error": {"code", "message"}}`.
struct ApiError(Error);

impl From<Error> for ApiError {
    fn from(err: Error) -> Self {
        ApiError(err)
    }
}

fn status_of(err: &Error) -> StatusCode {
    match err {
        Error::Auth => StatusCode::UNAUTHORIZED,
        Error::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
        Error::UnknownUser(_) | Error::UnknownBoard(_) => StatusCode::NOT_FOUND,
        Error::UnknownSeek(_) => StatusCode::NOT_FOUND,
        Error::NotAPlayer { .. } | Error::NotYourSeek { .. } => StatusCode::FORBIDDEN,
        Error::UserExists(_)
        | Error::NotYourTurn { .. }
        | Error::NotInPlay { .. }
        | Error::NotAChallenge { .. }
        | Error::Guard { .. }
        | Error::Proposal(_) => StatusCode::CONFLICT,
        Error::TooLong { .. } => StatusCode::PAYLOAD_TOO_LARGE,
        Error::Config(_) | Error::Database(_) => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::BAD_REQUEST,
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let Error::Database(err) = &self.0 {
            tracing::error!(%err, "database");
        }
        let body = json!({"error": {"code": self.0.code(), "message": self.0.to_string()}});
        (status_of(&self.0), Json(body)).into_response()
    }
}

type ApiResult<T = Json<Value>> = Result<T, ApiError>;

fn bad(message: impl Into<String>) -> ApiError {
    ApiError(Error::Command(message.into()))
}

/// Reads a JSON body, answering malformed bodies with the API's error shape.
struct Body<T>(T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> axum::extract::FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(ApiError(Error::TooLong {
                    what: "a request body",
                    max: MAX_BODY,
                }))
            }
            Err(rejection) => Err(bad(format!("bad request body: {}", rejection.body_text()))),
        }
    }
}

pub async fn serve(app: App, listener: TcpListener, stopped: watch::Receiver<bool>) {
    let state = HttpState {
        app,
        stopped: stopped.clone(),
    };
    let router = router(state);
    let mut stop = stopped;
    let served = axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        let _ = stop.changed().await;
    })
    .await;
    if let Err(err) = served {
        tracing::error!(%err, "http door");
    }
}

fn router(state: HttpState) -> Router {
    Router::new()
        .route("/api/openapi.json", get(openapi))
        .route("/api/command", post(command_door))
        .route("/api/signup", post(signup))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/me", get(me))
        .route("/api/password", post(change_password))
        .route("/api/users/{name}", get(user))
        .route("/api/standings", get(standings))
        .route("/api/bots", get(bots))
        .route("/api/games", get(list_games).post(challenge))
        .route("/api/games/{board}", get(game))
        .route("/api/games/{board}/text", get(game_text))
        .route("/api/games/{board}/pgn", get(game_pgn))
        .route("/api/games/{board}/record", get(game_record))
        .route("/api/games/{board}/accept", post(accept))
        .route("/api/games/{board}/decline", post(decline))
        .route("/api/games/{board}/withdraw", post(withdraw))
        .route("/api/games/{board}/move", post(play))
        .route("/api/games/{board}/chat", post(chat))
        .route("/api/games/{board}/subscribe", post(subscribe))
        .route("/api/games/{board}/unsubscribe", post(unsubscribe))
        .route("/api/games/{board}/ws", get(game_socket))
        .route("/api/ws", get(user_socket))
        .route("/api/seeks", get(seeks::list).post(seeks::post))
        .route("/api/seeks/pair", post(seeks::pair))
        .route("/api/seeks/{id}", axum::routing::delete(seeks::withdraw))
        .route("/api/seeks/{id}/accept", post(seeks::accept))
        .route("/api/lobby/ws", get(seeks::socket))
        .route("/api/kinds", get(kinds::get))
        .route("/api/leaderboard", get(leaderboard::get))
        .route("/api/tv", get(tv::get))
        .route("/api/bot/upgrade", post(leaderboard::upgrade_to_bot))
        .merge(crate::doors::web::routes(state.app.clone()))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(
            crate::doors::http::errors::json_errors,
        ))
        .with_state(state)
}

async fn openapi() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        include_str!("openapi.json"),
    )
}

/// The token of a request: `Authorization: Bearer`, the session cookie, or `?token=`.
fn token<'a>(headers: &'a HeaderMap, query: Option<&'a str>) -> Option<&'a str> {
    if let Some(value) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    {
        return value.strip_prefix("Bearer ").map(str::trim);
    }
    let cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(SESSION_COOKIE)?.strip_prefix('='));
    cookie.or(query)
}

async fn authenticated(
    state: &HttpState,
    headers: &HeaderMap,
    query: Option<&str>,
) -> Result<String, ApiError> {
    let token = token(headers, query).ok_or(ApiError(Error::Auth))?;
    Ok(state.app.accounts.token_user(token).await?)
}

/// `POST /api/command`: the first line is the command, the rest the body (a chat message).
async fn command_door(
    State(state): State<HttpState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    text: String,
) -> Response {
    let (line, body) = match text.split_once('\n') {
        Some((line, body)) => (line.trim().to_string(), Some(body.to_string())),
        None => (text.trim().to_string(), None),
    };
    let json = command::wants_json(&line)
        || headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("application/json"));
    let request = Request {
        line,
        body,
        peer: Some(peer.ip()),
    };
    let reply = command::execute(&state.app, &request).await;
    let status = if reply.ok {
        StatusCode::OK
    } else {
        StatusCode::BAD_REQUEST
    };
    match json {
        true => (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            reply.to_json(),
        )
            .into_response(),
        false => (
            status,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            reply.text,
        )
            .into_response(),
    }
}

#[derive(Deserialize)]
struct SignupBody {
    userid: String,
    password: String,
    #[serde(default)]
    addresses: Vec<String>,
}

async fn signup(
    State(state): State<HttpState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Body(body): Body<SignupBody>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let user = state
        .app
        .accounts
        .signup(
            &body.userid,
            &body.password,
            &body.addresses,
            Some(peer.ip()),
        )
        .await?;
    Ok((StatusCode::CREATED, Json(json!({"userid": user.name}))))
}

#[derive(Deserialize)]
struct LoginBody {
    userid: String,
    password: String,
}

async fn login(
    State(state): State<HttpState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Body(body): Body<LoginBody>,
) -> ApiResult<Response> {
    let (name, token) = state
        .app
        .accounts
        .from_peer(Some(peer.ip()))
        .login(&body.userid, &body.password)
        .await?;
    let cookie =
        format!("{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000");
    let mut response = Json(json!({"userid": name, "token": token})).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_str(&cookie).expect("hex token is a valid header"),
    );
    Ok(response)
}

async fn logout(State(state): State<HttpState>, headers: HeaderMap) -> ApiResult<Response> {
    let token = token(&headers, None).ok_or(ApiError(Error::Auth))?;
    state.app.accounts.logout(token).await?;
    let mut response = Json(json!({})).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("ataxx_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"),
    );
    Ok(response)
}

async fn me(State(state): State<HttpState>, headers: HeaderMap) -> ApiResult {
    let name = authenticated(&state, &headers, None).await?;
    user_json(&state.app, &name).await.map(Json)
}

#[derive(Deserialize)]
struct PasswordBody {
    current: String,
    new: String,
}

async fn change_password(
    State(state): State<HttpState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Body(body): Body<PasswordBody>,
) -> ApiResult {
    let name = authenticated(&state, &headers, None).await?;
    state
        .app
        .accounts
        .from_peer(Some(peer.ip()))
        .change_password(&name, &body.current, &body.new)
        .await?;
    Ok(Json(json!({"userid": name})))
}

fn rating_json(rating: &crate::model::RatingRow) -> Value {
    json!({
        "rating": rating.rating,
        "deviation": rating.deviation,
        "provisional": rating.is_provisional(),
        "rating_text": rating.rating_text(),
        "wins": rating.wins,
        "losses": rating.losses,
        "draws": rating.draws,
    })
}

/// A user with their rating in `game` at the top level and every game's rating in `ratings`.
async fn user_summary(
    conn: &mut sqlx::AnyConnection,
    user: &crate::model::UserRow,
    game: &str,
) -> Result<Value, Error> {
    let mut value = rating_json(&store::rating(conn, &user.name, game).await?);
    let ratings: serde_json::Map<String, Value> = store::ratings_of_user(conn, &user.name)
        .await?
        .iter()
        .map(|r| (r.game.clone(), rating_json(r)))
        .collect();
    value["userid"] = json!(user.name);
    value["game"] = json!(game);
    value["ratings"] = Value::Object(ratings);
    value["bot"] = json!(user.bot_level);
    value["accepts_challenges"] = json!(!user.refuses_challenges);
    value["game_limit"] = json!(user.game_limit);
    Ok(value)
}

async fn user_json(app: &App, name: &str) -> Result<Value, ApiError> {
    let mut conn = app.storage.read().await.map_err(ApiError)?;
    let user = store::user(&mut conn, name)
        .await?
        .ok_or_else(|| Error::UnknownUser(name.to_string()))?;
    let history = store::rating_history(&mut conn, name).await?;
    let mut value = user_summary(&mut conn, &user, GameKind::Ataxx.name()).await?;
    value["rating_history"] = json!(history);
    Ok(value)
}

async fn user(State(state): State<HttpState>, Path(name): Path<String>) -> ApiResult {
    user_json(&state.app, &name.to_ascii_lowercase())
        .await
        .map(Json)
}

#[derive(Deserialize)]
struct StandingsQuery {
    /// A game's name; `ataxx` if left out.
    game: Option<String>,
}

async fn standings(
    State(state): State<HttpState>,
    Query(query): Query<StandingsQuery>,
) -> ApiResult {
    let game = match &query.game {
        Some(name) => name.parse::<GameKind>().map_err(|e| bad(e.to_string()))?,
        None => GameKind::Ataxx,
    };
    let mut conn = state.app.storage.read().await?;
    let ratings = store::ratings_of_game(&mut conn, game.name()).await?;
    let mut rows = vec![];
    for rating in ratings.iter().filter(|r| r.games_played() > 0) {
        if let Some(user) = store::user(&mut conn, &rating.name).await? {
            rows.push(user_summary(&mut conn, &user, game.name()).await?);
        }
    }
    Ok(Json(json!(rows)))
}

async fn bots(State(state): State<HttpState>) -> ApiResult {
    let mut conn = state.app.storage.read().await?;
    let mut rows = vec![];
    for level in &ataxx_players::LEVELS {
        let name = crate::domain::bots::account_name(level);
        if let Some(user) = store::user(&mut conn, &name).await? {
            let mut value = user_summary(&mut conn, &user, GameKind::Ataxx.name()).await?;
            value["level"] = json!(level.name);
            value["description"] = json!(level.description);
            value["engine"] = json!(false);
            // A level plays the games whose table names it, each its own way: the lobby offers
            // it for those only, describing how it plays the chosen one.
            let described: Vec<(&str, &str)> = GameKind::ALL
                .into_iter()
                .filter_map(|kind| {
                    ataxx_players::description(level.name, kind).map(|text| (kind.name(), text))
                })
                .collect();
            let games: Vec<&str> = described.iter().map(|(game, _)| *game).collect();
            value["games"] = json!(games);
            let descriptions: serde_json::Map<String, Value> = described
                .into_iter()
                .map(|(game, text)| (game.to_string(), json!(text)))
                .collect();
            value["descriptions"] = Value::Object(descriptions);
            rate_in_every(&mut conn, &mut value, &user.name, &games).await?;
            rows.push(value);
        }
    }
    // Engines their authors put on the server with `ataxx bot`, after the built-in levels.
    for user in crate::domain::bot_accounts::engine_bots(&mut conn).await? {
        let mut value = user_summary(&mut conn, &user, GameKind::Ataxx.name()).await?;
        value["level"] = json!(user.name);
        value["description"] = json!("An engine played through `ataxx bot` (UAI) by its author.");
        value["engine"] = json!(true);
        let games = GameKind::ALL.map(GameKind::name);
        rate_in_every(&mut conn, &mut value, &user.name, &games).await?;
        rows.push(value);
    }
    Ok(Json(json!(rows)))
}

/// Gives a bot's `ratings` an entry for every game it is offered in, the initial rating where it
/// has not played that game yet: the lobby's level menu shows the rating in the chosen game.
async fn rate_in_every(
    conn: &mut sqlx::AnyConnection,
    bot: &mut Value,
    name: &str,
    games: &[&str],
) -> Result<(), Error> {
    for game in games {
        if bot["ratings"].get(*game).is_none() {
            bot["ratings"][*game] = rating_json(&store::rating(conn, name, game).await?);
        }
    }
    Ok(())
}

#[derive(Deserialize)]
struct ListQuery {
    player: Option<String>,
    /// A game's name: only boards of that game.
    game: Option<String>,
    /// `challenge`, `active`, `finished` (comma-separated), or all.
    status: Option<String>,
    limit: Option<i64>,
}

async fn list_games(State(state): State<HttpState>, Query(query): Query<ListQuery>) -> ApiResult {
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
struct ChallengeBody {
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

async fn challenge(
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

async fn game(State(state): State<HttpState>, Path(board): Path<i64>) -> ApiResult {
    Ok(Json(json!(state.app.games.view(board).await?)))
}

#[derive(Deserialize)]
struct AtQuery {
    /// Show the board as it was after this many moves.
    at: Option<usize>,
}

async fn game_text(
    State(state): State<HttpState>,
    Path(board): Path<i64>,
    Query(query): Query<AtQuery>,
) -> ApiResult<Response> {
    let view = state.app.games.view(board).await?;
    let text = board::mail(&view, query.at, state.app.games.now_ms());
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn game_pgn(State(state): State<HttpState>, Path(board): Path<i64>) -> ApiResult<Response> {
    let pgn = crate::doors::render::export::pgn(&state.app.games.view(board).await?);
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        pgn,
    )
        .into_response())
}

async fn game_record(
    State(state): State<HttpState>,
    Path(board): Path<i64>,
) -> ApiResult<Response> {
    let text = crate::doors::render::export::record(&state.app.games.view(board).await?);
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn answer(state: HttpState, headers: HeaderMap, board: i64, answer: Answer) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    Ok(Json(json!(
        state.app.games.answer(board, &me, answer).await?
    )))
}

async fn accept(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(board): Path<i64>,
) -> ApiResult {
    answer(state, headers, board, Answer::Accept).await
}

async fn decline(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(board): Path<i64>,
) -> ApiResult {
    answer(state, headers, board, Answer::Decline).await
}

async fn withdraw(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(board): Path<i64>,
) -> ApiResult {
    answer(state, headers, board, Answer::Withdraw).await
}

#[derive(Deserialize)]
struct MoveBody {
    /// Move text, or one of the words resign, propose, undo, accept, reject.
    #[serde(rename = "move")]
    mv: String,
    /// The number this move gets (the board's `ply` + 1); a stale number is refused.
    guard: Option<i64>,
}

async fn play(
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

async fn subscribe(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(board): Path<i64>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    Ok(Json(json!(
        state.app.games.subscribe(board, &me, true).await?
    )))
}

async fn unsubscribe(
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
struct ChatBody {
    text: String,
}

async fn chat(
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

// ---------------------------------------------------------------------------------------------
// WebSockets

#[derive(Deserialize)]
struct SocketQuery {
    token: Option<String>,
    /// The last board version the client has: a snapshot is sent only when it is behind.
    since: Option<i64>,
}

async fn game_socket(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(board): Path<i64>,
    Query(query): Query<SocketQuery>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    // Anyone may watch; a signed-in player may also move.
    let revocations = state.app.accounts.revocations();
    let session = match token(&headers, query.token.as_deref()) {
        Some(token) => Some(Session {
            user: authenticated(&state, &headers, query.token.as_deref()).await?,
            token: token.to_string(),
            revocations,
        }),
        None => None,
    };
    let current = state.app.games.summary(board).await?;
    let events = state.app.hub.board(board);
    let greeting = match query.since {
        Some(since) if since >= current.version => None,
        _ => Some(snapshot(&state.app, board).await?),
    };
    Ok(upgrade
        .max_message_size(MAX_SOCKET_READ)
        .max_frame_size(MAX_SOCKET_READ)
        .on_upgrade(move |socket| stream(state, socket, session, Some(board), greeting, events)))
}

async fn user_socket(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Query(query): Query<SocketQuery>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let revocations = state.app.accounts.revocations();
    let token = token(&headers, query.token.as_deref())
        .unwrap_or_default()
        .to_string();
    let user = authenticated(&state, &headers, query.token.as_deref()).await?;
    let events = state.app.hub.user(&user);
    let greeting = json!({"type": "hello", "user": user}).to_string();
    // An open page keeps its user's live seeks open.
    let presence = state.app.seeks.present(&user);
    let session = Session {
        user,
        token,
        revocations,
    };
    Ok(upgrade
        .max_message_size(MAX_SOCKET_READ)
        .max_frame_size(MAX_SOCKET_READ)
        .on_upgrade(move |socket| async move {
            stream(state, socket, Some(session), None, Some(greeting), events).await;
            drop(presence);
        }))
}

/// What a socket reads at most before it refuses a message: larger than [`MAX_BODY`] so that a
/// message over the limit is read whole and answered with close code 1009.
const MAX_SOCKET_READ: usize = 4 * MAX_BODY;

/// The signed-in user of a socket, with the token it was opened with: a logout, a password
/// change or a closed account ends it.
struct Session {
    user: String,
    token: String,
    revocations: tokio::sync::broadcast::Receiver<crate::domain::accounts::Revocation>,
}

impl Session {
    /// Waits until this session is revoked.
    async fn ended(&mut self) {
        loop {
            match self.revocations.recv().await {
                Ok(revocation) => {
                    if crate::Accounts::ends_session(&revocation, &self.user, Some(&self.token)) {
                        return;
                    }
                }
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => std::future::pending::<()>().await,
            }
        }
    }
}

/// Close code 1008 (policy violation): the session ended.
fn session_ended_frame() -> Message {
    Message::Close(Some(axum::extract::ws::CloseFrame {
        code: 1008,
        reason: "session ended: signed out, password changed or account closed".into(),
    }))
}

/// Close code 1009 (message too big).
fn too_big_frame() -> Message {
    Message::Close(Some(axum::extract::ws::CloseFrame {
        code: 1009,
        reason: "message over 64 KiB".into(),
    }))
}

/// Runs one socket: forwards events, answers client messages, ends on close, shutdown or the
/// end of its session.
async fn stream(
    mut state: HttpState,
    socket: WebSocket,
    mut session: Option<Session>,
    board: Option<i64>,
    greeting: Option<String>,
    mut events: tokio::sync::broadcast::Receiver<Event>,
) {
    let (mut sink, mut incoming) = socket.split();
    if let Some(greeting) = greeting {
        if sink.send(Message::Text(greeting.into())).await.is_err() {
            return;
        }
    }
    loop {
        let ended = async {
            match session.as_mut() {
                Some(session) => session.ended().await,
                None => std::future::pending().await,
            }
        };
        let out: Option<String> = tokio::select! {
            event = events.recv() => match event {
                Ok(event) => Some(event.json.to_string()),
                // Fell behind: a board stream gets a fresh snapshot, a user stream is told to resync.
                Err(RecvError::Lagged(_)) => match board {
                    Some(board) => snapshot(&state.app, board).await.ok(),
                    None => Some(json!({"type": "resync"}).to_string()),
                },
                Err(RecvError::Closed) => return,
            },
            message = incoming.next() => match message {
                Some(Ok(Message::Text(text))) if text.len() > MAX_BODY => {
                    let _ = sink.send(too_big_frame()).await;
                    return;
                }
                Some(Ok(Message::Text(text))) => {
                    // A session revoked a moment ago may not act any more.
                    if let Some(s) = &session {
                        if state.app.accounts.token_user(&s.token).await.ok().as_deref() != Some(s.user.as_str()) {
                            let _ = sink.send(Message::Text(error_message(None, &Error::Auth).into())).await;
                            let _ = sink.send(session_ended_frame()).await;
                            return;
                        }
                    }
                    let user = session.as_ref().map(|s| s.user.as_str());
                    Some(socket_messages::answer(&state.app, user, board, &text).await)
                }
                Some(Ok(Message::Binary(bytes))) if bytes.len() > MAX_BODY => {
                    let _ = sink.send(too_big_frame()).await;
                    return;
                }
                Some(Err(err)) => {
                    // Over even the read limit: still say why before closing.
                    if err.to_string().contains("too long") || err.to_string().contains("Space limit") {
                        let _ = sink.send(too_big_frame()).await;
                    }
                    return;
                }
                Some(Ok(Message::Close(_))) | None => return,
                Some(Ok(_)) => None,
            },
            _ = ended => {
                let _ = sink.send(session_ended_frame()).await;
                return;
            }
            _ = state.stopped.changed() => {
                let _ = sink.send(Message::Close(None)).await;
                return;
            }
        };
        if let Some(out) = out {
            if sink.send(Message::Text(out.into())).await.is_err() {
                return;
            }
        }
    }
}
