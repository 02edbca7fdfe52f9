//! The HTTP door: a JSON API over the same services as the command language, `POST
//! /api/command` for the language itself, WebSocket event streams per board and per user, and
//! the OpenAPI document. docs/server.md describes every endpoint.
//!
//! Each resource has its file; `auth` says who a request comes from, `errors` how a refusal
//! is answered. Handlers translate: every answer is a domain call's result or view as JSON.

use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post, MethodRouter};
use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::domain::games::Answer;
use crate::App;

mod accounts;
mod admin;
mod analysis;
mod auth;
mod command;
pub(crate) mod errors;
mod explorer;
mod forwarded;
mod games;
mod health;
mod kinds;
mod layout;
mod leaderboard;
mod listen;
pub mod metrics;
mod moderation;
mod origin;
mod password_reset;
mod presence;
mod read_limits;
mod rules;
mod scopes;
mod search;
mod seeks;
mod socket;
pub mod socket_messages;
mod tokens;
mod totp;
mod tournaments;
mod tv;
mod users;
mod vacation;
mod web;

use auth::{authenticated, token};
use errors::{bad, ApiError, ApiResult, Body};
use socket::SocketQuery;

pub use forwarded::TrustedProxies;
pub use listen::Limits;
pub use origin::Site;

/// The largest request body and WebSocket message.
pub const MAX_BODY: usize = 64 * 1024;

#[derive(Clone)]
struct HttpState {
    app: App,
    stopped: watch::Receiver<bool>,
    site: Site,
}

/// How the door serves: its connection limits, and where the browsers' pages come from.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub limits: Limits,
    pub site: Site,
    /// The reverse proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`).
    pub trusted_proxies: TrustedProxies,
    /// Whether the expensive public reads are rate limited per client address (read_limits.rs).
    pub limit_reads: bool,
}

pub async fn serve(
    app: App,
    listener: TcpListener,
    stopped: watch::Receiver<bool>,
    options: Options,
) {
    let state = HttpState {
        app,
        stopped: stopped.clone(),
        site: options.site,
    };
    let proxies = options.trusted_proxies;
    let router = router(state, options.limit_reads);
    listen::serve(router, listener, stopped, options.limits, proxies).await;
}

fn router(state: HttpState, limit_reads: bool) -> Router {
    let quotas = Quotas::new(limit_reads);
    Router::new()
        .route("/api/openapi.json", get(openapi))
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/api/command", post(command::run))
        .merge(account_routes(&quotas))
        .merge(game_routes(&quotas))
        .merge(lobby_routes(&quotas))
        .merge(position_routes(&quotas))
        .merge(moderation_routes())
        .merge(web::routes(state.app.clone()))
        // API tokens reach only what their scopes allow (scopes.rs).
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            scopes::enforce,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            origin::same_origin,
        ))
        .layer(axum::middleware::from_fn(errors::json_errors))
        .layer(axum::middleware::from_fn(health::with_request_id))
        .with_state(state)
}

/// Accounts: signup, sessions, passwords and resets, second factors, API tokens, profiles,
/// standings, the bots and presence.
fn account_routes(quotas: &Quotas) -> Router<HttpState> {
    Router::new()
        .route("/api/signup", post(accounts::signup))
        .route("/api/login", post(accounts::login))
        .route("/api/logout", post(accounts::logout))
        .route("/api/me", get(users::me))
        .route("/api/password", post(accounts::change_password))
        .route(
            "/api/account/vacation",
            get(vacation::get)
                .post(vacation::start)
                .delete(vacation::end),
        )
        .route("/api/password-reset", post(password_reset::request))
        .route("/api/password-reset/confirm", post(password_reset::confirm))
        .route("/api/totp", post(totp::begin))
        .route("/api/totp/confirm", post(totp::confirm))
        .route("/api/totp/disable", post(totp::disable))
        .route("/api/users/{name}", get(users::user))
        .route(
            "/api/standings",
            counted(&quotas.search, get(users::standings)),
        )
        .route("/api/bots", get(users::bots))
        .route("/api/presence", post(presence::beat))
        .route("/api/ws", get(socket::user_socket))
        .route("/api/bot/upgrade", post(leaderboard::upgrade_to_bot))
        .route(
            "/api/account/tokens",
            get(tokens::list).post(tokens::create),
        )
        .route(
            "/api/account/tokens/{id}",
            axum::routing::delete(tokens::revoke),
        )
}

