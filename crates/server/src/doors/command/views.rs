//! The commands that only read: help, `list`, `show`, `games`, `history`, `standings`, the
//! exports and `preview`, each one call into [`crate::domain`] and its rendering.

use games::GameKind;
use serde_json::{json, Value};

use super::reply::summary_line;
use super::{help, Command, ExportFormat, Reply};
use crate::domain::analysis;
use crate::domain::standings::Group;
use crate::doors::render::{board, export};
use crate::error::Result;
use crate::App;

/// What separates boards in a reply that shows several.
const BOARD_SEPARATOR: &str = "\n----------------------------------------\n\n";

/// Runs a command that only reads.
pub(super) async fn show(app: &App, command: &Command) -> Result<Reply> {
    let games = &app.games;
    Ok(match command {
        Command::Help { subjects } => Reply::ok(
            "help",
            help::topic(subjects.first().map(String::as_str))?,
            json!({}),
        ),
        Command::GameHelp { game } => Reply::ok(
            format!("{game} help"),
            help::game_help(*game),
            json!({"game": game.name()}),
        ),
        Command::List => {
            let census = app.listings.census().await?;
            let players = census.players;
            let mut text = String::new();
            let mut counts = vec![];
            for (game, active) in census.active {
                text.push_str(&format!("{game}: {active} boards in play\n"));
                counts.push(json!({"game": game.name(), "active": active, "players": players}));
            }
            text.push_str(&format!("{players} players\n"));
            Reply::ok("list", text, json!({"games": counts}))
        }
        Command::ShowBoards { boards } => show_boards(app, boards).await?,
        Command::ShowUsers {
            game,
            users,
            selection,
        } => {
            let list = app.listings.boards(*game, users, *selection).await?;
            let mut texts = vec![];
            let mut data = vec![];
            for game in list {
                let view = games.view(game.board).await?;
                texts.push(board::mail(&view, None, games.now_ms()));
                data.push(json!(view));
            }
            if texts.is_empty() {
                texts.push("No boards.\n".into());
            }
            Reply::ok(
                format!("{game} show"),
                texts.join(BOARD_SEPARATOR),
                json!(data),
            )
        }
        Command::Games {
            game,
            users,
            selection,
        } => {
            let list = app.listings.boards(*game, users, *selection).await?;
            let mut text: String = list.iter().map(|g| summary_line(g) + "\n").collect();
            if text.is_empty() {
                text = "No boards.\n".into();
            }
            Reply::ok(format!("{game} games"), text, json!(list))
        }
        Command::History { game } => history(app, *game).await?,
        Command::Standings { game } => standings(app, *game).await?,
        Command::Export { board, format } => {
            let view = games.view(*board).await?;
            let text = match format {
                ExportFormat::Pgn => {
                    export::pgn(&view, app.analyses.report(*board).await?.as_ref())
                }
                ExportFormat::Record => export::record(&view),
            };
            Reply::ok(
                format!("{} board {board}", view.summary.game),
                text.clone(),
                json!({"board": board, "text": text}),
            )
        }
        Command::Preview { board, moves } => {
            let view = games.view(*board).await?;
            let preview = analysis::preview(&view, moves)?;
            Reply::ok(
                format!("{} preview {board}", view.summary.game),
                format!(
                    "Board {board} after {} (not played):\n\n{}",
                    preview.played.join(" "),
                    board::diagram(&*preview.position, preview.last.as_deref())
                ),
                json!({"board": board, "fen": preview.position.fen(), "moves": preview.played}),
            )
        }
        _ => unreachable!("run sends only the reading commands here"),
    })
}

/// `show <board>[#N]...`: each board's mail, at move N when one is given.
async fn show_boards(app: &App, boards: &[(i64, Option<usize>)]) -> Result<Reply> {
    let games = &app.games;
    let mut texts = vec![];
    let mut data = vec![];
    for (board, at) in boards {
        let view = games.view(*board).await?;
        let mut text = board::mail(&view, *at, games.now_ms());
        if let Some(at) = at.filter(|&at| at > view.moves.len()) {
            text = format!(
                "Board {board} has {} moves: #{at} is beyond the end; this is the current position.\n\n{text}",
                view.moves.len()
            );
        }
        texts.push(text);
        data.push(json!(view));
    }
    let subject = match boards {
        [(board, _)] => board::subject(&games.summary(*board).await?),
        _ => format!("ataxx boards {}", boards.len()),
    };
    Ok(Reply::ok(subject, texts.join(BOARD_SEPARATOR), json!(data)))
}

/// `history`: the latest finished boards, one line each.
async fn history(app: &App, game: GameKind) -> Result<Reply> {
    let list = app.listings.finished(game).await?;
    let mut text = String::from("Finished (UTC)     Board  Winner      Points  Players\n");
    for g in &list {
        let points: Vec<String> = g.seats.iter().map(|s| s.pieces.to_string()).collect();
        let players: Vec<&str> = g.seats.iter().map(|s| s.name.as_str()).collect();
        text.push_str(&format!(
            "{:<16}  {:>5}  {:<10}  {:<6}  {}\n",
            board::timestamp(g.finished_ms.unwrap_or(0))
                .get(..16)
                .unwrap_or(""),
            g.board,
            g.winner.as_deref().unwrap_or("(draw)"),
            points.join("-"),
            players.join(" ")
        ));
    }
    Ok(Reply::ok(format!("{game} history"), text, json!(list)))
}

/// `standings`: the players of a game by group, each group in rating order.
async fn standings(app: &App, game: GameKind) -> Result<Reply> {
    let standings = app.standings.standings(game.name()).await?;
    let mut text = format!("{} standings\n\n", board::title(game.name()));
    let mut data = serde_json::Map::new();
    data.insert("game".into(), json!(game.name()));
    for group in Group::ALL {
        let name = group.name();
        text.push_str(&format!(
            "{name} players\n  Rating  Won Lost Drawn  Userid\n"
        ));
        let mut rows = vec![];
        for standing in standings.iter().filter(|s| s.group == group) {
            let u = &standing.rating;
            text.push_str(&format!(
                "  {:>6} {:>4} {:>4} {:>5}  {}\n",
                u.rating_text(),
                u.wins,
                u.losses,
                u.draws,
                u.name
            ));
            rows.push(json!({
                "userid": u.name, "rating": u.rating, "deviation": u.deviation,
                "provisional": u.is_provisional(), "wins": u.wins, "losses": u.losses,
                "draws": u.draws, "bot": standing.is_bot(),
            }));
        }
        text.push('\n');
        data.insert(name.to_ascii_lowercase(), Value::Array(rows));
    }
    Ok(Reply::ok(
        format!("{game} standings"),
        text,
        Value::Object(data),
    ))
}
