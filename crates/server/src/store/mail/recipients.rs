//! The users' mail settings: their addresses (and new ones waiting for confirmation) and the
//! events that mail them.

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

/// Stores addresses waiting for the confirmation `token`.
pub async fn set_pending_addresses(
    conn: &mut AnyConnection,
    name: &str,
    addresses: &str,
    token: &str,
) -> Result<()> {
    sqlx::query("UPDATE users SET pending_addresses = $1, address_token = $2 WHERE name = $3")
        .bind(addresses)
        .bind(token)
        .bind(name)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// With the right token, makes the waiting addresses the user's and returns them.
pub async fn take_pending_addresses(
    conn: &mut AnyConnection,
    name: &str,
    token: &str,
) -> Result<Option<String>> {
    let row = sqlx::query("SELECT pending_addresses, address_token FROM users WHERE name = $1")
        .bind(name)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(row) = row else { return Ok(None) };
    let (pending, expected): (String, String) = (
        row.try_get("pending_addresses")?,
        row.try_get("address_token")?,
    );
    if expected.is_empty() || pending.is_empty() || expected != token {
        return Ok(None);
    }
    sqlx::query("UPDATE users SET addresses = $1, pending_addresses = '', address_token = '' WHERE name = $2")
        .bind(&pending)
        .bind(name)
        .execute(&mut *conn)
        .await?;
    Ok(Some(pending))
}
