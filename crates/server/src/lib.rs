//! `menagerie serve`: Menagerie's game server. An HTTP API and websockets (axum on tokio)
//! over SQLite (embedded, WAL) or PostgreSQL; every accepted turn is stored before it is
//! acknowledged, engine searches run in a bounded pool off the async runtime, and each viewer
//! sees only what it may (`docs/api.md`).

#![warn(missing_docs)]

pub mod access;
pub mod accounts;
mod api;
pub mod app;
pub mod chat;
pub mod clock;
pub mod cluster;
pub mod engine_pool;
pub mod games;
pub mod guides;
pub mod limits;
pub mod lobby;
pub mod metrics;
mod pages;
pub mod presence;
pub mod profiles;
pub mod ratings;
pub mod record;
pub mod seats;
pub mod serve;
pub mod store;
mod ws;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, delete, get, post};
use axum::Router;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::set_header::SetResponseHeaderLayer;

/// Writes one line to the server's log (standard error, through `tracing`: a time, the
/// level and the sentence). Every caller reports something that went wrong, so the level is
/// `ERROR`. A closed or full stderr never stops the server. Tokens are never passed.
pub(crate) fn log(message: &str) {
    tracing::error!("{message}");
}

/// The options of `menagerie serve`.
#[derive(clap::Parser, Debug, Clone)]
pub struct ServeArgs {
    /// The TCP port (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// The database: `postgres://USER:PASS@HOST/DB`, or an SQLite file (default: games.sqlite
    /// in the data folder).
    #[arg(long)]
    pub database: Option<String>,
    /// The folder for the embedded database (created when missing).
    #[arg(long, default_value = "menagerie-data")]
    pub data: PathBuf,
    /// How many engine searches may run at once (default: the number of cores).
    #[arg(long)]
    pub engine_threads: Option<usize>,
    /// How many games one address may create in a minute (docs/api.md, Limits).
    #[arg(long, default_value_t = 30)]
    pub games_per_minute: usize,
    /// How many unfinished games one address may hold (docs/api.md, Limits).
    #[arg(long, default_value_t = 100)]
    pub open_games: usize,
    /// How many websockets one address may hold open at once (docs/api.md, Limits).
    #[arg(long, default_value_t = 64)]
    pub sockets_per_address: usize,
    /// How many seeks and quick pairings one address may have open at once (docs/api.md, Limits).
    #[arg(long, default_value_t = crate::limits::DEFAULT_SEEKS_PER_ADDRESS)]
    pub seeks_per_address: usize,
    /// The address people reach the server at, e.g. `https://play.example.org` behind a
    /// proxy: records' `Site` tag, the same-origin check, and `Secure` cookies when HTTPS.
    #[arg(long)]
    pub public_url: Option<String>,
    /// Seconds a request's header may take to arrive (then the connection is closed).
    #[arg(long, default_value_t = 10.0, value_parser = parse_seconds)]
    pub header_timeout: f64,
    /// Seconds a request's body may take to arrive after its header (then 408).
    #[arg(long, default_value_t = 30.0, value_parser = parse_seconds)]
    pub body_timeout: f64,
    /// Seconds a connection may stay with nothing read or written (then it is closed).
    #[arg(long, default_value_t = 75.0, value_parser = parse_seconds)]
    pub idle_timeout: f64,
    /// How many connections one address may hold open at once (websockets included).
    #[arg(long, default_value_t = 256)]
    pub connections_per_address: usize,
    /// A proxy in front of the server whose `X-Forwarded-For` is believed, an address or a
    /// network (repeat for several): the per-address limits then count players' addresses.
    #[arg(long = "trusted-proxy", value_parser = serve::parse_proxy)]
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Seconds a player must have had no connection on their own turn before the opponent
    /// may claim the win or a draw (lichess's 30; tests shorten it).
    #[arg(long, default_value_t = 30.0, value_parser = parse_seconds)]
    pub absence_seconds: f64,
    /// For tests only: the length of a correspondence "day" in milliseconds.
    #[arg(long, default_value_t = lobby::DAY_MS, hide = true)]
    pub day_ms: i64,
    /// For tests only: milliseconds a live seek waits before a bot may answer it (0: never).
    #[arg(long, default_value_t = 5_000, hide = true)]
    pub bot_wait_ms: i64,
    /// For tests only: milliseconds a challenge with a clock waits for its answer.
    #[arg(long, default_value_t = 600_000, hide = true)]
    pub challenge_ms: i64,
}

