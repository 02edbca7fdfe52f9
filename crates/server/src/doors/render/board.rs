//! Board mails as text (spec section 7): subject, status, rating changes, the move list in one
//! column per player with flip counts and `(Auto)` passes, the board (rank 7 on top), piece
//! counts and FEN, comments, and the timing block.

use std::fmt::Write;

use games::{AnyPosition, GameKind};
use time::macros::format_description;
use time::OffsetDateTime;

use crate::model::MoveRow;
use crate::model::Status;
use crate::model::{GameSummary, GameView};

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

/// The subject line of a board mail: `New ataxx Board 101 alice`, `hexxagon Board 101 bob`,
/// or without a userid once no one is to move.
pub fn subject(game: &GameSummary) -> String {
    let new =
        if game.status == Status::Challenge || (game.status == Status::Active && game.ply == 0) {
            "New "
        } else {
            ""
        };
    let name = &game.game;
    match &game.to_move {
        Some(user) => format!("{new}{name} Board {} {user}", game.board),
        None => format!("{new}{name} Board {}", game.board),
    }
}

/// `alice (x)`: a player and the letter of their seat.
fn player(game: &GameSummary, seat: usize) -> String {
    let seat = &game.seats[seat];
    format!("{} ({})", seat.name, seat.letter)
}

/// The status line.
pub fn status(game: &GameSummary) -> String {
    match game.status {
        Status::Challenge => {
            let waiting: Vec<&str> = game
                .seats
                .iter()
                .filter(|seat| !seat.accepted)
                .map(|seat| seat.name.as_str())
                .collect();
            format!(
                "Challenge: waiting for {} to accept ({} accept {} <userid> <password>)",
                waiting.join(" and "),
                game.game,
                game.board
            )
        }
        Status::Active if game.ply == 0 => {
            let to_move = game.to_move.as_deref().unwrap_or("?");
            let side = game.turn.as_deref().unwrap_or("?");
            format!(
                "{to_move} ({side}) to start: {} move {} {to_move} <password> <move>",
                game.game, game.board
            )
        }
        Status::Active => {
            let to_move = game.to_move.as_deref().unwrap_or("?");
            let side = game.turn.as_deref().unwrap_or("?");
            format!("{to_move} ({side}) to move (move #{})", game.ply + 1)
        }
        Status::Finished => {
            let how = match game.termination.as_str() {
                "rules" | "" => String::new(),
                other => format!(" ({other})"),
            };
            match &game.winner {
                Some(winner) => format!("{winner} wins {}{how}", game.result),
                None if game.seats.len() > 2 => format!("Game over {}{how}", game.result),
                None => format!("Game drawn {}{how}", game.result),
            }
        }
        other => format!("Challenge {other}"),
    }
}

