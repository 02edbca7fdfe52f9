//! `GET /metrics` in the Prometheus text format, on an address of its own (`ataxx serve
//! --metrics ADDR`, off by default), so that it is never public by accident.

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::App;

/// Serves `/metrics` (and `/healthz`) on `listener` until `stopped`.
pub async fn serve(app: App, listener: TcpListener, mut stopped: watch::Receiver<bool>) {
    let router = Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(super::health::healthz))
        .with_state(app);
    let stop = async move {
        let _ = stopped.changed().await;
    };
    if let Err(err) = axum::serve(listener, router)
        .with_graceful_shutdown(stop)
        .await
    {
        tracing::warn!(%err, "the metrics listener stopped");
    }
}

async fn metrics(State(app): State<App>) -> Response {
    if let Err(err) = app.health.read_gauges().await {
        // The counters still tell; the gauges keep their last values.
        tracing::warn!(%err, "metrics: reading the gauges");
    }
    let text = crate::metrics::metrics().render();
    (
        StatusCode::OK,
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response()
}
