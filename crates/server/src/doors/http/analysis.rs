//! The engine's analysis over HTTP: a board's computer analysis (`POST
//! /api/games/{board}/analysis` asks for it, 201 queued, 200 already there; `GET` answers where
//! it stands), and `GET /api/analysis?fen=…`, the best move in an Ataxx position.

use ataxx::{Color, Position};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use engine::score::is_decisive;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{authenticated, bad, ApiResult, HttpState};
use crate::domain::analysis::ANALYSIS_TIME;
use crate::error::Error;

pub(super) async fn request(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(board): Path<i64>,
) -> ApiResult<Response> {
    let user = authenticated(&state, &headers, None).await?;
    let (report, queued) = state.app.analyses.request(board, Some(&user)).await?;
    let status = match queued {
        true => StatusCode::CREATED,
        false => StatusCode::OK,
    };
    Ok((status, Json(report)).into_response())
}

pub(super) async fn get(
    State(state): State<HttpState>,
    Path(board): Path<i64>,
) -> ApiResult<Response> {
    let report = state.app.analyses.report(board).await?;
    Ok(Json(report.ok_or(Error::NoAnalysis(board))?).into_response())
}

#[derive(Deserialize)]
pub(super) struct PositionQuery {
    fen: String,
}

/// `GET /api/analysis?fen=…`: the best move for the side to move and its score in pieces.
pub(super) async fn position(
    State(state): State<HttpState>,
    Query(query): Query<PositionQuery>,
) -> ApiResult {
    let pos = query
        .fen
        .parse::<Position>()
        .map_err(|err| bad(format!("fen {:?}: {err}", query.fen)))?;
    let report = state.app.analyses.best_move(pos).await?;
    let (score, outcome) = match report.score {
        s if is_decisive(s) && s > 0 => (Value::Null, Some("win")),
        s if is_decisive(s) => (Value::Null, Some("loss")),
        s => (json!(f64::from(s) / 100.0), None),
    };
    Ok(Json(json!({
        "fen": pos.to_string(),
        "turn": match pos.turn() { Color::X => "x", Color::O => "o" },
        "best": report.pv.first().map(|mv| mv.to_string()),
        "pv": report.pv.iter().map(|mv| mv.to_string()).collect::<Vec<_>>(),
        "score": score,
        "outcome": outcome,
        "depth": report.depth,
        "nodes": report.nodes,
        "analyser": format!("engine, {} ms, depth {}", ANALYSIS_TIME.as_millis(), report.depth),
    })))
}
