//! The properties the fuzz targets check, shared with the stable replay test
//! (`crates/cli/tests/tools/fuzz_replay.rs`), which runs every committed corpus and crash input
//! through them with `cargo test`, no nightly needed. Each takes raw bytes; text parsers get them
//! as UTF-8 (lossily), so every input reaches the parser. A check panics when a property fails.

#![allow(dead_code, unexpected_cfgs)]

use std::io::Cursor;
use std::str::FromStr;

use ataxx::{Layout, Move, PackedBoard, Position, PositionMessage};

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// FEN: what parses is written back canonically, and that text parses to the same position.
pub fn fen(data: &[u8]) {
    let text = text(data);
    if let Ok(pos) = Position::from_str(&text) {
        let written = pos.to_string();
        let again = Position::from_str(&written)
            .unwrap_or_else(|err| panic!("{written:?} (from {text:?}) does not parse: {err}"));
        assert_eq!(again, pos, "{text:?} -> {written:?}");
        assert_eq!(again.to_string(), written);
        // Every legal move of a parsed position is played without a panic.
        for mv in pos.legal_moves().iter().take(8) {
            let mut next = pos;
            next.play(*mv).expect("a generated move is legal");
        }
    }
}

/// Move text: strict and tolerant readers; what they read is written back and read the same.
pub fn move_text(data: &[u8]) {
    let text = text(data);
    if let Ok(mv) = Move::from_str(&text) {
        assert_eq!(Move::from_str(&mv.to_string()).ok(), Some(mv), "{text:?}");
        assert_eq!(
            Move::parse_tolerant(&text).ok(),
            Some(mv),
            "strict {text:?} is tolerant too"
        );
    }
    if let Ok(mv) = Move::parse_tolerant(&text) {
        assert_eq!(Move::from_str(&mv.to_string()).ok(), Some(mv), "{text:?}");
    }
    let _ = Position::startpos().parse_move(&text);
}

/// PGN: every game read is written and read back as the same game.
pub fn pgn(data: &[u8]) {
    let text = text(data);
    if let Ok(games) = ataxx::pgn::parse_games(&text) {
        for game in games {
            let written = game.to_pgn();
            let again: ataxx::Game = written
                .parse()
                .unwrap_or_else(|err| panic!("{written:?} (from {text:?}) does not parse: {err}"));
            assert_eq!(again.moves(), game.moves(), "{text:?} -> {written:?}");
            assert_eq!(again.start(), game.start());
            assert_eq!(again.to_pgn(), written, "writing is stable");
        }
    }
}

/// The two-column record: a game read is written and read back with the same moves.
pub fn record(data: &[u8]) {
    let text = text(data);
    if let Ok(game) = ataxx::record::parse_record(&text) {
        let written = game.to_record(None);
        let again = ataxx::record::parse_record(&written)
            .unwrap_or_else(|err| panic!("{written:?} (from {text:?}) does not parse: {err}"));
        let moves = |g: &ataxx::Game| g.moves().iter().map(|m| m.mv()).collect::<Vec<_>>();
        assert_eq!(moves(&again), moves(&game), "{text:?} -> {written:?}");
        assert_eq!(again.start(), game.start());
    }
}

/// Blocks-Config codes and wall masks: both written forms read back as the same layout.
pub fn blocks(data: &[u8]) {
    let text = text(data);
    for layout in [Layout::from_str(&text).ok(), Layout::parse_mask(&text).ok()]
        .into_iter()
        .flatten()
    {
        assert_eq!(
            Layout::from_str(&layout.to_string()).ok(),
            Some(layout),
            "{text:?}"
        );
        assert_eq!(
            Layout::parse_mask(&layout.mask_text()).ok(),
            Some(layout),
            "{text:?}"
        );
        assert_eq!(
            Layout::from_position(&layout.start_position()).ok(),
            Some(layout)
        );
    }
}

/// The 14-byte board and the 19-byte message: what decodes encodes to the same bytes, as bytes
/// and as hex.
pub fn decode(data: &[u8]) {
    if let Ok(board) = PackedBoard::from_bytes(data) {
        assert_eq!(&board.bytes()[..], data);
        let pos = board.to_position();
        assert_eq!(PackedBoard::from_position(&pos).ok(), Some(board));
        assert_eq!(PackedBoard::from_str(&board.to_string()).ok(), Some(board));
    }
    if let Ok(message) = PositionMessage::from_bytes(data) {
        assert_eq!(&message.to_bytes()[..], data);
        let again = PositionMessage::from_str(&message.to_string()).expect("hex reads back");
        assert_eq!(again.to_bytes(), message.to_bytes());
        let _ = message.to_position();
    }
    let text = text(data);
    let _ = PackedBoard::from_str(&text);
    let _ = PositionMessage::from_str(&text);
}

