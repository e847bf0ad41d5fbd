//! Accounts and sessions (issue 29): sign up, log in, log out (here or everywhere), change
//! the password, delete the account; every browser's session (tower-sessions, stored in the
//! same database), anonymous until its person signs up or logs in.
//!
//! A session holds either an account (its id and the account's session epoch: raising the
//! epoch ends every session of the account at once) or an anonymous id. Seats belong to one
//! or the other (`seat_owners`); signing up hands an anonymous session's seats to the account.

use crate::api::JsonBody;
use crate::app::{ApiError, App};
use crate::both;
use crate::limits::ClientIp;
use crate::store::{db_err, now_ms, Store};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::Row;
use std::sync::Arc;
use tower_sessions::session::{Id, Record};
use tower_sessions::session_store::{self, SessionStore};
use tower_sessions::Session;
use tower_sessions_sqlx_store::{PostgresStore, SqliteStore};

/// Who owns a seat: an account, or an anonymous browser session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    /// An account, by id.
    Account(String),
    /// An anonymous session, by its random id.
    Anon(String),
}

impl Owner {
    /// `(account id, anonymous id)`, one of them set: the columns of `seat_owners`.
    pub fn columns(&self) -> (Option<String>, Option<String>) {
        match self {
            Owner::Account(a) => (Some(a.clone()), None),
            Owner::Anon(a) => (None, Some(a.clone())),
        }
    }
}

/// The account a session is logged in to.
#[derive(Clone, Debug)]
pub struct Account {
    /// Its id (random, never shown).
    pub id: String,
    /// Its name as chosen.
    pub name: String,
}

/// The person behind a request, as its session says.
#[derive(Clone, Debug, Default)]
pub struct Me {
    /// The account, when logged in.
    pub account: Option<Account>,
    /// The anonymous id, when the session has one (kept after logging in: games played
    /// anonymously in this browser before).
    pub anon: Option<String>,
}

impl Me {
    /// The owner new seats get: the account, else the anonymous id.
    pub fn owner(&self) -> Option<Owner> {
        match (&self.account, &self.anon) {
            (Some(a), _) => Some(Owner::Account(a.id.clone())),
            (None, Some(n)) => Some(Owner::Anon(n.clone())),
            (None, None) => None,
        }
    }
}

const ACCOUNT_KEY: &str = "account";
const ANON_KEY: &str = "anon";

/// What a session stores of its account.
#[derive(Serialize, Deserialize)]
struct SessionAccount {
    id: String,
    epoch: i64,
}

fn session_err(e: tower_sessions::session::Error) -> ApiError {
    ApiError::unavailable(format!("the session could not be read or saved: {e}"))
}

/// The person behind `session` (nobody in particular when it has no data).
pub async fn me(app: &App, session: &Session) -> Result<Me, ApiError> {
    let anon: Option<String> = session.get(ANON_KEY).await.map_err(session_err)?;
    let stored: Option<SessionAccount> = session.get(ACCOUNT_KEY).await.map_err(session_err)?;
    let mut account = None;
    if let Some(s) = stored {
        match app
            .store
            .account_by_id(&s.id)
            .await
            .map_err(ApiError::unavailable)?
        {
            Some((name, epoch)) if epoch == s.epoch => account = Some(Account { id: s.id, name }),
            // Logged out everywhere, the password changed, or the account deleted.
            _ => {
                let _ = session
                    .remove::<SessionAccount>(ACCOUNT_KEY)
                    .await
                    .map_err(session_err)?;
            }
        }
    }
    Ok(Me { account, anon })
}

/// The owner of seats taken in this request: the account, else the session's anonymous id
/// (made now when it has none, which sets the session cookie).
pub async fn owner(app: &App, session: &Session) -> Result<Owner, ApiError> {
    let me = me(app, session).await?;
    if let Some(o) = me.owner() {
        return Ok(o);
    }
    let id = crate::app::random_hex()?;
    session.insert(ANON_KEY, &id).await.map_err(session_err)?;
    Ok(Owner::Anon(id))
}

/// The sessions' store: SQLite or PostgreSQL, whichever the games use.
#[derive(Clone, Debug)]
pub enum Sessions {
    /// In the SQLite file.
    Sqlite(SqliteStore),
    /// In PostgreSQL.
    Postgres(PostgresStore),
}

