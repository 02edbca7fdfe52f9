//! Board mails as text (spec section 7): subject, status, rating changes, the move list in one
//! column per player with flip counts and `(Auto)` passes, the board (rank 7 on top), piece
//! counts and FEN, comments, and the timing block.

use std::fmt::Write;

use ataxx::{Color, DiagramStyle, Move, Position};
use time::macros::format_description;
use time::OffsetDateTime;

use crate::games::{GameSummary, GameView};
use crate::storage::MoveRow;

/// `2024-05-01 12:30:00 UTC`.
pub fn timestamp(ms: i64) -> String {
    let format = format_description!("[year]-[month]-[day] [hour]:[minute]:[second] UTC");
    OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .ok()
        .and_then(|t| t.format(format).ok())
        .unwrap_or_else(|| format!("{ms} ms"))
}

/// `1d 02:03:04` or `02:03:04`.
pub fn duration(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    let (d, h, m, s) = (s / 86400, s / 3600 % 24, s / 60 % 60, s % 60);
    match d {
        0 => format!("{h:02}:{m:02}:{s:02}"),
        _ => format!("{d}d {h:02}:{m:02}:{s:02}"),
    }
}

/// The subject line of a board mail: `New ataxx Board 101 alice`, `ataxx Board 101 bob`, or
/// without a userid once no one is to move.
pub fn subject(game: &GameSummary) -> String {
    let new = if game.status == "challenge" || (game.status == "active" && game.ply == 0) {
        "New "
    } else {
        ""
    };
    match &game.to_move {
        Some(user) => format!("{new}ataxx Board {} {user}", game.board),
        None => format!("{new}ataxx Board {}", game.board),
    }
}

/// The status line.
pub fn status(game: &GameSummary) -> String {
    match game.status.as_str() {
        "challenge" => {
            let waiting: Vec<&str> = [(&game.x, game.accepted.x), (&game.o, game.accepted.o)]
                .into_iter()
                .filter(|(_, accepted)| !accepted)
                .map(|(name, _)| name.as_str())
                .collect();
            format!(
                "Challenge: waiting for {} to accept (ataxx accept {} <userid> <password>)",
                waiting.join(" and "),
                game.board
            )
        }
        "active" if game.ply == 0 => format!(
            "{} (x) to start: ataxx move {} {} <password> <move>",
            game.x, game.board, game.x
        ),
        "active" => {
            let to_move = game.to_move.as_deref().unwrap_or("?");
            let side = if *to_move == game.x { "x" } else { "o" };
            format!("{to_move} ({side}) to move (move #{})", game.ply + 1)
        }
        "finished" => {
            let how = match game.termination.as_str() {
                "rules" | "" => String::new(),
                other => format!(" ({other})"),
            };
            match &game.winner {
                Some(winner) => format!("{winner} wins {}{how}", game.result),
                None => format!("Game drawn {}{how}", game.result),
            }
        }
        other => format!("Challenge {other}"),
    }
}