/// Every variant besides square Ataxx (Hexxagon, four-player Ataxx, Ankor), through the games'
/// seam: FEN and move text read as each game, with the round trips the square checks make.
#[cfg(any(not(fuzzing), feature = "variants"))]
pub fn variants(data: &[u8]) {
    let text = text(data);
    variant::<games::hexxagon::Position>(&text);
    variant::<games::ataxx4::Position>(&text);
    variant::<games::ankor::Position>(&text);
    // Hexxagon has a strict reader of its own beside the tolerant one the seam uses.
    if let Ok(mv) = games::hexxagon::Move::from_str(&text) {
        assert_eq!(
            games::hexxagon::Move::from_str(&mv.to_string()).ok(),
            Some(mv),
            "{text:?}"
        );
        assert_eq!(
            games::hexxagon::Move::parse_tolerant(&text).ok(),
            Some(mv),
            "strict {text:?} is tolerant too"
        );
    }
}

/// One game's FEN and move text: what reads is written back and reads the same; every legal
/// move of a parsed position reads back from its text as itself, legal there, and plays.
#[cfg(any(not(fuzzing), feature = "variants"))]
fn variant<R: games::Rules>(text: &str) {
    if let Ok(pos) = R::from_fen(text) {
        let written = pos.to_string();
        let again = R::from_fen(&written)
            .unwrap_or_else(|err| panic!("{written:?} (from {text:?}) does not parse: {err}"));
        assert_eq!(again, pos, "{text:?} -> {written:?}");
        assert_eq!(again.to_string(), written);
        for mv in pos.legal_moves().into_iter().take(8) {
            let mv_text = mv.to_string();
            assert_eq!(R::parse_move_text(&mv_text).ok(), Some(mv), "{mv_text:?}");
            assert_eq!(
                pos.parse_move(&mv_text).ok(),
                Some(mv),
                "{mv_text:?} in {written:?}"
            );
            let mut next = pos.clone();
            next.play(mv);
        }
    }
    if let Ok(mv) = R::parse_move_text(text) {
        assert_eq!(
            R::parse_move_text(&mv.to_string()).ok(),
            Some(mv),
            "{text:?}"
        );
    }
    if let Ok(start) = R::start(&Default::default()) {
        if let Ok(mv) = start.parse_move(text) {
            assert!(start.legal_moves().contains(&mv), "{text:?} read as legal");
        }
    }
}

/// The command language: any line parses or is refused with a message, never a panic.
#[cfg(any(not(fuzzing), feature = "server"))]
pub fn command(data: &[u8]) {
    let text = text(data);
    if let Err(err) = ataxx_server::fuzz::parse_command(&text) {
        assert!(!err.to_string().is_empty());
    }
}

/// One server with a game in play between alice (x) and bob (o), opened once per process on a
/// SQLite file of its own: the WebSocket check answers messages against it.
#[cfg(any(not(fuzzing), feature = "server"))]
struct SocketServer {
    runtime: tokio::runtime::Runtime,
    table: ataxx_server::fuzz::SocketTable,
}

#[cfg(any(not(fuzzing), feature = "server"))]
impl SocketServer {
    fn get() -> &'static SocketServer {
        static SERVER: std::sync::OnceLock<SocketServer> = std::sync::OnceLock::new();
        SERVER.get_or_init(|| {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            let db = std::env::temp_dir().join(format!("ataxx-fuzz-ws-{}.db", std::process::id()));
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
            }
            let table = runtime
                .block_on(ataxx_server::fuzz::SocketTable::open(
                    &db.display().to_string(),
                ))
                .unwrap();
            SocketServer { runtime, table }
        })
    }
}