impl Sessions {
    /// The sessions' store beside the games' ([`Sessions::migrate`] makes its table).
    pub fn new(store: &Store) -> Sessions {
        match store {
            Store::Sqlite(p) => Sessions::Sqlite(SqliteStore::new(p.clone())),
            Store::Postgres(p) => Sessions::Postgres(PostgresStore::new(p.clone())),
        }
    }

    /// Creates the sessions' table when missing.
    pub async fn migrate(&self) -> Result<(), String> {
        let fail = |e: sqlx::Error| format!("the sessions' table cannot be made: {e}");
        match self {
            Sessions::Sqlite(s) => s.migrate().await.map_err(fail),
            Sessions::Postgres(s) => {
                // Two processes starting together may both create the schema; one wins, and
                // the other's second try finds it made.
                if s.migrate().await.is_err() {
                    s.migrate().await.map_err(fail)?;
                }
                Ok(())
            }
        }
    }

    /// Deletes expired sessions every `period` (a background task).
    pub fn delete_expired_every(&self, period: std::time::Duration) {
        use tower_sessions::ExpiredDeletion;
        let me = self.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(period).await;
                let r = match &me {
                    Sessions::Sqlite(s) => s.delete_expired().await,
                    Sessions::Postgres(s) => s.delete_expired().await,
                };
                if let Err(e) = r {
                    crate::log(&format!("cannot delete expired sessions: {e}"));
                }
            }
        });
    }
}

#[async_trait::async_trait]
impl SessionStore for Sessions {
    async fn create(&self, record: &mut Record) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.create(record).await,
            Sessions::Postgres(s) => s.create(record).await,
        }
    }
    async fn save(&self, record: &Record) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.save(record).await,
            Sessions::Postgres(s) => s.save(record).await,
        }
    }
    async fn load(&self, id: &Id) -> session_store::Result<Option<Record>> {
        match self {
            Sessions::Sqlite(s) => s.load(id).await,
            Sessions::Postgres(s) => s.load(id).await,
        }
    }
    async fn delete(&self, id: &Id) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.delete(id).await,
            Sessions::Postgres(s) => s.delete(id).await,
        }
    }
}

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "menagerie-session";

/// The session layer: cookies HttpOnly, SameSite Lax, `Secure` when served over HTTPS, kept
/// 30 days after the last use.
pub fn session_layer(
    sessions: Sessions,
    secure: bool,
) -> tower_sessions::SessionManagerLayer<Sessions> {
    tower_sessions::SessionManagerLayer::new(sessions)
        .with_name(SESSION_COOKIE)
        .with_http_only(true)
        .with_same_site(tower_sessions::cookie::SameSite::Lax)
        .with_secure(secure)
        .with_path("/")
        .with_expiry(tower_sessions::Expiry::OnInactivity(time::Duration::days(
            30,
        )))
}

// ----- names and passwords -----

/// Names no account may take (ignoring case).
pub const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "umpire",
    "anonymous",
    "deleted",
    "engine",
    "menagerie",
    "system",
    "moderator",
    "bot",
];

/// Checks a new account's name: 2 to 20 letters, digits, `_` or `-`, not reserved.
pub fn check_name(name: &str) -> Result<(), ApiError> {
    let n = name.chars().count();
    if !(2..=20).contains(&n) {
        return Err(ApiError::bad("a name has 2 to 20 characters"));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(ApiError::bad(
            "a name has only letters (a-z, A-Z), digits, '_' and '-'",
        ));
    }
    let key = name.to_ascii_lowercase();
    if RESERVED.contains(&key.as_str()) || key.starts_with("engine") || key.starts_with("level") {
        return Err(ApiError::conflict(format!(
            "the name '{name}' is reserved; choose another"
        )));
    }
    Ok(())
}

/// Checks a new password: 8 to 256 characters.
pub fn check_password(password: &str) -> Result<(), ApiError> {
    let n = password.chars().count();
    if n < 8 {
        return Err(ApiError::bad("a password has at least 8 characters"));
    }
    if n > 256 {
        return Err(ApiError::bad("a password has at most 256 characters"));
    }
    Ok(())
}

/// Argon2id, off the async runtime (it takes tens of milliseconds by design).
async fn hash_password(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || password_auth::generate_hash(password))
        .await
        .map_err(|_| ApiError::new(500, "the password could not be hashed"))
}