/// The move list: one column per seat (headed by its player and letter), one numbered line per
/// round of moves, each move with its flip count in brackets when it flipped any, forced passes
/// as `--(Auto)`. A round ends when the turn comes back to an earlier seat, so seats that are
/// out of the game leave their column empty.
pub fn move_list(players: &[String], moves: &[MoveRow]) -> String {
    let seats = players.len().max(1);
    let text = |row: &MoveRow| {
        let mut text = match row.mv.as_str() {
            "0000" => "--".to_string(),
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
    let mut lines: Vec<Vec<String>> = vec![];
    let mut last_seat = None;
    for row in moves {
        let seat = usize::from(row.seat).min(seats - 1);
        if lines.is_empty() || last_seat.is_some_and(|last| seat <= last) {
            lines.push(vec![String::new(); seats]);
        }
        lines.last_mut().expect("a line")[seat] = text(row);
        last_seat = Some(seat);
    }
    let mut widths: Vec<usize> = players.iter().map(String::len).collect();
    for line in &lines {
        for (width, cell) in widths.iter_mut().zip(line) {
            *width = (*width).max(cell.len());
        }
    }
    let row_text = |number: &str, cells: &[String]| {
        let mut out = format!("{number:>3} ");
        for (i, cell) in cells.iter().enumerate() {
            if i + 1 < cells.len() {
                write!(out, "{cell:<width$}  ", width = widths[i]).expect("write to a String");
            } else {
                out.push_str(cell);
            }
        }
        format!("{}\n", out.trim_end())
    };
    let mut out = row_text("", players);
    for (number, cells) in lines.iter().enumerate() {
        out.push_str(&row_text(&(number + 1).to_string(), cells));
    }
    out
}

/// The board with piece counts and FEN; `last` (the last move's text) is marked where the
/// game's drawing marks it.
pub fn diagram(pos: &dyn AnyPosition, last: Option<&str>) -> String {
    let counts: Vec<String> = pos
        .piece_counts()
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{}: {n}", pos.seat_letter(games::Seat(i as u8))))
        .collect();
    format!(
        "{}{}  FEN: {}\n",
        pos.diagram_after(last),
        counts.join("  "),
        pos.fen()
    )
}

/// The position after the first `plies` moves of a board.
pub fn position_at(game: &GameSummary, moves: &[MoveRow], plies: usize) -> Box<dyn AnyPosition> {
    match plies.checked_sub(1).and_then(|last| moves.get(last)) {
        Some(row) if !row.fen.is_empty() => kind(game)
            .parse_position(&row.fen)
            .expect("replayed positions are valid FEN"),
        _ => kind(game)
            .parse_position(&game.start_fen)
            .expect("stored positions are valid FEN"),
    }
}

/// The last move other than a pass among the first `plies` moves: the one a drawing marks
/// (a pass changes nothing on the board).
pub fn last_placed(moves: &[MoveRow], plies: usize) -> Option<&str> {
    moves[..plies.min(moves.len())]
        .iter()
        .rev()
        .map(|row| row.mv.as_str())
        .find(|mv| *mv != "0000")
}

/// The board as it was after the first `plies` moves, drawn with its last move marked.
pub fn diagram_at(game: &GameSummary, moves: &[MoveRow], plies: usize) -> String {
    diagram(&*position_at(game, moves, plies), last_placed(moves, plies))
}

fn kind(game: &GameSummary) -> GameKind {
    game.game.parse().expect("stored boards name a known game")
}

/// The whole board mail; `at` shows the board as it was after that many moves.
pub fn mail(view: &GameView, at: Option<usize>, now_ms: i64) -> String {
    let game = &view.summary;
    let mut out = String::new();
    let shown = at.unwrap_or(view.moves.len()).min(view.moves.len());
    let players: Vec<String> = (0..game.seats.len()).map(|i| player(game, i)).collect();
    writeln!(
        out,
        "{} Board {}: {}",
        title(&game.game),
        game.board,
        players.join(" vs ")
    )
    .unwrap();
    writeln!(out, "{}", status(game)).unwrap();
    let changes: Vec<String> = game
        .seats
        .iter()
        .filter_map(|s| s.rating_change.map(|d| format!("{} {d:+.0}", s.name)))
        .collect();
    if !changes.is_empty() {
        writeln!(out, "Rating changes: {}", changes.join(", ")).unwrap();
    }
    if let Some(reason) = &game.unrated_reason {
        writeln!(out, "Unrated: {reason}").unwrap();
    }
    if let Some(proposal) = &game.proposal {
        writeln!(
            out,
            "{} proposes {}: {} answer with the move word accept or reject",
            proposal.by,
            if proposal.kind == "draw" {
                "a draw"
            } else {
                "to undo the last move"
            },
            proposal.waiting.join(", ")
        )
        .unwrap();
    }
    if let Some(clock) = &game.clock {
        let times: Vec<String> = game
            .seats
            .iter()
            .map(|s| format!("{} {}", s.name, duration(s.clock_ms.unwrap_or(0))))
            .collect();
        writeln!(
            out,
            "Clock {}+{}s: {}",
            duration(clock.initial_ms),
            clock.increment_ms / 1000,
            times.join(", ")
        )
        .unwrap();
    }
    out.push('\n');
    if at.is_some() {
        writeln!(out, "As it was after move {shown}:").unwrap();
    }
    out.push_str(&move_list(&players, &view.moves[..shown]));
    out.push('\n');
    out.push_str(&diagram_at(game, &view.moves, shown));
    if !view.subscribers.is_empty() {
        writeln!(out, "Subscribers: {}", view.subscribers.join(", ")).unwrap();
    }
    if !view.chat.is_empty() {
        out.push('\n');
        for line in &view.chat {
            // Every line of a comment indented, not only its first.
            writeln!(
                out,
                "{} writes ({}):\n  {}",
                line.name,
                timestamp(line.at_ms),
                line.body.replace('\n', "\n  ")
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
    let used: Vec<String> = game
        .seats
        .iter()
        .map(|s| format!("{} {}", s.name, duration(s.used_ms)))
        .collect();
    let total: i64 = game.seats.iter().map(|s| s.used_ms).sum();
    writeln!(
        out,
        "Time used: {}, total {}",
        used.join(", "),
        duration(total)
    )
    .unwrap();
    out
}

/// A game's name as a title: `Ataxx`, `Hexxagon`.
pub(crate) fn title(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
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
            seat: ((ply - 1) % 2) as u8,
            fen: String::new(),
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
        let players = ["cobbs (x)".to_string(), "keller (o)".to_string()];
        assert_eq!(
            move_list(&players, &moves),
            "    cobbs (x)  keller (o)\n  1 b7         b2\n  2 e2(2)      --(Auto)\n  3 c3b5(3)\n"
        );
        // Four seats, the third out of the game: its column stays empty.
        let four: Vec<String> = ["a (r)", "b (b)", "c (g)", "d (y)"]
            .map(String::from)
            .into();
        let mut moves = vec![row(1, "b7", false, 0), row(2, "f7", false, 1)];
        moves[1].seat = 1;
        let mut third = row(3, "0000", true, 0);
        third.seat = 3;
        moves.push(third);
        let mut fourth = row(4, "c6", false, 0);
        fourth.seat = 0;
        moves.push(fourth);
        assert_eq!(
            move_list(&four, &moves),
            "    a (r)  b (b)  c (g)  d (y)\n  1 b7     f7(1)         --(Auto)\n  2 c6\n"
        );
    }

    #[test]
    fn durations_and_timestamps() {
        assert_eq!(duration(3_723_000), "01:02:03");
        assert_eq!(duration(90_061_000), "1d 01:01:01");
        assert_eq!(timestamp(0), "1970-01-01 00:00:00 UTC");
    }
}
