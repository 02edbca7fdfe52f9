//! Open seeks and quick pairing: a game anyone may take. A seek names its game and board, a
//! clock (live) or none (correspondence), whether it is rated, the owner's colour and the
//! ratings of opponents welcome. Taking one starts the game at once with both players seated.
//!
//! Live seeks last while their owner has a page open (a lobby or user WebSocket, counted by
//! [`Seeks::present`]); correspondence seeks last until taken or withdrawn. Every change is
//! pushed to the lobby stream ([`crate::events::Hub::lobby`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use games::GameKind;
use serde::Serialize;
use serde_json::json;

use crate::domain::clock::Clock;
use crate::domain::games::{open_board, ChallengeOptions, Games};
use crate::domain::publish;
use crate::error::{Error, Result};
use crate::events::Publisher;
use crate::model::GameSummary;
use crate::store::seeks::{self as seek_store, SeekRow};
use crate::store::{self, Storage};

/// The most seeks one user may have open.
pub const MAX_SEEKS_PER_USER: usize = 10;

/// The pieces the owner of a seek asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeekColor {
    X,
    O,
    Random,
}

impl SeekColor {
    pub fn parse(text: &str) -> Result<SeekColor> {
        match text {
            "x" => Ok(SeekColor::X),
            "o" => Ok(SeekColor::O),
            "random" => Ok(SeekColor::Random),
            other => Err(Error::Command(format!(
                "color {other:?}: give x, o or random"
            ))),
        }
    }

    fn name(self) -> &'static str {
        match self {
            SeekColor::X => "x",
            SeekColor::O => "o",
            SeekColor::Random => "random",
        }
    }
}

/// What someone seeks: the game's options (game, size, blocks, clock) and the pairing terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekRequest {
    pub options: ChallengeOptions,
    pub rated: bool,
    pub color: SeekColor,
    pub rating_min: Option<i64>,
    pub rating_max: Option<i64>,
}

impl SeekRequest {
    /// Checks that the options set up a two-player board and that the rating range reads.
    fn validate(&self) -> Result<()> {
        let start = self.options.start()?;
        if start.seats() != 2 {
            return Err(Error::InvalidChallenge(format!(
                "seeks are for two-player games; challenge the players of {} by name",
                self.options.game
            )));
        }
        if let (Some(min), Some(max)) = (self.rating_min, self.rating_max) {
            if min > max {
                return Err(Error::Command(format!(
                    "rating_min {min} is above rating_max {max}"
                )));
            }
        }
        Ok(())
    }
}

/// A seek as every door shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Seek {
    pub id: i64,
    pub owner: String,
    /// The owner's rating in the seek's game, rounded, `?` when provisional.
    pub owner_rating: String,
    pub game: String,
    pub size: Option<i64>,
    pub blocks: String,
    /// `minutes+seconds` (`3+2`) for a live seek, None for correspondence.
    pub clock: Option<String>,
    /// `live` or `correspondence`.
    pub speed: &'static str,
    pub rated: bool,
    /// The owner's pieces: `x`, `o` or `random`.
    pub color: String,
    pub rating_min: Option<i64>,
    pub rating_max: Option<i64>,
    pub created_ms: i64,
}

/// `3+2` from milliseconds.
fn clock_text(base_ms: i64, increment_ms: i64) -> String {
    let minutes = base_ms as f64 / 60_000.0;
    format!("{minutes}+{}", increment_ms / 1000)
}

impl SeekRow {
    fn is_live(&self) -> bool {
        self.clock_base_ms.is_some()
    }

    /// The challenge options of the game this seek starts.
    fn options(&self) -> Result<ChallengeOptions> {
        let kind: GameKind = self
            .game
            .parse()
            .map_err(|_| Error::Command(format!("seek {} names no known game", self.id)))?;
        let mut options = ChallengeOptions::new(kind);
        if let Some(size) = self.size {
            options.set("size", Some(&size.to_string()))?;
        }
        options.set("blocks", Some(&self.blocks))?;
        options.clock = self.clock_base_ms.zip(self.clock_increment_ms);
        Ok(options)
    }

    fn view(&self, owner_rating: String) -> Seek {
        Seek {
            id: self.id,
            owner: self.owner.clone(),
            owner_rating,
            game: self.game.clone(),
            size: self.size,
            blocks: self.blocks.clone(),
            clock: self
                .clock_base_ms
                .zip(self.clock_increment_ms)
                .map(|(base, inc)| clock_text(base, inc)),
            speed: if self.is_live() {
                "live"
            } else {
                "correspondence"
            },
            rated: self.rated,
            color: self.color.clone(),
            rating_min: self.rating_min,
            rating_max: self.rating_max,
            created_ms: self.created_ms,
        }
    }

    /// Whether `request` asks for the same game as this seek, with colours that fit.
    fn matches(&self, request: &SeekRequest) -> bool {
        let options = &request.options;
        let colors_fit = !matches!(
            (self.color.as_str(), request.color),
            ("x", SeekColor::X) | ("o", SeekColor::O)
        );
        self.game == options.game.name()
            && self.size == options.start.size.map(i64::from)
            && self.blocks == options.blocks_text
            && self.clock_base_ms.zip(self.clock_increment_ms) == options.clock
            && self.rated == request.rated
            && colors_fit
    }

