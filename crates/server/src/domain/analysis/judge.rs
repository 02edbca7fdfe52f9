//! From scores to judgements: winning chances, each move's loss of them, the move classes and
//! the accuracy per player.
//!
//! Winning chances follow lichess's logistic curve, `2 / (1 + e^(-k·s)) - 1` from -1 (lost)
//! to 1 (won), with `s` in hundredths of a piece (Ankor: of a cube of connection distance) and
//! `k` chosen per game so that the chances grow the way a lead does. Square Ataxx is searched
//! with the embedded net, whose scores the trainer fitted to game results (a score `s` wins
//! with probability `1 / (1 + e^(-s/K))`, `K` the net's scale, docs/nnue.md), so there
//! `k = 1/K` (net7: K = 292, a lead of 1 piece is 0.17, 5 pieces 0.69). In Hexxagon and
//! four-player Ataxx one piece is worth little (a capture flips several), so `k = 0.002` (a
//! lead of 1 piece is 0.10, 5 pieces 0.46, 10 pieces 0.76); in Ankor one cube of connection
//! distance is a tempo, so `k = 0.005` (1 cube is 0.24, 3 cubes 0.64). A forced end is ±1.
//!
//! The thresholds are lichess's, on the same scale: a move that loses at least 0.1 of winning
//! chances against the engine's move is an inaccuracy, 0.2 a mistake, 0.3 a blunder. They are
//! measured in chances, not pieces, so a piece given away in a won or lost position is not
//! flagged while the same piece in an even one is; and the same thresholds serve every game,
//! since each game's curve puts its own scores on the one scale.
//!
//! A move's accuracy is lichess's formula on the loss in win percent (50 + 50 × chances):
//! `103.1668 · e^(-0.04354 · loss) - 3.1669`, plus lichess's 1 for uncertainty, within 0..100;
//! a player's accuracy is the plain mean over their moves (forced passes left out).
//!
//! In four-player Ataxx every score is the mover's own (its search judges it against all three
//! rivals, as the strongest level does), so a move's loss is what it cost its own player, the
//! one thing a player answers for; the rivals' fortunes are theirs.

use std::collections::BTreeMap;

use engine::eval::Evaluator;
use engine::net_eval::NetEval;
use games::GameKind;

use crate::model::{
    AnalysedPosition, AnalysisJob, AnalysisReport, GameView, MoveClass, PlayerAnalysis,
    PlyAnalysis, Progress, StoredScore, FORCED_END,
};

/// Losses of winning chances from which a move is flagged (lichess's thresholds).
pub const INACCURACY: f64 = 0.1;
pub const MISTAKE: f64 = 0.2;
pub const BLUNDER: f64 = 0.3;

/// Stored scores this near [`FORCED_END`] are forced ends (no search looks 1000 plies ahead).
const FORCED_FROM: StoredScore = FORCED_END - 1000;

/// The slope of the winning chances per stored unit.
fn slope(kind: GameKind) -> f64 {
    match kind {
        GameKind::Ataxx => square_ataxx_slope(),
        GameKind::Ankor => 0.005,
        _ => 0.002,
    }
}

/// `1/K` for the embedded net's fitted scale `K` (0.002 in a build without a net).
fn square_ataxx_slope() -> f64 {
    NetEval::builtin()
        .network()
        .map_or(0.002, |net| 1.0 / f64::from(net.scale()))
}

/// The plies to a forced end, signed as the score (positive: a win).
pub fn forced_end(score: StoredScore) -> Option<i64> {
    (score.abs() >= FORCED_FROM).then(|| score.signum() * (FORCED_END - score.abs()))
}

/// Winning chances from -1 (lost) to 1 (won).
pub fn chances(kind: GameKind, score: StoredScore) -> f64 {
    if forced_end(score).is_some() {
        return score.signum() as f64;
    }
    2.0 / (1.0 + (-slope(kind) * score as f64).exp()) - 1.0
}

/// A stored score in pieces; a forced end as ±(1000 less its plies).
pub fn pieces(score: StoredScore) -> f64 {
    match forced_end(score) {
        Some(plies) => (score.signum() * 1000 - plies) as f64,
        None => score as f64 / 100.0,
    }
}

/// The class of a move that lost `loss` winning chances.
pub fn class(loss: f64) -> Option<MoveClass> {
    match loss {
        l if l >= BLUNDER => Some(MoveClass::Blunder),
        l if l >= MISTAKE => Some(MoveClass::Mistake),
        l if l >= INACCURACY => Some(MoveClass::Inaccuracy),
        _ => None,
    }
}

/// A move's accuracy (0 to 100) from the winning chances it lost.
pub fn move_accuracy(loss: f64) -> f64 {
    let lost_percent = 50.0 * loss.max(0.0);
    (103.1668 * (-0.04354 * lost_percent).exp() - 3.1669 + 1.0).clamp(0.0, 100.0)
}

