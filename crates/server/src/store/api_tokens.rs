//! Personal API tokens, stored as hashes of their secrets, with their scopes as
//! space-separated words.

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};

use crate::error::Result;
use crate::model::{ApiTokenRow, Scope};

fn scopes_text(scopes: &[Scope]) -> String {
    let words: Vec<&str> = scopes.iter().map(|scope| scope.as_str()).collect();
    words.join(" ")
}

fn scopes_of(text: &str) -> Vec<Scope> {
    text.split_whitespace()
        .filter_map(|word| word.parse().ok())
        .collect()
}

fn token_row(row: &AnyRow) -> Result<ApiTokenRow> {
    let scopes: String = row.try_get("scopes")?;
    Ok(ApiTokenRow {
        id: row.try_get("id")?,
        label: row.try_get("label")?,
        scopes: scopes_of(&scopes),
        created_ms: row.try_get("created_ms")?,
    })
}

pub async fn insert_api_token(
    conn: &mut AnyConnection,
    token: &ApiTokenRow,
    token_hash: &str,
    name: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO api_tokens (id, token_hash, name, label, scopes, created_ms) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&token.id)
    .bind(token_hash)
    .bind(name)
    .bind(&token.label)
    .bind(scopes_text(&token.scopes))
    .bind(token.created_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// `name`'s tokens, oldest first.
pub async fn api_tokens_of(conn: &mut AnyConnection, name: &str) -> Result<Vec<ApiTokenRow>> {
    let rows = sqlx::query(
        "SELECT id, label, scopes, created_ms FROM api_tokens WHERE name = $1 \
         ORDER BY created_ms, id",
    )
    .bind(name)
    .fetch_all(conn)
    .await?;
    rows.iter().map(token_row).collect()
}

/// The owner and scopes of the token whose secret hashes to `token_hash`.
pub async fn api_token_user(
    conn: &mut AnyConnection,
    token_hash: &str,
) -> Result<Option<(String, Vec<Scope>)>> {
    let row = sqlx::query("SELECT name, scopes FROM api_tokens WHERE token_hash = $1")
        .bind(token_hash)
        .fetch_optional(conn)
        .await?;
    row.map(|row| -> Result<_> {
        let scopes: String = row.try_get("scopes")?;
        Ok((row.try_get("name")?, scopes_of(&scopes)))
    })
    .transpose()
}

/// Deletes `name`'s token `id`; returns its secret's hash, or None when `name` has no such token.
pub async fn delete_api_token(
    conn: &mut AnyConnection,
    name: &str,
    id: &str,
) -> Result<Option<String>> {
    let row = sqlx::query("SELECT token_hash FROM api_tokens WHERE name = $1 AND id = $2")
        .bind(name)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    sqlx::query("DELETE FROM api_tokens WHERE name = $1 AND id = $2")
        .bind(name)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(Some(row.try_get("token_hash")?))
}

pub async fn delete_api_tokens_of(conn: &mut AnyConnection, name: &str) -> Result<()> {
    sqlx::query("DELETE FROM api_tokens WHERE name = $1")
        .bind(name)
        .execute(conn)
        .await?;
    Ok(())
}
