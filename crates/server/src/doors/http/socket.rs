//! The event sockets: `/api/games/{board}/ws` (a board's events; a signed-in player may also
//! move) and `/api/ws` (a user's events; a visitor's has none). On either, a page may run one
//! live analysis (the analysis board's lines). A socket ends when its session does, and its
//! live analysis with it.

use std::net::{IpAddr, SocketAddr};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;

use super::socket_messages::{self, error_message, news_message, snapshot, Caller, ClientMessage};
use super::{authenticated, token, ApiResult, HttpState, MAX_BODY};
use crate::domain::analysis::live::{LiveNews, LiveSearch};
use crate::error::Error;
use crate::model::Event;
use crate::App;

#[derive(Deserialize)]
pub(super) struct SocketQuery {
    pub(super) token: Option<String>,
    /// The last board version the client has: a snapshot is sent only when it is behind.
    since: Option<i64>,
}

pub(super) async fn game_socket(
    State(state): State<HttpState>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
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
    let events = Feed::new(&state, Some(state.app.hub.board(board)));
    let greeting = match query.since {
        Some(since) if since >= current.version => None,
        _ => Some(snapshot(&state.app, board).await?),
    };
    let client = client.ip();
    Ok(sized(upgrade, MAX_SOCKET_READ).on_upgrade(move |socket| {
        stream(
            state,
            socket,
            session,
            Some(board),
            client,
            greeting,
            events,
        )
    }))
}

pub(super) async fn user_socket(
    State(state): State<HttpState>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Query(query): Query<SocketQuery>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let client = client.ip();
    let revocations = state.app.accounts.revocations();
    // Without a token, a visitor's socket: no events, a live analysis (the analysis board).
    let Some(token) = token(&headers, query.token.as_deref()).map(str::to_string) else {
        let greeting = json!({"type": "hello", "user": null}).to_string();
        let events = Feed::new(&state, None);
        return Ok(sized(upgrade, MAX_SOCKET_READ).on_upgrade(move |socket| {
            stream(state, socket, None, None, client, Some(greeting), events)
        }));
    };
    let user = authenticated(&state, &headers, query.token.as_deref()).await?;
    let events = Feed::new(&state, Some(state.app.hub.user(&user)));
    let greeting = json!({"type": "hello", "user": user}).to_string();
    // An open page keeps its user's live seeks open.
    let presence = state.app.seeks.present(&user);
    let session = Session {
        user,
        token,
        revocations,
    };
    Ok(
        sized(upgrade, MAX_SOCKET_READ).on_upgrade(move |socket| async move {
            stream(
                state,
                socket,
                Some(session),
                None,
                client,
                Some(greeting),
                events,
            )
            .await;
            drop(presence);
        }),
    )
}

/// What a socket reads at most before it refuses a message: larger than [`MAX_BODY`] so that a
/// message over the limit is read whole and answered with close code 1009.
const MAX_SOCKET_READ: usize = 4 * MAX_BODY;

/// A socket's read buffer. Clients send small messages (a move, a ping); tungstenite's default
/// of 128 KiB, allocated when the socket opens, was most of an idle socket's 144 KiB (issue
/// #29). A larger message is read in several calls.
const SOCKET_READ_BUFFER: usize = 4 * 1024;

/// The upgrade with the server's socket sizes: its read buffer, and `max` for a message or frame.
pub(super) fn sized(upgrade: WebSocketUpgrade, max: usize) -> WebSocketUpgrade {
    upgrade
        .read_buffer_size(SOCKET_READ_BUFFER)
        .max_message_size(max)
        .max_frame_size(max)
}

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
                    if crate::domain::accounts::Accounts::ends_session(
                        &revocation,
                        &self.user,
                        Some(&self.token),
                    ) {
                        return;
                    }
                }
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => std::future::pending::<()>().await,
            }
        }
    }

    /// Whether the session is still open (it may have ended a moment ago, or while this node
    /// was not listening); Err when the database cannot say.
    async fn is_open(&self, state: &HttpState) -> Result<bool, Error> {
        session_open(&state.app, &self.user, &self.token).await
    }
}

/// Whether `token` is still `user`'s session; Err when the database cannot say.
async fn session_open(app: &App, user: &str, token: &str) -> Result<bool, Error> {
    match app.accounts.token_user(token).await {
        Ok(owner) => Ok(owner == user),
        Err(Error::Auth) => Ok(false),
        Err(err) => Err(err),
    }
}

/// What became of a client's message.
enum Answered {
    /// The reply to send.
    Reply(String),
    /// Refused: the socket's session had ended (this is the reply); the socket closes.
    SessionEnded(String),
}

/// A message whose answer waits for the database (a move, a resync), answered on a task of its
/// own while the socket goes on forwarding events: a player's socket with moves in flight on
/// several boards would otherwise hold back the opponents' moves it forwards. The socket reads
/// no other message before this one is answered, so a client's messages are still answered in
/// order; and a socket that closes meanwhile does not cut a move short.
type Answering = tokio::task::JoinHandle<Answered>;

