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
        "wav" => "audio/wav",
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

/// `/rules/{variant}`: the players' guide rendered on the server (`guides.rs`) into the page.
pub async fn rules(Path(variant): Path<String>) -> Response {
    let template = WEB
        .get_file("rules.html")
        .and_then(|f| f.contents_utf8())
        .unwrap_or_default();
    let found = crate::games::variant_names(&variant)
        .ok()
        .and_then(|(id, name)| Some((id, name, crate::guides::guide_for(id)?)));
    let (status, title, body) = match found {
        Some((id, name, text)) => {
            let r = crate::guides::render(text);
            let body = format!(
                "<p><a href=\"/?variant={id}\">Play {name}</a></p><article class=\"rules\" id=\"rules-content\">{}</article>",
                r.html
            );
            (StatusCode::OK, format!("{name}: rules — Menagerie"), body)
        }
        None => (
            StatusCode::NOT_FOUND,
            "Rules — Menagerie".to_string(),
            format!(
                "<p class=\"error\">There is no players' guide for '{}'.</p>",
                escape(&variant)
            ),
        ),
    };
    let html = template
        .replace(
            "<title>Rules — Menagerie</title>",
            &format!("<title>{}</title>", escape(&title)),
        )
        .replace("<p class=\"loading\">Loading…</p>", &body);
    let mut r = (status, html).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// Text escaped for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// `/login`: sign up and log in.
pub async fn login() -> Response {
    page("login.html")
}

/// `/account`: the account's settings.
pub async fn account() -> Response {
    page("account.html")
}

/// `/my-games`: the caller's games.
pub async fn my_games() -> Response {
    page("my-games.html")
}

/// `/@/{name}`: a player's profile.
pub async fn profile(Path(_name): Path<String>) -> Response {
    page("profile.html")
}