/// Whether `password` matches `hash` (off the runtime).
async fn verify_password(password: String, hash: String) -> bool {
    tokio::task::spawn_blocking(move || password_auth::verify_password(password, &hash).is_ok())
        .await
        .unwrap_or(false)
}

/// A hash to verify against when the name is unknown, so that an unknown name takes as long
/// as a wrong password.
fn dummy_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| password_auth::generate_hash("not a password of anyone"))
}

// ----- queries -----

impl Store {
    /// An account's `(name, session epoch)` by id, unless deleted.
    pub async fn account_by_id(&self, id: &str) -> Result<Option<(String, i64)>, String> {
        let q = self.query_text(
            "SELECT name, session_epoch FROM accounts WHERE id = ? AND deleted = FALSE",
        );
        both!(self, p => {
            let row = sqlx::query(&q).bind(id).fetch_optional(p).await.map_err(db_err)?;
            row.map(|r| Ok((r.try_get::<String, _>("name")?, r.try_get::<i64, _>("session_epoch")?)))
                .transpose()
                .map_err(|e: sqlx::Error| db_err(e))
        })
    }

    /// An account's `(id, name, password hash, session epoch)` by name (ignoring case).
    pub async fn account_by_name(
        &self,
        name: &str,
    ) -> Result<Option<(String, String, String, i64)>, String> {
        let q = self.query_text(
            "SELECT id, name, password_hash, session_epoch FROM accounts WHERE name_key = ? AND deleted = FALSE",
        );
        let key = name.to_ascii_lowercase();
        both!(self, p => {
            let row = sqlx::query(&q).bind(&key).fetch_optional(p).await.map_err(db_err)?;
            row.map(|r| Ok((
                r.try_get::<String, _>("id")?,
                r.try_get::<String, _>("name")?,
                r.try_get::<String, _>("password_hash")?,
                r.try_get::<i64, _>("session_epoch")?,
            )))
            .transpose()
            .map_err(|e: sqlx::Error| db_err(e))
        })
    }

    /// Creates an account; `Ok(false)` when the name is taken (ignoring case). The seats of
    /// `anon` (the session's games so far) become the account's.
    pub async fn create_account(
        &self,
        id: &str,
        name: &str,
        hash: &str,
        anon: Option<&str>,
    ) -> Result<bool, String> {
        let insert = self.query_text(
            "INSERT INTO accounts (id, name, name_key, password_hash, created_at, deleted, session_epoch) VALUES (?, ?, ?, ?, ?, FALSE, 0)",
        );
        let adopt = self
            .query_text("UPDATE seat_owners SET account_id = ?, anon_id = NULL WHERE anon_id = ?");
        let key = name.to_ascii_lowercase();
        both!(self, p => {
            let mut tx = p.begin().await.map_err(db_err)?;
            let r = sqlx::query(&insert).bind(id).bind(name).bind(&key).bind(hash).bind(now_ms())
                .execute(&mut *tx).await;
            match r {
                Ok(_) => {}
                Err(sqlx::Error::Database(d)) if d.is_unique_violation() => return Ok(false),
                Err(e) => return Err(db_err(e)),
            }
            if let Some(anon) = anon {
                sqlx::query(&adopt).bind(id).bind(anon).execute(&mut *tx).await.map_err(db_err)?;
            }
            tx.commit().await.map_err(db_err)?;
            Ok(true)
        })
    }

    /// Sets an account's password hash and raises its session epoch (every session ends);
    /// returns the new epoch.
    pub async fn set_password(&self, id: &str, hash: &str) -> Result<i64, String> {
        let q = self.query_text(
            "UPDATE accounts SET password_hash = ?, session_epoch = session_epoch + 1 WHERE id = ?",
        );
        both!(self, p => {
            sqlx::query(&q).bind(hash).bind(id).execute(p).await.map_err(db_err)?;
        });
        self.account_by_id(id)
            .await?
            .map(|(_, e)| e)
            .ok_or_else(|| "the account is gone".to_string())
    }

