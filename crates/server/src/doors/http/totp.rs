//! The second factor over HTTP (issue #49), for the signed-in user: `POST /api/totp` makes a
//! secret (`{secret, uri, svg}`: the URI drawn as a QR code too), `POST /api/totp/confirm` `{code}` turns it on and answers the ten
//! recovery codes, `POST /api/totp/disable` `{code}` turns it off. `POST /api/login` then takes
//! `{"code"}` beside the password.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use qrcode::render::svg;
use qrcode::QrCode;
use serde::Deserialize;
use serde_json::json;

use super::{authenticated, ApiResult, Body, HttpState};

pub(super) async fn begin(State(state): State<HttpState>, headers: HeaderMap) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    let setup = state.app.accounts.begin_totp(&me).await?;
    let mut answer = json!(setup);
    answer["svg"] = json!(qr_svg(&setup.uri));
    Ok(Json(answer))
}

/// `uri` as a QR code, an SVG document for the page to show (None only for a text too long for
/// any QR code, which an otpauth URI of a 32-letter name is far from).
fn qr_svg(uri: &str) -> Option<String> {
    let code = QrCode::new(uri.as_bytes()).ok()?;
    Some(code.render::<svg::Color>().min_dimensions(200, 200).build())
}

#[derive(Deserialize)]
pub(super) struct CodeBody {
    code: String,
}

pub(super) async fn confirm(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Body(body): Body<CodeBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    let codes = state.app.accounts.confirm_totp(&me, &body.code).await?;
    Ok(Json(json!({"userid": me, "recovery_codes": codes})))
}

pub(super) async fn disable(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Body(body): Body<CodeBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    state.app.accounts.disable_totp(&me, &body.code).await?;
    Ok(Json(json!({"userid": me})))
}
