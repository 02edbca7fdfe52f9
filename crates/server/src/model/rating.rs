//! Ratings: a player's rating and record in one game, and its history.

/// A user's rating and record in one game.
#[derive(Clone, Debug)]
pub struct RatingRow {
    pub name: String,
    /// The game's name ([`games::GameKind::name`]).
    pub game: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
    pub last_game_ms: Option<i64>,
}

/// One point of a user's rating history.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RatingPoint {
    pub board: i64,
    /// The game's name.
    pub game: String,
    pub at_ms: i64,
    pub rating: f64,
    pub deviation: f64,
}