    fn welcomes(&self, rating: f64) -> bool {
        self.rating_min.is_none_or(|min| rating >= min as f64)
            && self.rating_max.is_none_or(|max| rating <= max as f64)
    }
}

/// What quick pairing did.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Paired {
    /// A matching seek was taken: the game started.
    Game(Box<GameSummary>),
    /// None matched: this seek was posted.
    Seek(Box<Seek>),
}

/// The seek service.
#[derive(Clone)]
pub struct Seeks {
    storage: Storage,
    games: Games,
    clock: Arc<Clock>,
    publisher: Publisher,
    /// Open pages (lobby and user WebSockets) per user.
    pages: Arc<Mutex<HashMap<String, usize>>>,
}

impl Seeks {
    pub fn new(storage: Storage, games: Games, clock: Arc<Clock>, publisher: Publisher) -> Seeks {
        Seeks {
            storage,
            games,
            clock,
            publisher,
            pages: Arc::default(),
        }
    }

    /// Sends a lobby message to this node's lobby pages, or to every node's on a shared database.
    async fn announce(&self, json: String) {
        publish::lobby(&self.publisher, &self.storage, json).await
    }

    async fn announce_added(&self, seek: &Seek) {
        self.announce(json!({"type": "seek_added", "seek": seek}).to_string())
            .await;
    }

    async fn announce_removed(&self, ids: &[i64]) {
        for id in ids {
            self.announce(json!({"type": "seek_removed", "id": id}).to_string())
                .await;
        }
    }

    async fn view(&self, conn: &mut store::Conn, row: &SeekRow) -> Result<Seek> {
        let rating = store::rating(conn, &row.owner, &row.game).await?;
        Ok(row.view(rating.rating_text()))
    }

    /// Every open seek, oldest first.
    pub async fn list(&self) -> Result<Vec<Seek>> {
        let mut conn = self.storage.read().await?;
        let rows = seek_store::seeks(&mut conn).await?;
        let mut seeks = Vec::with_capacity(rows.len());
        for row in &rows {
            seeks.push(self.view(&mut conn, row).await?);
        }
        Ok(seeks)
    }

    /// Posts a seek.
    pub async fn post(&self, owner: &str, request: &SeekRequest) -> Result<Seek> {
        request.validate()?;
        let mut tx = self.storage.write().await?;
        if seek_store::seeks_of(&mut tx, owner, false, None)
            .await?
            .len()
            >= MAX_SEEKS_PER_USER
        {
            return Err(Error::Command(format!(
                "{owner} has {MAX_SEEKS_PER_USER} open seeks already: withdraw one first"
            )));
        }
        let options = &request.options;
        let row = SeekRow {
            id: seek_store::next_seek(&mut tx).await?,
            owner: owner.to_string(),
            game: options.game.name().to_string(),
            size: options.start.size.map(i64::from),
            blocks: options.blocks_text.clone(),
            clock_base_ms: options.clock.map(|c| c.0),
            clock_increment_ms: options.clock.map(|c| c.1),
            rated: request.rated,
            color: request.color.name().to_string(),
            rating_min: request.rating_min,
            rating_max: request.rating_max,
            created_ms: self.clock.now_ms(),
        };
        seek_store::insert_seek(&mut tx, &row).await?;
        let seek = self.view(&mut tx, &row).await?;
        tx.commit().await?;
        tracing::info!(seek = row.id, %owner, game = %row.game, "seek posted");
        self.announce_added(&seek).await;
        Ok(seek)
    }

    /// Withdraws a seek of `user`'s.
    pub async fn withdraw(&self, id: i64, user: &str) -> Result<()> {
        let mut tx = self.storage.write().await?;
        let seek = seek_store::seek(&mut tx, id)
            .await?
            .ok_or(Error::UnknownSeek(id))?;
        if seek.owner != user {
            return Err(Error::NotYourSeek {
                id,
                user: user.to_string(),
            });
        }
        seek_store::delete_seek(&mut tx, id).await?;
        tx.commit().await?;
        self.announce_removed(&[id]).await;
        Ok(())
    }

    /// Withdraws every seek `user` has of a game (`seek ... 0` of the command language), or of
    /// every game (a banned or closed account).
    pub async fn withdraw_all(&self, user: &str, game: Option<GameKind>) -> Result<Vec<i64>> {
        let mut tx = self.storage.write().await?;
        let ids = seek_store::seeks_of(&mut tx, user, false, game.map(|g| g.name())).await?;
        for id in &ids {
            seek_store::delete_seek(&mut tx, *id).await?;
        }
        tx.commit().await?;
        self.announce_removed(&ids).await;
        Ok(ids)
    }