/// Boards: challenges and their answers, moves, chat, following, exports, analysis, search,
/// and their sockets.
fn game_routes(quotas: &Quotas) -> Router<HttpState> {
    Router::new()
        .route("/api/games", get(games::list).post(games::challenge))
        .route(
            "/api/games/search",
            counted(&quotas.search, get(search::search)),
        )
        .route(
            "/api/games/search/pgn",
            counted(&quotas.export, get(search::pgn)),
        )
        .route("/api/games/{board}", get(games::game))
        .route("/api/games/{board}/text", get(games::game_text))
        .route("/api/games/{board}/pgn", get(games::game_pgn))
        .route("/api/games/{board}/record", get(games::game_record))
        .route(
            "/api/games/{board}/analysis",
            get(analysis::get).post(analysis::request),
        )
        .route(
            "/api/games/{board}/accept",
            games::answering(Answer::Accept),
        )
        .route(
            "/api/games/{board}/decline",
            games::answering(Answer::Decline),
        )
        .route(
            "/api/games/{board}/withdraw",
            games::answering(Answer::Withdraw),
        )
        .route("/api/games/{board}/move", post(games::play))
        .route("/api/games/{board}/chat", post(games::chat))
        .route("/api/games/{board}/subscribe", post(games::subscribe))
        .route("/api/games/{board}/unsubscribe", post(games::unsubscribe))
        .route("/api/games/{board}/ws", get(socket::game_socket))
}

/// The lobby: seeks and tournaments, and their sockets.
fn lobby_routes(quotas: &Quotas) -> Router<HttpState> {
    Router::new()
        .route("/api/seeks", get(seeks::list).post(seeks::post))
        .route("/api/seeks/pair", post(seeks::pair))
        .route("/api/seeks/{id}", axum::routing::delete(seeks::withdraw))
        .route("/api/seeks/{id}/accept", post(seeks::accept))
        .route("/api/lobby/ws", get(seeks::socket))
        .route(
            "/api/tournaments",
            get(tournaments::list).post(tournaments::create),
        )
        .route("/api/tournaments/{id}", get(tournaments::show))
        .route(
            "/api/tournaments/{id}/pgn",
            counted(&quotas.export, get(tournaments::pgn)),
        )
        .route("/api/tournaments/{id}/ws", get(tournaments::socket))
        .route(
            "/api/tournaments/{id}/join",
            tournaments::acting(crate::doors::command::TournamentAct::Join),
        )
        .route(
            "/api/tournaments/{id}/withdraw",
            tournaments::acting(crate::doors::command::TournamentAct::Withdraw),
        )
        .route(
            "/api/tournaments/{id}/start",
            tournaments::acting(crate::doors::command::TournamentAct::Start),
        )
        .route(
            "/api/tournaments/{id}/stop",
            tournaments::acting(crate::doors::command::TournamentAct::Stop),
        )
}

/// The games themselves and their positions: kinds, layouts, rules, the analysis board, the
/// explorer, the leaderboard and TV.
fn position_routes(quotas: &Quotas) -> Router<HttpState> {
    Router::new()
        .route("/api/kinds", get(kinds::get))
        .route("/api/layout/{text}", get(layout::get))
        .route("/api/analysis", get(analysis::position))
        .route("/api/rules/{game}", get(rules::position))
        .route("/api/rules/ataxx/import", post(rules::import))
        .route(
            "/api/leaderboard",
            counted(&quotas.search, get(leaderboard::get)),
        )
        .route(
            "/api/explorer",
            counted(&quotas.explorer, get(explorer::get)),
        )
        .route("/api/tv", get(tv::get))
}

/// Moderation and the admins' acts.
fn moderation_routes() -> Router<HttpState> {
    Router::new()
        .route(
            "/api/blocks",
            get(moderation::blocks).post(moderation::block),
        )
        .route(
            "/api/blocks/{user}",
            axum::routing::delete(moderation::unblock),
        )
        .route(
            "/api/reports",
            get(moderation::reports).post(moderation::report),
        )
        .route("/api/users/{name}/mute", post(moderation::mute))
        .route("/api/users/{name}/moderator", post(moderation::grant))
        .route("/api/admin/log", get(admin::log))
        .route("/api/admin/users/{name}/ban", post(admin::ban))
        .route("/api/admin/users/{name}/unban", post(admin::unban))
        .route("/api/admin/users/{name}/close", post(admin::close))
        .route("/api/admin/users/{name}/reset", post(admin::reset))
        .route("/api/admin/users/{name}/cheater", post(admin::cheater))
        .route("/api/admin/users/{name}/uncheater", post(admin::uncheater))
        .route("/api/admin/games/{board}/abort", post(admin::abort))
}

/// The per-address quotas of the expensive public reads (read_limits.rs), one per kind of read.
struct Quotas {
    export: read_limits::ReadLimit,
    explorer: read_limits::ReadLimit,
    search: read_limits::ReadLimit,
}

impl Quotas {
    fn new(limit_reads: bool) -> Quotas {
        use read_limits::{ReadLimit, Reads};
        Quotas {
            export: ReadLimit::new(Reads::Export, limit_reads),
            explorer: ReadLimit::new(Reads::Explorer, limit_reads),
            search: ReadLimit::new(Reads::Search, limit_reads),
        }
    }
}

/// `route` with its reads counted against `limit`.
fn counted(
    limit: &read_limits::ReadLimit,
    route: MethodRouter<HttpState>,
) -> MethodRouter<HttpState> {
    route.route_layer(axum::middleware::from_fn_with_state(
        limit.clone(),
        read_limits::limited,
    ))
}

async fn openapi() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        include_str!("openapi.json"),
    )
}