/// Answers a client's message once its session is checked: a session revoked a moment ago may
/// not act any more. `signed_in` is the socket's user and token (None: a visitor's or a
/// watcher's socket).
async fn answer_checked(
    app: App,
    signed_in: Option<(String, String)>,
    address: IpAddr,
    board: Option<i64>,
    message: ClientMessage,
    live: &mut Option<LiveSearch>,
) -> Answered {
    let open = match &signed_in {
        Some((user, token)) => session_open(&app, user, token).await,
        None => Ok(true),
    };
    match open {
        Ok(true) => {
            // A socket opened with an API token moves only within its scopes.
            if let (ClientMessage::Move { id, .. }, Some((_, token))) = (&message, &signed_in) {
                if let Err(err) = super::scopes::may_move(&app, token).await {
                    return Answered::Reply(error_message(id.clone(), &err));
                }
            }
            let user = signed_in.as_ref().map(|(user, _)| user.as_str());
            let caller = Caller { user, address };
            Answered::Reply(socket_messages::answer(&app, caller, board, message, live).await)
        }
        Ok(false) => Answered::SessionEnded(error_message(None, &Error::Auth)),
        // The database cannot say (it is restarting): the message is refused, and the socket
        // stays open. Closing it as "session ended" signed pages out for a database restart, and
        // their streams stopped (the soak's "sockets behind", issue #28). The session is checked
        // again when the listener is back (`gaps`) and with the next message.
        Err(err) => Answered::Reply(error_message(None, &err)),
    }
}

/// Sends the refusal of a message from a session that ended, then closes the socket.
async fn end_session(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    reply: String,
) {
    let _ = sink.send(Message::Text(reply.into())).await;
    let _ = sink.send(session_ended_frame()).await;
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

/// What a socket forwards: its stream of events (none for a visitor), and the hub's gaps
/// (events this node may have missed), taken before its greeting is read so that none falls in
/// between.
struct Feed {
    events: Option<tokio::sync::broadcast::Receiver<Event>>,
    gaps: tokio::sync::watch::Receiver<u64>,
}

impl Feed {
    fn new(state: &HttpState, events: Option<tokio::sync::broadcast::Receiver<Event>>) -> Feed {
        let gaps = state.app.hub.gaps();
        Feed { events, gaps }
    }
}

/// The next event of a feed; a visitor's never comes.
async fn next_event(
    events: &mut Option<tokio::sync::broadcast::Receiver<Event>>,
) -> Result<Event, RecvError> {
    match events {
        Some(events) => events.recv().await,
        None => std::future::pending().await,
    }
}

/// The next news of the socket's live analysis; none while it has none.
async fn next_news(live: &mut Option<LiveSearch>) -> Option<LiveNews> {
    match live {
        Some(search) => search.next().await,
        None => std::future::pending().await,
    }
}

/// What a stream that fell behind, or may have missed events, is sent: a board stream a fresh snapshot, a user
/// stream `{"type":"resync"}`.
async fn resync(state: &HttpState, board: Option<i64>) -> Option<String> {
    match board {
        Some(board) => snapshot(&state.app, board).await.ok(),
        None => Some(json!({"type": "resync"}).to_string()),
    }
}

/// Runs one socket: forwards events and its live analysis's news, answers client messages,
/// ends on close, shutdown or the end of its session (its live analysis ends with it).
async fn stream(
    mut state: HttpState,
    socket: WebSocket,
    mut session: Option<Session>,
    board: Option<i64>,
    client: IpAddr,
    greeting: Option<String>,
    Feed {
        mut events,
        mut gaps,
    }: Feed,
) {
    let _connected = crate::metrics::Connected::to("websocket");
    let mut live: Option<LiveSearch> = None;
    let mut answering: Option<Answering> = None;
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
            event = next_event(&mut events) => match event {
                Ok(event) => Some(event.json.to_string()),
                Err(RecvError::Lagged(_)) => resync(&state, board).await,
                Err(RecvError::Closed) => return,
            },
            // The node's listener was away (a database restart): events may be missing, and so
            // may the end of this socket's session.
            Ok(()) = gaps.changed() => {
                if let Some(s) = &session {
                    // Unknown (the database away again) keeps the socket open.
                    if matches!(s.is_open(&state).await, Ok(false)) {
                        let _ = sink.send(session_ended_frame()).await;
                        return;
                    }
                }
                match events {
                    Some(_) => resync(&state, board).await,
                    None => None,
                }
            }
            news = next_news(&mut live) => match news {
                Some(news) => Some(news_message(&news)),
                // Its end was told.
                None => {
                    live = None;
                    None
                }
            },
            answered = async {
                match answering.as_mut() {
                    Some(answering) => answering.await,
                    None => std::future::pending().await,
                }
            } => {
                answering = None;
                match answered {
                    Ok(Answered::Reply(reply)) => Some(reply),
                    Ok(Answered::SessionEnded(reply)) => return end_session(&mut sink, reply).await,
                    Err(err) => {
                        tracing::error!(%err, "a socket message's answer failed");
                        Some(error_message(None, &Error::Command("the server failed to answer this message".into())))
                    }
                }
            }
            message = incoming.next(), if answering.is_none() => match message {
                Some(Ok(Message::Text(text))) if text.len() > MAX_BODY => {
                    let _ = sink.send(too_big_frame()).await;
                    return;
                }
                Some(Ok(Message::Text(text))) => match ClientMessage::read(&text) {
                    Err(reply) => Some(reply),
                    Ok(message) => {
                        let signed_in = session.as_ref().map(|s| (s.user.clone(), s.token.clone()));
                        let app = state.app.clone();
                        if message.is_analysis() {
                            // Quick, and it owns the socket's live analysis: answered at once.
                            let answered = answer_checked(app, signed_in, client, board, message, &mut live).await;
                            match answered {
                                Answered::Reply(reply) => Some(reply),
                                Answered::SessionEnded(reply) => return end_session(&mut sink, reply).await,
                            }
                        } else {
                            answering = Some(tokio::spawn(async move {
                                answer_checked(app, signed_in, client, board, message, &mut None).await
                            }));
                            None
                        }
                    }
                },
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