/// Reads a number of seconds from 0.01 to one day.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if (0.01..=86_400.0).contains(&s) => Ok(s),
        _ => Err(format!(
            "'{text}' is not a number of seconds from 0.01 to 86400"
        )),
    }
}

impl ServeArgs {
    /// The database URL these options choose.
    pub fn database_url(&self) -> String {
        match &self.database {
            Some(url) => url.clone(),
            None => self.data.join("games.sqlite").display().to_string(),
        }
    }
}

/// The Content-Security-Policy of every answer: only the server's own files, plus the pages'
/// inline import maps by their hashes (pages::import_map_hashes).
pub fn content_security_policy() -> String {
    let hashes: String = pages::import_map_hashes()
        .iter()
        .map(|h| format!(" {h}"))
        .collect();
    format!(
        "default-src 'self'; script-src 'self'{hashes}; style-src 'self' 'unsafe-inline'; \
img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    )
}

static CSP: std::sync::LazyLock<HeaderValue> = std::sync::LazyLock::new(|| {
    HeaderValue::from_str(&content_security_policy())
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"))
});

/// The routes of the server over `app`.
pub fn router(app: Arc<app::App>) -> Router {
    let sessions = accounts::session_layer(app.sessions.clone(), app.secure_cookies);
    let public = Arc::new(app.public_url.clone());
    let api = Router::new()
        .route("/api/variants", get(api::variants))
        .route("/api/games", post(api::create).get(profiles::recent))
        .route("/api/games/import", post(api::import))
        .route("/api/games/{id}", get(api::state))
        .route("/api/games/{id}/move", post(api::play))
        .route("/api/games/{id}/resign", post(api::resign))
        .route("/api/games/{id}/offer-draw", post(api::offer_draw))
        .route("/api/games/{id}/accept-draw", post(api::accept_draw))
        .route("/api/games/{id}/decline-draw", post(api::decline_draw))
        .route("/api/games/{id}/claim", post(api::claim))
        .route("/api/games/{id}/abort", post(api::abort))
        .route("/api/games/{id}/chat", get(chat::read).post(chat::write))
        .route("/api/games/{id}/takeback", post(api::takeback))
        .route("/api/games/{id}/rematch", post(api::rematch))
        .route("/api/games/{id}/record", get(api::get_record))
        .route("/api/games/{id}/at/{ply}", get(api::at_ply))
        .route("/api/position", post(api::position))
        .route("/api/games/{id}/ws", get(api::websocket))
        .route("/healthz", get(metrics::healthz))
        .route("/metrics", get(metrics::render))
        .route("/api/analysis", post(api::analysis))
        .route("/api/rules/{variant}", get(api::rules_text))
        .route("/api/join/{code}", post(seats::join_api))
        .route("/api/games/{id}/rematch-seat", post(seats::rematch_api))
        .route(
            "/api/account",
            get(accounts::account).delete(accounts::delete),
        )
        .route("/api/account/signup", post(accounts::signup))
        .route("/api/account/login", post(accounts::login))
        .route("/api/account/logout", post(accounts::logout))
        .route("/api/account/password", post(accounts::change_password))
        .route("/api/account/games", get(profiles::my_games))
        .route("/api/users/{name}", get(profiles::user))
        .route("/api/users/{name}/games", get(profiles::user_games))
        .route("/api/users/{name}/games.pgn", get(profiles::user_pgn))
        .route(
            "/api/users/{name}/rating-history",
            get(ratings::rating_history),
        )
        .route("/api/leaderboard/{variant}", get(ratings::leaderboard))
        .route("/api/bots", get(ratings::bots))
        .route(
            "/api/seeks",
            post(lobby::create_seek).get(lobby::list_seeks),
        )
        .route("/api/seeks/{id}", delete(lobby::cancel_seek))
        .route("/api/seeks/{id}/accept", post(lobby::accept_seek))
        .route("/api/pairing", post(lobby::create_pairing))
        .route("/api/pairing/{id}", delete(lobby::cancel_seek))
        .route("/api/lobby", get(lobby::lobby_info))
        .route("/api/lobby/ws", get(lobby::websocket))
        .route(
            "/api/challenges",
            post(lobby::create_challenge).get(lobby::list_challenges),
        )
        .route("/api/challenges/{id}", delete(lobby::cancel_challenge))
        .route("/api/challenges/{id}/accept", post(lobby::accept_challenge))
        .route(
            "/api/challenges/{id}/decline",
            post(lobby::decline_challenge),
        )
        .route("/api", any(api::api_not_found))
        .route("/api/", any(api::api_not_found))
        .route("/api/{*rest}", any(api::api_not_found))
        .route("/play/{token}", get(api::seat_link))
        .route("/join/{code}", get(seats::join_page))
        .route("/game/{id}/rematch", get(seats::rematch_page))
        .route("/login", get(pages::login))
        .route("/account", get(pages::account))
        .route("/my-games", get(pages::my_games))
        .route("/@/{name}", get(pages::profile))
        .route("/leaderboard", get(pages::leaderboard))
        .route("/leaderboard/{variant}", get(pages::leaderboard))
        .route("/", get(pages::home))
        .route("/game/{id}", get(pages::game))
        .route("/analysis", get(pages::analysis))
        .route("/games", get(pages::games))
        .route("/rules/{variant}", get(pages::rules))
        .route("/static/{*path}", get(pages::static_file))
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(app)
        .layer(sessions)
        .layer(axum::middleware::from_fn_with_state(
            public,
            |axum::extract::State(public): axum::extract::State<Arc<Option<String>>>,
             request: axum::extract::Request,
             next: axum::middleware::Next| {
                access::refuse_other_sites(public, request, next)
            },
        ));
    layers(api)
}

/// The layers around every route: a caught panic answers 500 in JSON; an API error the
/// framework wrote in plain text becomes a JSON sentence; security headers.
fn layers(routes: Router) -> Router {
    routes
        .layer(axum::middleware::from_fn(json_errors))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(axum::middleware::from_fn(metrics::observe))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            CSP.clone(),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
}

/// Rewrites an `/api/` error answered in plain text (the framework's own rejections, such as
/// a path that is not UTF-8 once decoded) as `{"error": SENTENCE}` with the same status.
async fn json_errors(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let api = request.uri().path().starts_with("/api");
    let response = next.run(request).await;
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !api || json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let body = axum::body::to_bytes(response.into_body(), 4096)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&body);
    let text = text.trim();
    let sentence = if text.is_empty() {
        format!(
            "the request was refused: {}",
            status.canonical_reason().unwrap_or("an error")
        )
    } else {
        format!("the request was refused: {text}")
    };
    app::ApiError::new(status.as_u16(), sentence).into_response()
}

