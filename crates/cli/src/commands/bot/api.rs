//! The server's HTTP API as the bot uses it (docs/bots.md).

use anyhow::{bail, Context};
use serde_json::{json, Value};

/// How the bot signs in: an API token (`bot:play`), or a password.
pub enum Credentials<'a> {
    Token(&'a str),
    Password { user: &'a str, password: &'a str },
}

/// A signed-in connection to a server.
#[derive(Clone)]
pub struct Api {
    base: String,
    pub token: String,
    pub user: String,
    agent: ureq::Agent,
}

fn call(
    agent: &ureq::Agent,
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> anyhow::Result<(u16, Value)> {
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut response = match method {
        "GET" => {
            let mut req = agent.get(url);
            if let Some(auth) = &auth {
                req = req.header("Authorization", auth);
            }
            req.call()
        }
        _ => {
            let mut req = agent.post(url).header("Content-Type", "application/json");
            if let Some(auth) = &auth {
                req = req.header("Authorization", auth);
            }
            req.send(body.unwrap_or(json!({})).to_string())
        }
    }
    .with_context(|| format!("cannot reach {url}"))?;
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string()?;
    Ok((
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    ))
}

/// The message of an API error body.
fn message(body: &Value) -> String {
    body["error"]["message"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| body.to_string())
}

impl Api {
    /// Signs in (or checks the token) and marks the account as a bot.
    pub fn sign_in(
        agent: ureq::Agent,
        server: &str,
        credentials: Credentials,
    ) -> anyhow::Result<Api> {
        let base = server.trim_end_matches('/').to_string();
        let api = match credentials {
            Credentials::Password { user, password } => {
                let (status, body) = call(
                    &agent,
                    "POST",
                    &format!("{base}/api/login"),
                    None,
                    Some(json!({"userid": user, "password": password})),
                )?;
                if status != 200 {
                    bail!("signing in as {user}: {}", message(&body));
                }
                Api {
                    token: body["token"].as_str().unwrap_or_default().to_string(),
                    user: body["userid"].as_str().unwrap_or(user).to_string(),
                    base,
                    agent,
                }
            }
            Credentials::Token(token) => {
                let mut api = Api {
                    token: token.to_string(),
                    user: String::new(),
                    base,
                    agent,
                };
                let (status, me) = api.get("/api/me")?;
                if status != 200 {
                    bail!("signing in with the token: {}", message(&me));
                }
                api.user = me["userid"].as_str().unwrap_or_default().to_string();
                api
            }
        };
        let (status, body) = api.post("/api/bot/upgrade", None)?;
        if status != 200 {
            bail!("making {} a bot account: {}", api.user, message(&body));
        }
        Ok(api)
    }

    pub fn get(&self, path: &str) -> anyhow::Result<(u16, Value)> {
        call(
            &self.agent,
            "GET",
            &format!("{}{path}", self.base),
            Some(&self.token),
            None,
        )
    }

    pub fn post(&self, path: &str, body: Option<Value>) -> anyhow::Result<(u16, Value)> {
        call(
            &self.agent,
            "POST",
            &format!("{}{path}", self.base),
            Some(&self.token),
            body,
        )
    }

    /// A POST that must succeed; refusals come back as errors with the server's words.
    pub fn act(&self, path: &str, body: Option<Value>) -> anyhow::Result<Value> {
        let (status, reply) = self.post(path, body)?;
        if !(200..300).contains(&status) {
            bail!("{path}: {}", message(&reply));
        }
        Ok(reply)
    }

    /// Joins tournament `id` (an engine league), unless the bot plays in it already: a bot
    /// started again keeps its place.
    pub fn join_tournament(&self, id: i64) -> anyhow::Result<()> {
        let (status, tournament) = self.get(&format!("/api/tournaments/{id}"))?;
        if status != 200 {
            bail!("tournament {id}: {}", message(&tournament));
        }
        let playing = tournament["players"].as_array().is_some_and(|players| {
            players
                .iter()
                .any(|p| p["name"] == self.user.as_str() && p["withdrawn"] == false)
        });
        if !playing {
            self.act(&format!("/api/tournaments/{id}/join"), None)
                .with_context(|| format!("joining tournament {id}"))?;
        }
        Ok(())
    }

    /// The user WebSocket's address (`ws://…/api/ws?token=…`).
    pub fn socket_url(&self) -> String {
        let ws = self
            .base
            .replacen("https://", "wss://", 1)
            .replacen("http://", "ws://", 1);
        format!("{ws}/api/ws?token={}", self.token)
    }

    /// The bot's boards waiting for it or in play.
    pub fn open_boards(&self) -> anyhow::Result<Vec<Value>> {
        let (status, body) = self.get(&format!(
            "/api/games?player={}&status=challenge,active",
            self.user
        ))?;
        if status != 200 {
            bail!("listing games: {}", message(&body));
        }
        Ok(body.as_array().cloned().unwrap_or_default())
    }
}