    /// The games whose seats an account owns: `(game, seat)`.
    pub async fn account_seats(&self, id: &str) -> Result<Vec<(String, String)>, String> {
        let q = self.query_text("SELECT game_id, seat FROM seat_owners WHERE account_id = ?");
        both!(self, p => {
            let rows = sqlx::query(&q).bind(id).fetch_all(p).await.map_err(db_err)?;
            rows.iter()
                .map(|r| Ok((r.try_get::<String, _>("game_id")?, r.try_get::<String, _>("seat")?)))
                .collect::<Result<Vec<_>, sqlx::Error>>()
                .map_err(db_err)
        })
    }

    /// Ends every session of an account (raises its epoch).
    pub async fn end_sessions(&self, id: &str) -> Result<(), String> {
        let q =
            self.query_text("UPDATE accounts SET session_epoch = session_epoch + 1 WHERE id = ?");
        both!(self, p => {
            sqlx::query(&q).bind(id).execute(p).await.map(|_| ()).map_err(db_err)
        })
    }

    /// Deletes an account: its name is freed, its password forgotten, its sessions end; its
    /// games stay (their player reads "deleted").
    pub async fn delete_account(&self, id: &str) -> Result<(), String> {
        let q = self.query_text(
            "UPDATE accounts SET deleted = TRUE, name_key = NULL, password_hash = NULL, session_epoch = session_epoch + 1 WHERE id = ?",
        );
        // Its chat messages stay, signed "deleted" (the name is free for someone else).
        let chat = self.query_text("UPDATE chat SET name = 'deleted' WHERE person = ?");
        both!(self, p => {
            let mut tx = p.begin().await.map_err(db_err)?;
            sqlx::query(&q).bind(id).execute(&mut *tx).await.map_err(db_err)?;
            sqlx::query(&chat).bind(format!("a:{id}")).execute(&mut *tx).await.map_err(db_err)?;
            tx.commit().await.map_err(db_err)
        })
    }
}

// ----- routes -----

type AppState = State<Arc<App>>;

/// `{"name", "password"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

fn account_json(status: StatusCode, name: Option<&str>) -> Response {
    (status, axum::Json(json!({ "name": name }))).into_response()
}

/// Logs `session` in to the account (a new session id: the one chosen before login is not
/// the one after, so a planted session id gains nothing).
async fn log_in(session: &Session, id: &str, epoch: i64) -> Result<(), ApiError> {
    session.cycle_id().await.map_err(session_err)?;
    session
        .insert(
            ACCOUNT_KEY,
            SessionAccount {
                id: id.to_string(),
                epoch,
            },
        )
        .await
        .map_err(session_err)
}

/// `POST /api/account/signup`.
pub async fn signup(
    State(app): AppState,
    ClientIp(ip): ClientIp,
    session: Session,
    JsonBody(b): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    check_name(&b.name)?;
    check_password(&b.password)?;
    app.limits.may_sign_up(ip)?;
    let hash = hash_password(b.password).await?;
    let id = crate::app::random_hex()?;
    let anon: Option<String> = session.get(ANON_KEY).await.map_err(session_err)?;
    let made = app
        .store
        .create_account(&id, &b.name, &hash, anon.as_deref())
        .await
        .map_err(ApiError::unavailable)?;
    if !made {
        return Err(ApiError::conflict(format!(
            "the name '{}' is taken; choose another",
            b.name
        )));
    }
    log_in(&session, &id, 0).await?;
    if anon.is_some() {
        app.account_named(&id, &b.name).await;
    }
    Ok(account_json(StatusCode::CREATED, Some(&b.name)))
}

/// `POST /api/account/login`.
pub async fn login(
    State(app): AppState,
    ClientIp(ip): ClientIp,
    session: Session,
    JsonBody(b): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    if b.name.len() > 64 || b.password.len() > 1024 {
        return Err(ApiError::new(401, "the name or the password is wrong"));
    }
    app.limits.may_log_in(ip, &b.name)?;
    let found = app
        .store
        .account_by_name(&b.name)
        .await
        .map_err(ApiError::unavailable)?;
    let Some((id, name, hash, epoch)) = found else {
        let _ = verify_password(b.password, dummy_hash().to_string()).await;
        app.limits.login_failed(ip, &b.name);
        return Err(ApiError::new(401, "the name or the password is wrong"));
    };
    if !verify_password(b.password, hash).await {
        app.limits.login_failed(ip, &b.name);
        return Err(ApiError::new(401, "the name or the password is wrong"));
    }
    log_in(&session, &id, epoch).await?;
    Ok(account_json(StatusCode::OK, Some(&name)))
}

