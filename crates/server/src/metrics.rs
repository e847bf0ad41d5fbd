//! What an operator watches: Prometheus metrics at `/metrics` (the `metrics` crates),
//! `GET /healthz`, and the log (one `tracing` line per event, every error and every 503
//! among them). The series are listed in docs/deploy.md.

use crate::app::App;
use axum::extract::{MatchedPath, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Requests answered, by route, method and status.
pub const REQUESTS: &str = "menagerie_http_requests_total";
/// Seconds from a turn's request to its answer (`POST /api/games/{id}/move`).
pub const TURN_LATENCY: &str = "menagerie_turn_latency_seconds";
/// Games in memory.
pub const OPEN_GAMES: &str = "menagerie_open_games";
/// Websockets open.
pub const WEBSOCKETS: &str = "menagerie_websockets";
/// Engine searches waiting for the pool.
pub const ENGINE_QUEUE: &str = "menagerie_engine_queue_length";
/// Seconds an engine search waited for the pool.
pub const ENGINE_WAIT: &str = "menagerie_engine_wait_seconds";
/// Database operations that failed.
pub const DATABASE_ERRORS: &str = "menagerie_database_errors_total";
/// TCP connections open.
pub const CONNECTIONS: &str = "menagerie_connections";
/// Connections closed by a timeout, by which (`header`, `idle`).
pub const TIMEOUTS: &str = "menagerie_connection_timeouts_total";
/// Connections refused because their address held too many.
pub const REFUSED: &str = "menagerie_connections_refused_total";

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the process's metrics recorder and its log (once per process: several servers
/// started in one test process share them).
pub fn install() {
    HANDLE.get_or_init(|| {
        let _ = tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_target(false)
            .with_ansi(false)
            // A closed stderr must never stop the server (the default reports its own
            // write errors with `eprint!`, which panics then).
            .log_internal_errors(false)
            .try_init();
        let handle = PrometheusBuilder::new()
            .set_buckets(&[
                0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
            ])
            .ok()?
            .install_recorder()
            .ok()?;
        for (name, help) in [
            (
                REQUESTS,
                "HTTP requests answered, by route, method and status",
            ),
            (TURN_LATENCY, "seconds from a turn's request to its answer"),
            (OPEN_GAMES, "games in memory"),
            (WEBSOCKETS, "websockets open"),
            (ENGINE_QUEUE, "engine searches waiting for the engine pool"),
            (
                ENGINE_WAIT,
                "seconds an engine search waited for the engine pool",
            ),
            (DATABASE_ERRORS, "database operations that failed"),
            (CONNECTIONS, "TCP connections open"),
            (TIMEOUTS, "connections closed by a timeout, by which"),
            (REFUSED, "connections refused: their address held too many"),
        ] {
            metrics::describe_counter!(name, help);
        }
        // Every series exists from the start (a scrape before any traffic names them all).
        metrics::counter!(DATABASE_ERRORS).absolute(0);
        metrics::gauge!(WEBSOCKETS).set(0.0);
        metrics::gauge!(ENGINE_QUEUE).set(0.0);
        Some(handle)
    });
}

/// A websocket opened (+1) or closed (-1).
pub fn websockets(delta: i8) {
    metrics::gauge!(WEBSOCKETS).increment(f64::from(delta));
}

/// A connection opened (+1) or closed (-1).
pub fn connections(delta: i8) {
    metrics::gauge!(CONNECTIONS).increment(f64::from(delta));
}

/// A connection closed by the timeout `which`.
pub fn timed_out(which: &'static str) {
    metrics::counter!(TIMEOUTS, "timeout" => which).increment(1);
}

/// A connection refused over its address's limit.
pub fn refused_connection() {
    metrics::counter!(REFUSED).increment(1);
}

/// A database operation failed.
pub fn database_error() {
    metrics::counter!(DATABASE_ERRORS).increment(1);
}

/// An engine search joined (+1) or left (-1) the queue for the pool.
pub fn engine_queue(delta: i8) {
    metrics::gauge!(ENGINE_QUEUE).increment(f64::from(delta));
}

/// An engine search waited `wait` for the pool.
pub fn engine_waited(wait: Duration) {
    metrics::histogram!(ENGINE_WAIT).record(wait.as_secs_f64());
}

/// Counts every request by route and status, times turns, and logs each answer of 500 and
/// above with its sentence (a 503 is the database failing: the operator must see each).
pub async fn observe(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let started = Instant::now();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |p| p.as_str().to_string());
    let method = request.method().as_str().to_string();
    let response = next.run(request).await;
    let status = response.status();
    metrics::counter!(REQUESTS, "route" => route.clone(), "method" => method.clone(), "status" => status.as_u16().to_string())
        .increment(1);
    if route == "/api/games/{id}/move" && method == "POST" {
        metrics::histogram!(TURN_LATENCY).record(started.elapsed().as_secs_f64());
    }
    if !status.is_server_error() {
        return response;
    }
    let (parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, 16 * 1024)
        .await
        .unwrap_or_default();
    let sentence = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|v| v["error"].as_str().map(str::to_string))
        .unwrap_or_else(|| String::from_utf8_lossy(&bytes).into_owned());
    tracing::error!(
        status = status.as_u16(),
        method = %method,
        route = %route,
        error = %sentence,
        "request failed"
    );
    Response::from_parts(parts, axum::body::Body::from(bytes))
}

/// `GET /healthz`: 200 `ok` when the database answers, else 503 with a sentence.
pub async fn healthz(State(app): State<Arc<App>>) -> Response {
    match tokio::time::timeout(Duration::from_secs(5), app.store.ping()).await {
        Ok(Ok(())) => (StatusCode::OK, "ok\n").into_response(),
        Ok(Err(e)) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the database is unreachable: {e}\n"),
        )
            .into_response(),
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            "the database did not answer within 5 seconds\n",
        )
            .into_response(),
    }
}

/// `GET /metrics`: every series in Prometheus's text format.
pub async fn render(State(app): State<Arc<App>>) -> Response {
    metrics::gauge!(OPEN_GAMES).set(app.cached_count() as f64);
    let text = HANDLE
        .get()
        .and_then(Option::as_ref)
        .map_or_else(String::new, PrometheusHandle::render);
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response()
}