    /// Takes a seek: the game starts with both players seated, the seek is gone. Of several
    /// takers of one seek exactly one gets the game; the others are told it is gone.
    pub async fn accept(&self, id: i64, user: &str) -> Result<GameSummary> {
        let now = self.clock.now_ms();
        let mut tx = self.storage.write().await?;
        let seek = seek_store::seek(&mut tx, id)
            .await?
            .ok_or(Error::UnknownSeek(id))?;
        if seek.owner == user {
            return Err(Error::Command(format!(
                "seek {id} is your own: withdraw it instead"
            )));
        }
        let rating = store::rating(&mut tx, user, &seek.game).await?;
        if !seek.welcomes(rating.rating) {
            return Err(Error::Command(format!(
                "seek {id} asks for a rating from {} to {}; {user} has {}",
                seek.rating_min.map_or("any".into(), |r| r.to_string()),
                seek.rating_max.map_or("any".into(), |r| r.to_string()),
                rating.rating_text()
            )));
        }
        if !seek_store::delete_seek(&mut tx, id).await? {
            return Err(Error::UnknownSeek(id));
        }
        let owner_first = match seek.color.as_str() {
            "x" => true,
            "o" => false,
            _ => rand::random::<bool>(),
        };
        let players = match owner_first {
            true => [seek.owner.clone(), user.to_string()],
            false => [user.to_string(), seek.owner.clone()],
        };
        let accepted = [seek.owner.as_str(), user];
        let options = seek.options()?;
        let game = open_board(&mut tx, &players, &options, &accepted, seek.rated, now).await?;
        // Playing a live game now, neither player waits for another live opponent.
        let mut removed = vec![id];
        for player in &players {
            for other in seek_store::seeks_of(&mut tx, player, true, None).await? {
                seek_store::delete_seek(&mut tx, other).await?;
                removed.push(other);
            }
        }
        tracing::info!(seek = id, board = game.board, taker = %user, "seek taken");
        let summary = self.games.commit_new(tx, game).await?;
        self.announce_removed(&removed).await;
        Ok(summary)
    }

    /// Quick pairing: takes the oldest seek that matches `request` and welcomes `user`, or posts
    /// `request` as a seek when none does.
    pub async fn pair(&self, user: &str, request: &SeekRequest) -> Result<Paired> {
        request.validate()?;
        let candidates = {
            let mut conn = self.storage.read().await?;
            let mine = store::rating(&mut conn, user, request.options.game.name()).await?;
            let mut found = vec![];
            for row in seek_store::seeks(&mut conn).await? {
                if row.owner == user || !row.matches(request) || !row.welcomes(mine.rating) {
                    continue;
                }
                let theirs = store::rating(&mut conn, &row.owner, &row.game).await?;
                let min_ok = request.rating_min.is_none_or(|m| theirs.rating >= m as f64);
                let max_ok = request.rating_max.is_none_or(|m| theirs.rating <= m as f64);
                if min_ok && max_ok {
                    found.push(row.id);
                }
            }
            found
        };
        for id in candidates {
            match self.accept(id, user).await {
                Ok(game) => return Ok(Paired::Game(Box::new(game))),
                // Taken by someone else a moment ago: try the next.
                Err(Error::UnknownSeek(_)) => continue,
                Err(err) => return Err(err),
            }
        }
        Ok(Paired::Seek(Box::new(self.post(user, request).await?)))
    }

    /// Counts an open page of `user`'s until the returned guard drops; when their last page
    /// closes, their live seeks are withdrawn.
    pub fn present(&self, user: &str) -> Presence {
        *self
            .pages
            .lock()
            .expect("seek pages")
            .entry(user.to_string())
            .or_default() += 1;
        Presence {
            seeks: self.clone(),
            user: user.to_string(),
        }
    }

    async fn withdraw_live(&self, user: &str) -> Result<()> {
        let mut tx = self.storage.write().await?;
        // A page opened again in the meantime keeps the seeks.
        if self.pages.lock().expect("seek pages").contains_key(user) {
            return Ok(());
        }
        let ids = seek_store::seeks_of(&mut tx, user, true, None).await?;
        for id in &ids {
            seek_store::delete_seek(&mut tx, *id).await?;
        }
        tx.commit().await?;
        if !ids.is_empty() {
            tracing::info!(%user, seeks = ?ids, "live seeks withdrawn: last page closed");
        }
        self.announce_removed(&ids).await;
        Ok(())
    }

    /// Withdraws every live seek (at start, before any page can be open).
    pub async fn clear_live(&self) -> Result<()> {
        let mut tx = self.storage.write().await?;
        seek_store::delete_live_seeks(&mut tx).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// An open page of a user's (see [`Seeks::present`]).
pub struct Presence {
    seeks: Seeks,
    user: String,
}

impl Drop for Presence {
    fn drop(&mut self) {
        let mut pages = self.seeks.pages.lock().expect("seek pages");
        let Some(count) = pages.get_mut(&self.user) else {
            return;
        };
        *count -= 1;
        if *count > 0 {
            return;
        }
        pages.remove(&self.user);
        let seeks = self.seeks.clone();
        let user = std::mem::take(&mut self.user);
        tokio::spawn(async move {
            if let Err(err) = seeks.withdraw_live(&user).await {
                tracing::warn!(%err, %user, "withdrawing live seeks");
            }
        });
    }
}