/// `{"everywhere": bool}`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct LogoutBody {
    #[serde(default)]
    everywhere: bool,
}

/// `POST /api/account/logout`: this session, or with `"everywhere": true` every session of
/// the account.
pub async fn logout(
    State(app): AppState,
    session: Session,
    JsonBody(b): JsonBody<LogoutBody>,
) -> Result<Response, ApiError> {
    let me = me(&app, &session).await?;
    if let (true, Some(a)) = (b.everywhere, &me.account) {
        app.store
            .end_sessions(&a.id)
            .await
            .map_err(ApiError::unavailable)?;
    }
    // A fresh, empty session: nothing of the old one is kept.
    session.flush().await.map_err(session_err)?;
    Ok(account_json(StatusCode::OK, None))
}

/// `GET /api/account`.
pub async fn account(State(app): AppState, session: Session) -> Result<Response, ApiError> {
    let me = me(&app, &session).await?;
    Ok(crate::api::no_store(account_json(
        StatusCode::OK,
        me.account.as_ref().map(|a| a.name.as_str()),
    )))
}

/// `{"password", "new_password"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordBody {
    password: String,
    new_password: String,
}

async fn logged_in_with_password(
    app: &App,
    session: &Session,
    password: String,
) -> Result<Account, ApiError> {
    let me = me(app, session).await?;
    let Some(account) = me.account else {
        return Err(ApiError::new(401, "you are not logged in"));
    };
    let found = app
        .store
        .account_by_name(&account.name)
        .await
        .map_err(ApiError::unavailable)?;
    let Some((_, _, hash, _)) = found else {
        return Err(ApiError::new(401, "you are not logged in"));
    };
    if !verify_password(password, hash).await {
        return Err(ApiError::new(401, "the password is wrong"));
    }
    Ok(account)
}

/// `POST /api/account/password`: the other sessions of the account end; this one stays.
pub async fn change_password(
    State(app): AppState,
    session: Session,
    JsonBody(b): JsonBody<PasswordBody>,
) -> Result<Response, ApiError> {
    check_password(&b.new_password)?;
    let account = logged_in_with_password(&app, &session, b.password).await?;
    let hash = hash_password(b.new_password).await?;
    let epoch = app
        .store
        .set_password(&account.id, &hash)
        .await
        .map_err(ApiError::unavailable)?;
    log_in(&session, &account.id, epoch).await?;
    Ok(account_json(StatusCode::OK, Some(&account.name)))
}

/// `{"password"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeleteBody {
    password: String,
}

/// `DELETE /api/account`: asks for the password; the games stay.
pub async fn delete(
    State(app): AppState,
    session: Session,
    JsonBody(b): JsonBody<DeleteBody>,
) -> Result<Response, ApiError> {
    let account = logged_in_with_password(&app, &session, b.password).await?;
    app.store
        .delete_account(&account.id)
        .await
        .map_err(ApiError::unavailable)?;
    app.account_deleted(&account.id).await;
    session.flush().await.map_err(session_err)?;
    Ok(account_json(StatusCode::OK, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert!(check_name("al").is_ok());
        assert!(check_name("Alice_B-2").is_ok());
        assert_eq!(
            check_name("a").unwrap_err().message,
            "a name has 2 to 20 characters"
        );
        assert_eq!(
            check_name("abcdefghijklmnopqrstu").unwrap_err().message,
            "a name has 2 to 20 characters"
        );
        assert_eq!(
            check_name("al ice").unwrap_err().message,
            "a name has only letters (a-z, A-Z), digits, '_' and '-'"
        );
        assert_eq!(
            check_name("Umpire").unwrap_err().message,
            "the name 'Umpire' is reserved; choose another"
        );
        assert_eq!(check_name("engine7").unwrap_err().status, 409);
        assert!(check_name("élise").is_err());
    }

    #[test]
    fn passwords_are_checked() {
        assert!(check_password("12345678").is_ok());
        assert_eq!(
            check_password("1234567").unwrap_err().message,
            "a password has at least 8 characters"
        );
        assert!(check_password(&"x".repeat(257)).is_err());
    }
}
