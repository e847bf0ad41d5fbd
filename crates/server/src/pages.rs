//! The pages and static files, embedded in the binary from `crates/server/web/`.

use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use include_dir::{include_dir, Dir};

static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/web");

include!(concat!(env!("OUT_DIR"), "/rules_docs.rs"));

const IMPORT_MAP_OPEN: &str = "<script type=\"importmap\">";

/// The Content-Security-Policy sources (`'sha256-...'`) of the import maps written inline in
/// the pages: the policy allows exactly these inline scripts and no other.
pub fn import_map_hashes() -> Vec<String> {
    use base64::Engine as _;
    use sha2::{Digest, Sha256};
    let mut out = Vec::new();
    for f in WEB.files() {
        if f.path().extension().and_then(|e| e.to_str()) != Some("html") {
            continue;
        }
        let mut rest = f.contents_utf8().unwrap_or("");
        while let Some(start) = rest.find(IMPORT_MAP_OPEN) {
            rest = &rest[start + IMPORT_MAP_OPEN.len()..];
            let Some(end) = rest.find("</script>") else {
                break;
            };
            let digest = Sha256::digest(&rest.as_bytes()[..end]);
            out.push(format!(
                "'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest)
            ));
            rest = &rest[end..];
        }
    }
    out.sort();
    out.dedup();
    out
}

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

/// `/leaderboard` and `/leaderboard/{variant}`: the leaderboards (issue 33).
pub async fn leaderboard() -> Response {
    page("leaderboard.html")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The game page and the analysis board load three.js through one import map, allowed by its hash.
    #[test]
    fn the_pages_import_map_is_allowed_by_its_hash() {
        assert_eq!(
            import_map_hashes(),
            vec!["'sha256-6FIy5Eiioykw+QQOTG2O0a3s0L9KSaS9qyvrjUD3LDg='".to_string()]
        );
        for page in ["game.html", "analysis.html"] {
            let text = WEB
                .get_file(page)
                .and_then(|f| f.contents_utf8())
                .unwrap_or("");
            assert!(
                text.contains(r#"<script type="importmap">{"imports":{"three":"/static/vendor/three/three.module.js"}}</script>"#),
                "{page}"
            );
        }
        assert!(WEB.get_file("vendor/three/three.module.js").is_some());
        assert!(WEB.get_file("vendor/three/three.core.js").is_some());
        assert!(WEB.get_file("vendor/three/LICENSE").is_some());
    }
}