/// Rounds for people and JSON: two decimals.
fn round2(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// The report of a board's analysis from its analysed positions (those stored so far): a ply
/// is reported once the positions before and after it are analysed, the players once all are.
pub fn report(
    view: &GameView,
    job: &AnalysisJob,
    positions: &[AnalysedPosition],
) -> AnalysisReport {
    let game = &view.summary;
    let kind: GameKind = game.game.parse().expect("stored boards name a known game");
    let letter = |seat: u8| {
        game.seats
            .get(usize::from(seat))
            .map_or_else(|| seat.to_string(), |s| s.letter.clone())
    };
    let mut plies = vec![];
    let mut accuracies: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut players: BTreeMap<String, PlayerAnalysis> = BTreeMap::new();
    for (row, pair) in view.moves.iter().zip(positions.windows(2)) {
        let (before, after) = (&pair[0], &pair[1]);
        let played = after.mover_score.unwrap_or(-after.score);
        let loss = match row.mv == before.best || row.auto {
            true => 0.0,
            false => (chances(kind, before.score) - chances(kind, played)).max(0.0),
        };
        let class = class(loss);
        let seat = letter(row.seat);
        if !row.auto {
            accuracies
                .entry(seat.clone())
                .or_default()
                .push(move_accuracy(loss));
            let player = players
                .entry(seat.clone())
                .or_insert_with(|| PlayerAnalysis {
                    name: game
                        .seats
                        .get(usize::from(row.seat))
                        .map_or_else(String::new, |s| s.name.clone()),
                    accuracy: 0.0,
                    inaccuracies: 0,
                    mistakes: 0,
                    blunders: 0,
                });
            match class {
                Some(MoveClass::Inaccuracy) => player.inaccuracies += 1,
                Some(MoveClass::Mistake) => player.mistakes += 1,
                Some(MoveClass::Blunder) => player.blunders += 1,
                None => {}
            }
        }
        plies.push(PlyAnalysis {
            ply: row.ply,
            mv: row.mv.clone(),
            seat,
            score: pieces(played),
            win_in: forced_end(played),
            chances: round2(chances(kind, played)),
            best: before.best.clone(),
            best_score: pieces(before.score),
            line: before.line.clone(),
            loss: round2(loss),
            class,
        });
    }
    let complete = positions.len() as i64 == job.positions;
    for (seat, player) in players.iter_mut() {
        let list = &accuracies[seat];
        player.accuracy = round2(list.iter().sum::<f64>() / list.len().max(1) as f64);
    }
    AnalysisReport {
        board: game.board,
        game: game.game.clone(),
        status: job.status,
        progress: Progress {
            done: positions.len() as i64,
            total: job.positions,
        },
        plies,
        players: if complete { players } else { BTreeMap::new() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_is_lichess_shape_and_forced_ends_are_certain() {
        assert_eq!(chances(GameKind::Hexxagon, 0), 0.0);
        // 2/(1+e^-1) - 1, computed by hand: 0.4621.
        assert!((chances(GameKind::Hexxagon, 500) - 0.4621).abs() < 1e-4);
        assert!((chances(GameKind::Hexxagon, -500) + 0.4621).abs() < 1e-4);
        // Square Ataxx on the net's own scale: a score of K wins 1/(1+e^-1) of the games.
        let k = NetEval::builtin()
            .network()
            .expect("the build embeds a net")
            .scale();
        assert!((chances(GameKind::Ataxx, i64::from(k)) - 0.4621).abs() < 1e-4);
        assert!((250..350).contains(&k), "net7's scale is 292, not {k}");
        assert_eq!(chances(GameKind::Hexxagon, FORCED_END - 7), 1.0);
        assert_eq!(forced_end(-(FORCED_END - 7)), Some(-7));
        assert_eq!(pieces(-(FORCED_END - 7)), -993.0);
        assert_eq!(pieces(-250), -2.5);
    }

    #[test]
    fn classes_follow_the_thresholds_and_accuracy_falls_with_the_loss() {
        assert_eq!(class(0.09), None);
        assert_eq!(class(0.1), Some(MoveClass::Inaccuracy));
        assert_eq!(class(0.25), Some(MoveClass::Mistake));
        assert_eq!(class(0.3), Some(MoveClass::Blunder));
        assert_eq!(move_accuracy(0.0), 100.0);
        // lichess: a loss of 10 win-percent points is 103.1668·e^-0.4354 - 3.1669 + 1 = 64.58.
        assert!((move_accuracy(0.2) - 64.58).abs() < 0.01);
        assert_eq!(move_accuracy(2.0), 0.0);
    }
}
