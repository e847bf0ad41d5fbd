//! The pages and static files, embedded in the binary from `crates/server/web/`.

use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use include_dir::{include_dir, Dir};

static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/web");

include!(concat!(env!("OUT_DIR"), "/rules_docs.rs"));

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "md" => "text/markdown; charset=utf-8",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

fn file(path: &str) -> Response {
    match WEB.get_file(path) {
        Some(f) => {
            let mut r = f.contents().into_response();
            r.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(content_type(path)),
            );
            r
        }
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("not found: {path}\n"),
        )
            .into_response(),
    }
}

fn page(name: &str) -> Response {
    let mut r = file(name);
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// `/static/{*path}`.
pub async fn static_file(Path(path): Path<String>) -> Response {
    if path.split('/').any(|p| p == ".." || p.is_empty()) {
        return file("");
    }
    let mut r = file(&path);
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

/// `/`.
pub async fn home() -> Response {
    page("index.html")
}

/// `/game/{id}`.
pub async fn game(Path(_id): Path<String>) -> Response {
    page("game.html")
}

/// `/analysis`.
pub async fn analysis() -> Response {
    page("analysis.html")
}

/// `/games`.
pub async fn games() -> Response {
    page("games.html")
}

/// `/rules/{variant}`.
pub async fn rules(Path(_variant): Path<String>) -> Response {
    page("rules.html")
}
