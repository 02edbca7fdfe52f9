//! Players as the API shows them: an account with its rating in one game and in every game, its
//! rating history, the standings as profiles, and the computer players the lobby offers.

use std::collections::BTreeMap;

use games::GameKind;
use serde::Serialize;

use crate::domain::standings::Standings;
use crate::error::{Error, Result};
use crate::model::{RatingPoint, RatingRow, UserRow};
use crate::store::{self, Storage};

/// A rating and record in one game.
#[derive(Clone, Debug, Serialize)]
pub struct RatingView {
    pub rating: f64,
    pub deviation: f64,
    pub provisional: bool,
    /// Rounded, `?` when provisional.
    pub rating_text: String,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

impl From<&RatingRow> for RatingView {
    fn from(rating: &RatingRow) -> RatingView {
        RatingView {
            rating: rating.rating,
            deviation: rating.deviation,
            provisional: rating.is_provisional(),
            rating_text: rating.rating_text(),
            wins: rating.wins,
            losses: rating.losses,
            draws: rating.draws,
        }
    }
}

/// A user with their rating in `game` at the top level and every game's rating in `ratings`.
#[derive(Clone, Debug, Serialize)]
pub struct Profile {
    pub userid: String,
    pub game: String,
    #[serde(flatten)]
    pub rating: RatingView,
    /// Per game name.
    pub ratings: BTreeMap<String, RatingView>,
    /// The bot label: a built-in level's name or `uai`; None for people.
    pub bot: Option<String>,
    pub accepts_challenges: bool,
    pub game_limit: Option<i64>,
}

/// A user's own page: their profile in Ataxx and how their ratings went.
#[derive(Clone, Debug, Serialize)]
pub struct UserProfile {
    #[serde(flatten)]
    pub profile: Profile,
    pub rating_history: Vec<RatingPoint>,
    /// When their vacation ends (their page says so to opponents); None when not away.
    pub away_until_ms: Option<i64>,
}

/// A computer player the lobby offers.
#[derive(Clone, Debug, Serialize)]
pub struct BotProfile {
    #[serde(flatten)]
    pub profile: Profile,
    /// The built-in level, or the engine account's name.
    pub level: String,
    pub description: String,
    /// Played through `ataxx bot` by its author rather than built in.
    pub engine: bool,
    /// The games a built-in level plays; None for engines, which are offered in every game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games: Option<Vec<String>>,
    /// How a built-in level plays each of its games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub descriptions: Option<BTreeMap<String, String>>,
}

async fn profile(conn: &mut store::Conn, user: &UserRow, game: &str) -> Result<Profile> {
    let rating = RatingView::from(&store::rating(conn, &user.name, game).await?);
    let ratings = store::ratings_of_user(conn, &user.name)
        .await?
        .iter()
        .map(|r| (r.game.clone(), RatingView::from(r)))
        .collect();
    Ok(Profile {
        userid: user.name.clone(),
        game: game.to_string(),
        rating,
        ratings,
        bot: user.bot_level.clone(),
        accepts_challenges: !user.refuses_challenges,
        game_limit: user.game_limit,
    })
}

/// Gives a bot's `ratings` an entry for every game it is offered in, the initial rating where it
/// has not played that game yet: the lobby's level menu shows the rating in the chosen game.
async fn rate_in_every(conn: &mut store::Conn, bot: &mut Profile, games: &[String]) -> Result<()> {
    for game in games {
        if !bot.ratings.contains_key(game) {
            let rating = store::rating(conn, &bot.userid, game).await?;
            bot.ratings.insert(game.clone(), RatingView::from(&rating));
        }
    }
    Ok(())
}

/// Players as the API shows them, over one database.
#[derive(Clone)]
pub struct Profiles {
    storage: Storage,
    standings: Standings,
}

impl Profiles {
    pub fn new(storage: Storage, standings: Standings) -> Profiles {
        Profiles { storage, standings }
    }

    /// A user's profile (`/api/users/{name}`, `/api/me`).
    pub async fn user(&self, name: &str) -> Result<UserProfile> {
        let mut conn = self.storage.read().await?;
        let user = store::user(&mut conn, name)
            .await?
            .ok_or_else(|| Error::UnknownUser(name.to_string()))?;
        let rating_history = store::rating_history(&mut conn, name).await?;
        let profile = profile(&mut conn, &user, GameKind::Ataxx.name()).await?;
        let away = store::vacation(&mut conn, name).await?;
        Ok(UserProfile {
            profile,
            rating_history,
            away_until_ms: away.map(|vacation| vacation.until_ms),
        })
    }

    /// The profiles of everyone in a game's standings, in rating order.
    pub async fn standings(&self, game: GameKind) -> Result<Vec<Profile>> {
        let standings = self.standings.standings(game.name()).await?;
        let mut conn = self.storage.read().await?;
        let mut out = vec![];
        for user in standings.iter().filter_map(|s| s.user.as_ref()) {
            out.push(profile(&mut conn, user, game.name()).await?);
        }
        Ok(out)
    }

    /// The computer players: the built-in levels, then the engines their authors put on the server
    /// with `ataxx bot`.
    pub async fn bots(&self) -> Result<Vec<BotProfile>> {
        let mut conn = self.storage.read().await?;
        let mut out = vec![];
        for level in &ataxx_players::LEVELS {
            let name = crate::domain::accounts::bot_account_name(level);
            let Some(user) = store::user(&mut conn, &name).await? else {
                continue;
            };
            // A level plays the games whose table names it, each its own way: the lobby offers
            // it for those only, describing how it plays the chosen one.
            let descriptions: BTreeMap<String, String> = GameKind::ALL
                .into_iter()
                .filter_map(|kind| {
                    ataxx_players::description(level.name, kind)
                        .map(|text| (kind.name().to_string(), text.to_string()))
                })
                .collect();
            let games: Vec<String> = GameKind::ALL
                .into_iter()
                .map(|kind| kind.name().to_string())
                .filter(|game| descriptions.contains_key(game))
                .collect();
            let mut profile = profile(&mut conn, &user, GameKind::Ataxx.name()).await?;
            rate_in_every(&mut conn, &mut profile, &games).await?;
            out.push(BotProfile {
                profile,
                level: level.name.to_string(),
                description: level.description.to_string(),
                engine: false,
                games: Some(games),
                descriptions: Some(descriptions),
            });
        }
        for user in crate::domain::accounts::engine_bots(&mut conn).await? {
            let games: Vec<String> = GameKind::ALL.map(|g| g.name().to_string()).to_vec();
            let mut profile = profile(&mut conn, &user, GameKind::Ataxx.name()).await?;
            rate_in_every(&mut conn, &mut profile, &games).await?;
            out.push(BotProfile {
                profile,
                level: user.name.clone(),
                description: "An engine played through `ataxx bot` (UAI) by its author.".into(),
                engine: true,
                games: None,
                descriptions: None,
            });
        }
        Ok(out)
    }
}