async fn method_not_allowed() -> app::ApiError {
    app::ApiError::new(
        405,
        "this method is not allowed on this path; see docs/api.md",
    )
}

fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        axum::Json(serde_json::json!({"error": "the server failed on this request (an internal error); the game is unchanged"})),
    )
        .into_response()
}

/// A running server: its address.
pub struct Running {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// The server's state.
    pub app: Arc<app::App>,
}

/// Opens the database, resumes the engines and starts serving on the current tokio runtime.
pub async fn start(args: &ServeArgs) -> Result<Running, String> {
    metrics::install();
    let url = args.database_url();
    let store = store::Store::open(&url).await?;
    let threads = args.engine_threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    });
    // Build every variant's tables now (chess's attack tables take seconds): done lazily by
    // the first request, they stalled every request for that long after each start.
    tokio::task::spawn_blocking(games::variants_json)
        .await
        .map_err(|e| format!("the variants failed to start: {e}"))?;
    let app = app::App::with_public_url(store, threads, args.public_url.clone());
    app.sessions
        .delete_expired_every(std::time::Duration::from_secs(3600));
    app.presence
        .set_absence_ms((args.absence_seconds * 1000.0).round() as i64);
    app.limits.configure(
        args.games_per_minute,
        args.open_games,
        args.sockets_per_address,
        args.seeks_per_address,
    );
    app.lobby
        .configure(args.day_ms, args.bot_wait_ms, args.challenge_ms);
    // PostgreSQL: the listener, the announcer of this process's turns and the poll.
    cluster::start(&app).await?;
    let addr = format!("{}:{}", args.bind, args.port);
    let tcp = tokio::net::TcpListener::bind(&addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = tcp
        .local_addr()
        .map_err(|e| format!("cannot read the address listened on: {e}"))?;
    app.resume_engines().await;
    // Rated games whose end was stored but not rated (the process died in between).
    ratings::settle_pending(&app).await;
    lobby::start(&app).await;
    let router = router(app.clone());
    let sweeper = Arc::downgrade(&app);
    tokio::spawn(async move {
        // Every few seconds: finished games and games nobody watches leave memory (the
        // database keeps them). Often, because a busy server finishes hundreds of games a
        // minute and each holds its whole history.
        for tick in 1u64.. {
            tokio::time::sleep(std::time::Duration::from_secs(5)).await;
            let Some(app) = sweeper.upgrade() else { return };
            app.evict_idle(app::IDLE_EVICTION);
            app.limits.sweep();
            if tick % 12 == 0 {
                // Once a minute: a game whose rating failed with the database is rated.
                ratings::settle_pending(&app).await;
            }
            // Processes fallen silent leave their tables; old departures are forgotten.
            for game in app.presence.sweep() {
                app.presence_changed(&game).await;
            }
        }
    });
    let limits = serve::ConnectionLimits {
        header: std::time::Duration::from_secs_f64(args.header_timeout),
        body: std::time::Duration::from_secs_f64(args.body_timeout),
        idle: std::time::Duration::from_secs_f64(args.idle_timeout),
        per_address: args.connections_per_address.max(1),
    };
    let proxies = serve::TrustedProxies::new(&args.trusted_proxies);
    tokio::spawn(serve::serve(tcp, router, limits, proxies));
    Ok(Running { addr: local, app })
}