/// The move list: one numbered line per full move, x's move then o's, each with its flip count
/// in brackets when it flipped any, forced passes as `--(Auto)`.
pub fn move_list(x: &str, o: &str, moves: &[MoveRow]) -> String {
    let text = |row: &MoveRow| {
        let mut text = match row.mv.parse::<Move>() {
            Ok(Move::Pass) => "--".to_string(),
            _ => row.mv.clone(),
        };
        if row.flips > 0 {
            write!(text, "({})", row.flips).expect("write to a String");
        }
        if row.auto {
            text.push_str("(Auto)");
        }
        text
    };
    let lines: Vec<(usize, String, String)> = moves
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            (
                i + 1,
                text(&pair[0]),
                pair.get(1).map(text).unwrap_or_default(),
            )
        })
        .collect();
    let width = lines
        .iter()
        .map(|(_, x, _)| x.len())
        .chain([x.len() + 4])
        .max()
        .unwrap_or(0);
    let mut out = format!("    {:<width$}  {o} (o)\n", format!("{x} (x)"));
    for (number, x_move, o_move) in lines {
        let line = format!("{number:>3} {x_move:<width$}  {o_move}");
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The board with piece counts and FEN.
pub fn diagram(pos: &Position) -> String {
    format!(
        "{}x: {}  o: {}  FEN: {}\n",
        pos.diagram(DiagramStyle::FEN),
        pos.pieces(Color::X).count(),
        pos.pieces(Color::O).count(),
        pos
    )
}

/// The position after the first `plies` moves of a board.
pub fn position_at(game: &GameSummary, moves: &[MoveRow], plies: usize) -> Position {
    let mut pos: Position = game
        .start_fen
        .parse()
        .expect("stored positions are valid FEN");
    for row in moves.iter().take(plies) {
        pos.play_unchecked(row.mv.parse().expect("stored moves are strict move text"));
    }
    pos
}

/// The whole board mail; `at` shows the board as it was after that many moves.
pub fn mail(view: &GameView, at: Option<usize>, now_ms: i64) -> String {
    let game = &view.summary;
    let mut out = String::new();
    let shown = at.unwrap_or(view.moves.len()).min(view.moves.len());
    writeln!(
        out,
        "Ataxx Board {}: {} (x) vs {} (o)",
        game.board, game.x, game.o
    )
    .unwrap();
    writeln!(out, "{}", status(game)).unwrap();
    if let (Some(dx), Some(dy)) = (game.x_rating_change, game.o_rating_change) {
        writeln!(
            out,
            "Rating changes: {} {dx:+.0}, {} {dy:+.0}",
            game.x, game.o
        )
        .unwrap();
    }
    if let Some(proposal) = &game.proposal {
        writeln!(
            out,
            "{} proposes {}: answer with the move word accept or reject",
            proposal.by,
            if proposal.kind == "draw" {
                "a draw"
            } else {
                "to undo the last move"
            }
        )
        .unwrap();
    }
    if let Some(clock) = &game.clock {
        writeln!(
            out,
            "Clock {}+{}s: {} {}, {} {}",
            duration(clock.initial_ms),
            clock.increment_ms / 1000,
            game.x,
            duration(clock.x_ms),
            game.o,
            duration(clock.o_ms)
        )
        .unwrap();
    }
    out.push('\n');
    if at.is_some() {
        writeln!(out, "As it was after move {shown}:").unwrap();
    }
    out.push_str(&move_list(&game.x, &game.o, &view.moves[..shown]));
    out.push('\n');
    out.push_str(&diagram(&position_at(game, &view.moves, shown)));
    if !view.subscribers.is_empty() {
        writeln!(out, "Subscribers: {}", view.subscribers.join(", ")).unwrap();
    }
    if !view.chat.is_empty() {
        out.push('\n');
        for line in &view.chat {
            writeln!(
                out,
                "{} writes ({}):\n  {}",
                line.name,
                timestamp(line.at_ms),
                line.body
            )
            .unwrap();
        }
    }
    out.push('\n');
    writeln!(out, "Created:   {}", timestamp(game.created_ms)).unwrap();
    if let Some(started) = game.started_ms {
        writeln!(out, "Started:   {}", timestamp(started)).unwrap();
    }
    if let Some(last) = game.last_move_ms.filter(|_| game.ply > 0) {
        writeln!(out, "Last move: {}", timestamp(last)).unwrap();
    }
    writeln!(out, "Now:       {}", timestamp(now_ms)).unwrap();
    writeln!(
        out,
        "Time used: {} {}, {} {}, total {}",
        game.x,
        duration(game.x_used_ms),
        game.o,
        duration(game.o_used_ms),
        duration(game.x_used_ms + game.o_used_ms)
    )
    .unwrap();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(ply: i64, mv: &str, auto: bool, flips: i64) -> MoveRow {
        MoveRow {
            ply,
            mv: mv.into(),
            auto,
            flips,
            at_ms: 0,
        }
    }

    #[test]
    fn move_list_has_two_columns_flip_counts_and_auto_passes() {
        let moves = [
            row(1, "b7", false, 0),
            row(2, "b2", false, 0),
            row(3, "e2", false, 2),
            row(4, "0000", true, 0),
            row(5, "c3b5", false, 3),
        ];
        assert_eq!(
            move_list("cobbs", "keller", &moves),
            "    cobbs (x)  keller (o)\n  1 b7         b2\n  2 e2(2)      --(Auto)\n  3 c3b5(3)\n"
        );
    }

    #[test]
    fn durations_and_timestamps() {
        assert_eq!(duration(3_723_000), "01:02:03");
        assert_eq!(duration(90_061_000), "1d 01:01:01");
        assert_eq!(timestamp(0), "1970-01-01 00:00:00 UTC");
    }
}
