//! A board as a record for other programs: PGN in the project's dialect (spec 7.3) with a
//! `Variant` tag naming the game, and a plain record (the board mail's move list with flip
//! counts and the final position). Written from the stored moves, for every game alike.

use games::GameKind;

use crate::doors::render::board;
use crate::model::Status;
use crate::model::{AnalysisReport, GameView, JobStatus};

fn tag(out: &mut String, name: &str, value: &str) {
    let value = value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ");
    out.push_str(&format!("[{name} \"{value}\"]\n"));
}

/// The PGN result token: the result for two players, `*` while unfinished; games for more
/// players have no PGN token and write `*` (their ranks are in the `Ranks` tag).
fn result_token(view: &GameView) -> &str {
    let game = &view.summary;
    match game.result.as_str() {
        "1-0" | "0-1" | "1/2-1/2" if game.seats.len() == 2 => &game.result,
        _ => "*",
    }
}

/// The board as PGN. Two-player games name seat 0's player `Black` and seat 1's `White`, as
/// project PGN does; games for more players add `Seat1`..`SeatN` tags and the ranks. With a
/// finished computer analysis the moves are annotated: a NAG on each
/// flagged move (`$6` inaccuracy, `$2` mistake, `$4` blunder) and `{[%eval S]}` after every
/// move, S in pieces for the first seat (who moves first) in two-player games, for the mover
/// in four-player Ataxx, `#N` for a forced end N plies away (`#-N` lost).
pub fn pgn(view: &GameView, analysis: Option<&AnalysisReport>) -> String {
    let game = &view.summary;
    let mut out = String::new();
    tag(
        &mut out,
        "Event",
        &format!("{} server board {}", game.game, game.board),
    );
    tag(&mut out, "Site", "ataxx server");
    let date = game
        .started_ms
        .map(|t| board::timestamp(t)[..10].replace('-', "."))
        .unwrap_or_else(|| "????.??.??".into());
    tag(&mut out, "Date", &date);
    tag(&mut out, "Round", "-");
    let name = |i: usize| game.seats.get(i).map_or("?", |s| s.name.as_str());
    tag(&mut out, "Black", name(0));
    tag(&mut out, "White", name(1));
    tag(&mut out, "Result", result_token(view));
    tag(&mut out, "Variant", &game.game);
    if game.seats.len() > 2 {
        for (i, seat) in game.seats.iter().enumerate() {
            tag(
                &mut out,
                &format!("Seat{}", i + 1),
                &format!("{} ({})", seat.name, seat.letter),
            );
        }
        if game.status == Status::Finished {
            tag(&mut out, "Ranks", &game.result);
        }
    }
    tag(&mut out, "FEN", &game.start_fen);
    let standard = game
        .game
        .parse::<GameKind>()
        .ok()
        .and_then(|kind| kind.start(&Default::default()).ok())
        .is_some_and(|start| start.fen() == game.start_fen);
    if !standard {
        tag(&mut out, "SetUp", "1");
    }
    tag(&mut out, "FinalFEN", &game.fen);
    tag(&mut out, "PlyCount", &view.moves.len().to_string());
    match game.termination.as_str() {
        "resignation" => tag(&mut out, "Termination", "resignation"),
        "time forfeit" => tag(&mut out, "Termination", "time forfeit"),
        _ => {}
    }
    out.push('\n');
    let mut words = movetext(view);
    if let Some(report) = analysis.filter(|report| report.status == JobStatus::Done) {
        annotate(view, report, &mut words);
    }
    words.push(result_token(view).to_string());
    out.push_str(&words.join(" "));
    out.push_str("\n\n");
    out
}

/// The moves with their numbers. A number opens each round of the players' turns, in the
/// order the players first sat (spec ataxx.md 7: numbered pairs, `1...` when the second seat
/// moves first). A swap (Ankor's pie rule) exchanges the seats, not the players' turns: the
/// opener still plays first in every round after it, so the rounds follow the players, not
/// the seats, and the moves are replayed to see where a swap happened.
fn movetext(view: &GameView) -> Vec<String> {
    let game = &view.summary;
    let mut pos = game
        .game
        .parse::<GameKind>()
        .ok()
        .and_then(|kind| kind.parse_position(&game.start_fen).ok());
    // The place in the first seating of the player in each seat.
    let mut first_seating: Vec<usize> = (0..game.seats.len().max(2)).collect();
    let mut words = vec![];
    let mut number = 0;
    let mut last_player = None;
    for (index, row) in view.moves.iter().enumerate() {
        let player = first_seating
            .get(usize::from(row.seat))
            .copied()
            .unwrap_or(usize::from(row.seat));
        let new_round = last_player.is_none_or(|last| player <= last);
        if new_round {
            number += 1;
        }
        words.push(match (new_round, index == 0 && row.seat != 0) {
            (_, true) => format!("{number}... {}", row.mv),
            (true, false) => format!("{number}. {}", row.mv),
            (false, false) => row.mv.clone(),
        });
        last_player = Some(player);
        let swapped = pos
            .as_mut()
            .and_then(|pos| pos.play(&row.mv).ok())
            .is_some_and(|played| played.swaps_seats);
        if swapped {
            first_seating.swap(0, 1);
        }
    }
    words
}

/// Adds a finished analysis to the movetext's words, one word per ply.
fn annotate(view: &GameView, report: &AnalysisReport, words: &mut [String]) {
    let two_seats = view.summary.seats.len() == 2;
    let first = view.summary.seats.first().map(|seat| seat.letter.as_str());
    for (word, ply) in words.iter_mut().zip(&report.plies) {
        let sign = match two_seats && Some(ply.seat.as_str()) != first {
            true => -1.0,
            false => 1.0,
        };
        if let Some(class) = ply.class {
            word.push_str(&format!(" ${}", class.nag()));
        }
        let eval = match ply.win_in {
            Some(plies) => format!("#{}", (sign as i64) * plies),
            None => format!("{:.2}", sign * ply.score),
        };
        word.push_str(&format!(" {{[%eval {eval}]}}"));
    }
}

/// The board as a plain record: the players, the moves in one column per seat with flip
/// counts, the result and the final position.
pub fn record(view: &GameView) -> String {
    let game = &view.summary;
    let mut out = format!("{} board {}\n", game.game, game.board);
    if !game.start_fen.is_empty() {
        out.push_str(&format!("FEN {}\n", game.start_fen));
    }
    let players: Vec<String> = game
        .seats
        .iter()
        .map(|s| format!("{} ({})", s.name, s.letter))
        .collect();
    out.push_str(&board::move_list(&players, &view.moves));
    out.push_str(&board::status(game));
    out.push_str("\n\n");
    out.push_str(&board::diagram_at(game, &view.moves, view.moves.len()));
    out
}