/// `menagerie serve`: runs the server until interrupted.
pub fn run(args: ServeArgs) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(async {
        let running = start(&args).await?;
        let db = match &args.database {
            Some(url) if url.starts_with("postgres") => "PostgreSQL".to_string(),
            _ => args.database_url(),
        };
        // A closed stdout must not stop the server: write, never `println!`.
        use std::io::Write as _;
        let mut out = std::io::stdout();
        let _ = writeln!(
            out,
            "Menagerie is serving on http://{}/ (database: {db})",
            running.addr
        );
        let _ = writeln!(
            out,
            "Open that address in a browser to play; press Ctrl-C to stop."
        );
        let _ = out.flush();
        let _ = tokio::signal::ctrl_c().await;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic inside a handler answers 500 with a JSON sentence and the server serves on.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_panic_in_one_request_does_not_take_the_server_down() {
        async fn boom() -> &'static str {
            panic!("a defect in one request")
        }
        async fn fine() -> &'static str {
            "fine"
        }
        let routes = layers(
            Router::new()
                .route("/boom", get(boom))
                .route("/fine", get(fine)),
        );
        let tcp = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = tcp.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(tcp, routes).await });
        let c = reqwest::Client::new();
        for _ in 0..3 {
            let r = c.get(format!("http://{addr}/boom")).send().await.unwrap();
            assert_eq!(r.status().as_u16(), 500);
            let v: serde_json::Value = r.json().await.unwrap();
            assert!(v["error"].as_str().unwrap().contains("internal error"));
        }
        let r = c.get(format!("http://{addr}/fine")).send().await.unwrap();
        assert_eq!(r.text().await.unwrap(), "fine");
    }
}