/// WebSocket client messages, the first byte choosing who sends (a watcher, x's or o's player)
/// and whether the socket follows the board: what reads as a message is written and read back
/// the same; every answer is one JSON object, `pong`, `snapshot`, `ack`, `analysis_started`,
/// `analysis_end` or `error`, that echoes the message's id; a watcher's move is refused as
/// unauthenticated; a live analysis started is stopped when the message's socket goes.
#[cfg(any(not(fuzzing), feature = "server"))]
pub fn ws(data: &[u8]) {
    use ataxx_server::fuzz::ClientMessage;
    use serde_json::{json, Value};

    let (&who, rest) = data.split_first().unwrap_or((&0, data));
    let text = text(rest);
    let parsed = ClientMessage::read(&text);
    if let Ok(message) = &parsed {
        let written = serde_json::to_string(message).unwrap();
        assert_eq!(
            &ClientMessage::read(&written).unwrap(),
            message,
            "{written}"
        );
    }
    let server = SocketServer::get();
    let user = [None, Some("alice"), Some("bob")][usize::from(who % 3)];
    let board = server
        .runtime
        .block_on(server.table.board_in_play())
        .unwrap();
    let stream_board = (who & 4 == 0).then_some(board);
    let reply = match &parsed {
        Ok(message) => {
            server
                .runtime
                .block_on(server.table.answer(user, stream_board, message.clone()))
        }
        Err(refusal) => refusal.clone(),
    };
    let reply: Value = serde_json::from_str(&reply).expect("an answer is JSON");
    let kind = reply["type"].as_str().expect("an answer has a type");
    match parsed {
        Err(_) => assert_eq!(
            (kind, reply["code"].as_str()),
            ("error", Some("bad_message"))
        ),
        Ok(ClientMessage::Ping { id }) => assert_eq!(reply, json!({"type": "pong", "id": id})),
        Ok(ClientMessage::Resync { .. }) => {
            assert!(matches!(kind, "snapshot" | "error"), "{reply}")
        }
        Ok(ClientMessage::Move { id, .. }) => {
            assert!(matches!(kind, "ack" | "error"), "{reply}");
            assert_eq!(reply["id"], id.unwrap_or(Value::Null), "{reply}");
            if user.is_none() {
                assert_eq!(reply["code"], "auth", "{reply}");
            }
        }
        Ok(ClientMessage::Analyse { id, .. }) => {
            assert!(matches!(kind, "analysis_started" | "error"), "{reply}");
            assert_eq!(reply["id"], id.unwrap_or(Value::Null), "{reply}");
        }
        Ok(ClientMessage::AnalyseStop { id }) => {
            assert_eq!(
                (kind, &reply["reason"]),
                ("analysis_end", &json!("stopped"))
            );
            assert_eq!(reply["id"], id.unwrap_or(Value::Null), "{reply}");
        }
    }
}

/// Inbound mail (raw RFC 5322 bytes, as `ataxx mail-in` or `--smtp` take them): read without a
/// panic; the comment keeps no quoted (`>`) line and no signature, and is its own comment; a
/// Subject that parses as a command, sent back as a reply (`Re: …`, the comment as the body),
/// reads as the same command and the same comment.
#[cfg(any(not(fuzzing), feature = "server"))]
pub fn mail(data: &[u8]) {
    use ataxx_server::fuzz::{mail_comment, parse_command, parse_mail};

    let Some(inbound) = parse_mail(data, Some("fuzz@example.org")) else {
        return;
    };
    for line in inbound.comment.lines() {
        assert!(!line.trim_start().starts_with('>'), "{inbound:?}");
        assert!(line != "-- " && line != "--", "{inbound:?}");
    }
    assert_eq!(mail_comment(&inbound.comment), inbound.comment);
    let Ok(command) = parse_command(&inbound.subject) else {
        return;
    };
    // A Subject of plain ASCII goes back as it is (encoded words and other bytes would be
    // encoded by the replying client, not by this check).
    let plain = |t: &str| t.bytes().all(|b| b == b'\n' || (b' '..=b'~').contains(&b));
    if !plain(&inbound.subject) || inbound.subject.contains("=?") || !plain(&inbound.comment) {
        return;
    }
    let body = inbound.comment.replace('\n', "\r\n");
    let reply = format!(
        "From: <a@example.org>\r\nSubject: Re: {}\r\n\r\n{body}\r\n",
        inbound.subject
    );
    let again = parse_mail(reply.as_bytes(), Some("a@example.org"))
        .unwrap_or_else(|| panic!("{reply:?} does not read"));
    assert_eq!(again.subject, inbound.subject, "{reply:?}");
    assert_eq!(again.comment, inbound.comment, "{reply:?}");
    assert_eq!(
        parse_command(&again.subject).ok(),
        Some(command),
        "{reply:?}"
    );
}

/// A thinker that answers at once: the first legal move.
struct Quick;

impl engine::uai::Thinker for Quick {
    fn name(&self) -> String {
        "quick".into()
    }
    fn new_game(&mut self) {}
    fn think(
        &mut self,
        pos: &Position,
        _limits: &engine::time::Limits,
        _stop: &std::sync::atomic::AtomicBool,
        _on_info: &mut dyn FnMut(&engine::search::Report),
    ) -> Move {
        pos.legal_moves()
            .iter()
            .next()
            .copied()
            .unwrap_or(Move::Pass)
    }
}

/// UAI input: any lines are answered or ignored, never a panic.
pub fn uai(data: &[u8]) {
    let text = text(data);
    let _ = engine::uai::run(Quick, Cursor::new(text.into_bytes()), std::io::sink());
}

/// A property check over raw input bytes.
pub type Check = fn(&[u8]);

/// Every check by its target name.
#[cfg(not(fuzzing))]
pub const CHECKS: [(&str, Check); 11] = [
    ("fen", fen),
    ("move_text", move_text),
    ("pgn", pgn),
    ("record", record),
    ("blocks", blocks),
    ("decode", decode),
    ("command", command),
    ("uai", uai),
    ("ws", ws),
    ("variants", variants),
    ("mail", mail),
];
