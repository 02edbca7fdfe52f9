//! The users' mail settings: their addresses (and the ones asked for, each waiting for its own
//! token) and the events that mail them.

use sqlx::{AnyConnection, Row};

use crate::error::Result;

/// A user's mail addresses and the events that mail them; None for an unknown user.
pub async fn mail_settings(
    conn: &mut AnyConnection,
    name: &str,
) -> Result<Option<(Vec<String>, Vec<String>)>> {
    let row = sqlx::query("SELECT addresses, mail_events FROM users WHERE name = $1")
        .bind(name)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(match row {
        Some(row) => {
            let words = |col: &str| -> Result<Vec<String>> {
                let text: String = row.try_get(col)?;
                Ok(text.split_whitespace().map(String::from).collect())
            };
            Some((words("addresses")?, words("mail_events")?))
        }
        None => None,
    })
}

/// Every account's addresses that take `event` (broadcasts).
pub async fn all_recipients(
    conn: &mut AnyConnection,
    event: &str,
) -> Result<Vec<(String, Vec<String>)>> {
    let rows = sqlx::query("SELECT name, addresses, mail_events FROM users ORDER BY name")
        .fetch_all(&mut *conn)
        .await?;
    let mut out = vec![];
    for row in rows {
        let events: String = row.try_get("mail_events")?;
        let addresses: String = row.try_get("addresses")?;
        if events.split_whitespace().any(|e| e == event) && !addresses.trim().is_empty() {
            out.push((
                row.try_get("name")?,
                addresses.split_whitespace().map(String::from).collect(),
            ));
        }
    }
    Ok(out)
}

/// Sets the events that mail `name` (words, space-separated).
pub async fn set_mail_events(conn: &mut AnyConnection, name: &str, events: &str) -> Result<()> {
    sqlx::query("UPDATE users SET mail_events = $1 WHERE name = $2")
        .bind(events)
        .bind(name)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Which user's addresses a message's From is (the first match), if any.
pub async fn user_by_address(conn: &mut AnyConnection, address: &str) -> Result<Option<String>> {
    let rows = sqlx::query("SELECT name, addresses FROM users WHERE addresses LIKE $1")
        .bind(format!("%{address}%"))
        .fetch_all(&mut *conn)
        .await?;
    for row in rows {
        let addresses: String = row.try_get("addresses")?;
        if addresses
            .split_whitespace()
            .any(|a| a.eq_ignore_ascii_case(address))
        {
            return Ok(Some(row.try_get("name")?));
        }
    }
    Ok(None)
}

/// Replaces `name`'s address request by `requested`: each address with the SHA-256 of the token
/// mailed to it alone, or an empty digest for one the account already has.
pub async fn replace_address_request(
    conn: &mut AnyConnection,
    name: &str,
    requested: &[(String, String)],
    now_ms: i64,
) -> Result<()> {
    sqlx::query("DELETE FROM address_requests WHERE name = $1")
        .bind(name)
        .execute(&mut *conn)
        .await?;
    for (address, token_hash) in requested {
        sqlx::query(
            "INSERT INTO address_requests (name, address, token_hash, requested_ms) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(name)
        .bind(address)
        .bind(token_hash)
        .bind(now_ms)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The address of `name`'s request that waits for the token with this digest (asked for at or
/// after `since_ms`), now marked confirmed; None when no address waits for it.
pub async fn confirm_requested_address(
    conn: &mut AnyConnection,
    name: &str,
    token_hash: &str,
    since_ms: i64,
) -> Result<Option<String>> {
    let address: Option<String> = sqlx::query_scalar(
        "SELECT address FROM address_requests \
         WHERE name = $1 AND token_hash = $2 AND token_hash <> '' AND requested_ms >= $3",
    )
    .bind(name)
    .bind(token_hash)
    .bind(since_ms)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(address) = &address {
        sqlx::query("UPDATE address_requests SET token_hash = '' WHERE name = $1 AND address = $2")
            .bind(name)
            .bind(address)
            .execute(&mut *conn)
            .await?;
    }
    Ok(address)
}

/// Every address of `name`'s latest request, confirmed or not.
pub async fn requested_addresses(conn: &mut AnyConnection, name: &str) -> Result<Vec<String>> {
    Ok(
        sqlx::query_scalar("SELECT address FROM address_requests WHERE name = $1")
            .bind(name)
            .fetch_all(&mut *conn)
            .await?,
    )
}
