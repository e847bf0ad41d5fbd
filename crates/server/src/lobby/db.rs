//! The lobby's queries: seeks and quick pairings (`seeks`), challenges, the processes'
//! heartbeats, and the correspondence games whose time ran out.

use super::challenges::Challenge;
use super::Entry;
use crate::both;
use crate::store::{db_err, Store};
use sqlx::Row;

/// Stores a new entry.
pub async fn insert_entry(store: &Store, e: &Entry, now: i64) -> Result<(), String> {
    let q = store.query_text(
        "INSERT INTO seeks (id, owner, data, pairing, correspondence, created_at, seen_at, address) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    let data = serde_json::to_string(e).map_err(|e| format!("a seek cannot be written: {e}"))?;
    both!(store, p => {
        sqlx::query(&q).bind(&e.id).bind(&e.owner).bind(&data).bind(e.pairing)
            .bind(e.correspondence()).bind(e.created_at).bind(now).bind(&e.address)
            .execute(p).await.map(|_| ()).map_err(db_err)
    })
}

fn parse(data: &str) -> Option<Entry> {
    serde_json::from_str(data).ok()
}

/// Every entry, oldest first.
pub async fn entries(store: &Store) -> Result<Vec<Entry>, String> {
    let q = "SELECT data FROM seeks ORDER BY created_at, id";
    both!(store, p => {
        let rows = sqlx::query(q).fetch_all(p).await.map_err(db_err)?;
        Ok(rows.iter().filter_map(|r| r.try_get::<String, _>("data").ok()).filter_map(|d| parse(&d)).collect())
    })
}

/// The entry `id`, if it is still open.
pub async fn entry(store: &Store, id: &str) -> Result<Option<Entry>, String> {
    let q = store.query_text("SELECT data FROM seeks WHERE id = ?");
    both!(store, p => {
        let row = sqlx::query(&q).bind(id).fetch_optional(p).await.map_err(db_err)?;
        Ok(row.and_then(|r| r.try_get::<String, _>("data").ok()).and_then(|d| parse(&d)))
    })
}

/// Takes entry `id`: the one caller whose `DELETE` removes the row gets it.
pub async fn take(store: &Store, id: &str) -> Result<Option<Entry>, String> {
    let q = store.query_text("DELETE FROM seeks WHERE id = ? RETURNING data");
    both!(store, p => {
        let row = sqlx::query(&q).bind(id).fetch_optional(p).await.map_err(db_err)?;
        Ok(row.and_then(|r| r.try_get::<String, _>("data").ok()).and_then(|d| parse(&d)))
    })
}

/// Takes entries `a` and `b` together, or neither (one of them is gone).
pub async fn take_pair(store: &Store, a: &str, b: &str) -> Result<bool, String> {
    let q = store.query_text("DELETE FROM seeks WHERE id = ? OR id = ?");
    both!(store, p => {
        let mut tx = p.begin().await.map_err(db_err)?;
        let n = sqlx::query(&q).bind(a).bind(b).execute(&mut *tx).await.map_err(db_err)?.rows_affected();
        if n == 2 {
            tx.commit().await.map_err(db_err)?;
            Ok(true)
        } else {
            tx.rollback().await.map_err(db_err)?;
            Ok(false)
        }
    })
}

/// Deletes entry `id` of `owner`; false when it is gone.
pub async fn delete_owned(store: &Store, id: &str, owner: &str) -> Result<bool, String> {
    let q = store.query_text("DELETE FROM seeks WHERE id = ? AND owner = ?");
    both!(store, p => {
        let n = sqlx::query(&q).bind(id).bind(owner).execute(p).await.map_err(db_err)?.rows_affected();
        Ok(n == 1)
    })
}

/// How many entries `owner` has open.
pub async fn count_owned(store: &Store, owner: &str) -> Result<i64, String> {
    let q = store.query_text("SELECT COUNT(*) AS n FROM seeks WHERE owner = ?");
    both!(store, p => {
        sqlx::query(&q).bind(owner).fetch_one(p).await.and_then(|r| r.try_get::<i64, _>("n")).map_err(db_err)
    })
}

/// How many entries were opened from `address` and are still open.
pub async fn count_from_address(store: &Store, address: &str) -> Result<i64, String> {
    let q = store.query_text("SELECT COUNT(*) AS n FROM seeks WHERE address = ?");
    both!(store, p => {
        sqlx::query(&q).bind(address).fetch_one(p).await.and_then(|r| r.try_get::<i64, _>("n")).map_err(db_err)
    })
}

/// Stamps entries `ids` as seen at `now` (their owners are connected).
pub async fn touch(store: &Store, ids: &[String], now: i64) -> Result<(), String> {
    match store {
        Store::Postgres(p) => sqlx::query("UPDATE seeks SET seen_at = $1 WHERE id = ANY($2)")
            .bind(now)
            .bind(ids)
            .execute(p)
            .await
            .map(|_| ())
            .map_err(db_err),
        Store::Sqlite(p) => {
            let list = serde_json::to_string(ids).unwrap_or_else(|_| "[]".into());
            sqlx::query("UPDATE seeks SET seen_at = ? WHERE id IN (SELECT value FROM json_each(?))")
                .bind(now)
                .bind(list)
                .execute(p)
                .await
                .map(|_| ())
                .map_err(db_err)
        }
    }
}

/// Deletes the live entries not seen since `before`; their ids.
pub async fn sweep_stale(store: &Store, before: i64) -> Result<Vec<String>, String> {
    let q = store
        .query_text("DELETE FROM seeks WHERE correspondence = FALSE AND seen_at < ? RETURNING id");
    both!(store, p => {
        let rows = sqlx::query(&q).bind(before).fetch_all(p).await.map_err(db_err)?;
        Ok(rows.iter().filter_map(|r| r.try_get::<String, _>("id").ok()).collect())
    })
}

/// Deletes `owner`'s live entries not seen since `before`; their ids.
pub async fn drop_live_of(store: &Store, owner: &str, before: i64) -> Result<Vec<String>, String> {
    let q = store.query_text(
        "DELETE FROM seeks WHERE owner = ? AND correspondence = FALSE AND seen_at < ? RETURNING id",
    );
    both!(store, p => {
        let rows = sqlx::query(&q).bind(owner).bind(before).fetch_all(p).await.map_err(db_err)?;
        Ok(rows.iter().filter_map(|r| r.try_get::<String, _>("id").ok()).collect())
    })
}

/// This process's heartbeat with who is online here: `people` (person keys, each counted once
/// over all the processes) and `strangers` (sockets without a person); `(online, playing)` of
/// all the processes alive (people with a lobby websocket; people with a seat in a game played
/// in the last ten minutes, each once).
pub async fn heartbeat(
    store: &Store,
    process: &str,
    people: &[String],
    strangers: i64,
    now: i64,
) -> Result<(i64, i64), String> {
    // `online` keeps the process's whole count, which a process of an older version reads.
    let beat = store.query_text(
        "INSERT INTO lobby_processes (id, online, beat_at, strangers, people) VALUES (?, ?, ?, ?, ?) \
         ON CONFLICT (id) DO UPDATE SET online = excluded.online, beat_at = excluded.beat_at, \
         strangers = excluded.strangers, people = excluded.people",
    );
    let old = store.query_text("DELETE FROM lobby_processes WHERE beat_at < ?");
    let alive = store
        .query_text("SELECT online, strangers, people FROM lobby_processes WHERE beat_at >= ?");
    let playing = store.query_text(
        "SELECT COUNT(DISTINCT COALESCE('a:' || so.account_id, 'n:' || so.anon_id)) AS n \
         FROM seat_owners so JOIN games g ON g.id = so.game_id \
         WHERE g.finished = FALSE AND g.updated_at >= ?",
    );
    let list = serde_json::to_string(people)
        .map_err(|e| format!("the online list cannot be written: {e}"))?;
    let online_here = people.len() as i64 + strangers;
    let rows: Vec<(i64, Option<i64>, Option<String>)> = both!(store, p => {
        sqlx::query(&beat).bind(process).bind(online_here).bind(now).bind(strangers).bind(&list)
            .execute(p).await.map_err(db_err)?;
        sqlx::query(&old).bind(now - 60_000).execute(p).await.map_err(db_err)?;
        let rows = sqlx::query(&alive).bind(now - 10_000).fetch_all(p).await.map_err(db_err)?;
        rows.iter().map(|r| Ok((r.try_get("online")?, r.try_get("strangers")?, r.try_get("people")?)))
            .collect::<Result<Vec<_>, sqlx::Error>>().map_err(db_err)
    })?;
    let playing: i64 = both!(store, p => {
        sqlx::query(&playing).bind(now - 600_000).fetch_one(p).await
            .and_then(|r| r.try_get("n")).map_err(db_err)
    })?;
    Ok((online_count(&rows), playing))
}

/// People online over the processes' rows `(online, strangers, people)`: a person on two
/// processes once, strangers summed; a row without a list (an older process) by its count.
fn online_count(rows: &[(i64, Option<i64>, Option<String>)]) -> i64 {
    let mut people = std::collections::HashSet::new();
    let mut others = 0;
    for (online, strangers, list) in rows {
        match list
            .as_deref()
            .and_then(|l| serde_json::from_str::<Vec<String>>(l).ok())
        {
            Some(keys) => {
                others += strangers.unwrap_or(0);
                people.extend(keys);
            }
            None => others += online,
        }
    }
    people.len() as i64 + others
}

/// The correspondence games in progress whose time ran out by `now`.
pub async fn due_games(store: &Store, now: i64) -> Result<Vec<String>, String> {
    let q = store.query_text(
        "SELECT id FROM games WHERE finished = FALSE AND deadline_at IS NOT NULL AND deadline_at <= ?",
    );
    both!(store, p => {
        let rows = sqlx::query(&q).bind(now).fetch_all(p).await.map_err(db_err)?;
        Ok(rows.iter().filter_map(|r| r.try_get::<String, _>("id").ok()).collect())
    })
}

// ----- challenges -----

/// Stores a new challenge.
pub async fn insert_challenge(store: &Store, c: &Challenge) -> Result<(), String> {
    let q = store.query_text(
        "INSERT INTO challenges (id, from_account, to_account, data, status, created_at, expires_at) VALUES (?, ?, ?, ?, 'pending', ?, ?)",
    );
    let data =
        serde_json::to_string(c).map_err(|e| format!("a challenge cannot be written: {e}"))?;
    both!(store, p => {
        sqlx::query(&q).bind(&c.id).bind(&c.from.account).bind(&c.to.account).bind(&data)
            .bind(c.created_at).bind(c.expires_at)
            .execute(p).await.map(|_| ()).map_err(db_err)
    })
}

/// A challenge and its status (`pending`, `accepted`, `declined`, `cancelled`, `expired`).
pub async fn challenge(store: &Store, id: &str) -> Result<Option<(Challenge, String)>, String> {
    let q = store.query_text("SELECT data, status FROM challenges WHERE id = ?");
    both!(store, p => {
        let row = sqlx::query(&q).bind(id).fetch_optional(p).await.map_err(db_err)?;
        Ok(row.and_then(|r| {
            let data: String = r.try_get("data").ok()?;
            let status: String = r.try_get("status").ok()?;
            Some((serde_json::from_str(&data).ok()?, status))
        }))
    })
}

/// Moves a pending challenge, not yet expired at `now`, to `status` (with `reason`); false
/// when it was not pending any more.
pub async fn settle(
    store: &Store,
    id: &str,
    status: &str,
    reason: Option<&str>,
    now: i64,
) -> Result<bool, String> {
    let q = store.query_text(
        "UPDATE challenges SET status = ?, reason = ? WHERE id = ? AND status = 'pending' AND expires_at > ?",
    );
    both!(store, p => {
        let n = sqlx::query(&q).bind(status).bind(reason).bind(id).bind(now)
            .execute(p).await.map_err(db_err)?.rows_affected();
        Ok(n == 1)
    })
}

/// Records the game an accepted challenge started.
pub async fn set_challenge_game(store: &Store, id: &str, game: &str) -> Result<(), String> {
    let q = store.query_text("UPDATE challenges SET game_id = ? WHERE id = ?");
    both!(store, p => {
        sqlx::query(&q).bind(game).bind(id).execute(p).await.map(|_| ()).map_err(db_err)
    })
}

/// The pending challenges to and from `account` at `now`.
pub async fn pending(store: &Store, account: &str, now: i64) -> Result<Vec<Challenge>, String> {
    let q = store.query_text(
        "SELECT data FROM challenges WHERE status = 'pending' AND expires_at > ? AND (to_account = ? OR from_account = ?) ORDER BY created_at",
    );
    both!(store, p => {
        let rows = sqlx::query(&q).bind(now).bind(account).bind(account).fetch_all(p).await.map_err(db_err)?;
        Ok(rows.iter().filter_map(|r| r.try_get::<String, _>("data").ok())
            .filter_map(|d| serde_json::from_str(&d).ok()).collect())
    })
}

/// Marks the pending challenges whose time is up at `now` as expired; those challenges.
pub async fn expire(store: &Store, now: i64) -> Result<Vec<Challenge>, String> {
    let q = store.query_text(
        "UPDATE challenges SET status = 'expired' WHERE status = 'pending' AND expires_at <= ? RETURNING data",
    );
    both!(store, p => {
        let rows = sqlx::query(&q).bind(now).fetch_all(p).await.map_err(db_err)?;
        Ok(rows.iter().filter_map(|r| r.try_get::<String, _>("data").ok())
            .filter_map(|d| serde_json::from_str(&d).ok()).collect())
    })
}

#[cfg(test)]
mod tests {
    use super::online_count;

    #[test]
    fn a_person_on_two_processes_counts_once() {
        let rows = [
            (2, Some(1), Some(r#"["a:x"]"#.to_string())),
            (3, Some(1), Some(r#"["a:x","n:y"]"#.to_string())),
            (4, None, None),
        ];
        // a:x once, n:y, two strangers, and the older process's 4
        assert_eq!(online_count(&rows), 8);
        assert_eq!(online_count(&[]), 0);
    }
}
