//! `<game> analysis <board>`: asks for a board's computer analysis if it is not there, and
//! shows where it stands: once done, the players' accuracy and the flagged moves.

use serde_json::json;

use super::Reply;
use crate::error::Result;
use crate::model::{AnalysisReport, JobStatus};
use crate::App;

pub(super) async fn reply(app: &App, board: i64, user: Option<&str>) -> Result<Reply> {
    let report = match app.analyses.report(board).await? {
        Some(report) => report,
        None => app.analyses.request(board, user).await?.0,
    };
    Ok(Reply::ok(
        format!("{} analysis {board}", report.game),
        text(&report),
        json!(report),
    ))
}

/// The analysis in words: where it stands, or the summary and the flagged moves.
pub fn text(report: &AnalysisReport) -> String {
    let board = report.board;
    let plies = (report.progress.total - 1).max(0);
    if report.status != JobStatus::Done {
        return format!(
            "Board {board}: the computer analysis is {} (ply {} of {plies}); ask again once it \
             is done.\n",
            report.status,
            (report.progress.done - 1).max(0),
        );
    }
    let mut out = format!("Board {board}: computer analysis of {plies} plies.\n\n");
    for (seat, player) in &report.players {
        out.push_str(&format!(
            "{seat} {}: accuracy {:.1}, {} inaccuracies, {} mistakes, {} blunders\n",
            player.name, player.accuracy, player.inaccuracies, player.mistakes, player.blunders
        ));
    }
    let flagged: Vec<String> = report
        .plies
        .iter()
        .filter_map(|ply| {
            let class = ply.class?;
            Some(format!(
                "  {:>3}. {} {}{} ({}, {:+.2}; best {} {:+.2}: {})\n",
                ply.ply,
                ply.seat,
                ply.mv,
                class.mark(),
                class.as_str(),
                ply.score,
                ply.best,
                ply.best_score,
                ply.line.join(" ")
            ))
        })
        .collect();
    match flagged.is_empty() {
        true => out.push_str("\nNo move flagged.\n"),
        false => {
            out.push_str("\nFlagged moves (scores for the mover, in pieces):\n");
            out.extend(flagged);
        }
    }
    out
}
