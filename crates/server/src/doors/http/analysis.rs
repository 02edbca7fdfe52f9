//! A board's computer analysis over HTTP: `POST /api/games/{board}/analysis` asks for it (201
//! queued, 200 already there), `GET` answers where it stands.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::{authenticated, ApiResult, HttpState};
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
