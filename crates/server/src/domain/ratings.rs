//! Ratings: Glicko-2 (the `skillratings` crate) per game, updated after every rated game, one
//! game per rating period as lichess does. New players start at Glicko-2's 1500 with deviation
//! 350; a rating is provisional, shown with `?`, while its player has fewer than 20 rated games
//! of that game (pbmserv's threshold, spec section 9).
//!
//! A game with more than two seats counts as the pairwise games between its players, each scored
//! by their ranks (higher rank wins, equal ranks draw), all in one rating period (variants.md
//! section 2.6): every player's new rating is computed from everyone's rating before the game.

use games::{Outcome, Seat};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use crate::error::Result;
use crate::model::{GameRow, RatingPoint, RatingRow};
use crate::store;

/// Games below which a rating is provisional.
pub const PROVISIONAL_GAMES: i64 = 20;

/// A new player's rating.
pub fn initial() -> Glicko2Rating {
    Glicko2Rating::new()
}

impl RatingRow {
    /// The rating of someone who has not played `game`.
    pub fn initial(name: &str, game: &str) -> RatingRow {
        let rating = initial();
        RatingRow {
            name: name.to_string(),
            game: game.to_string(),
            rating: rating.rating,
            deviation: rating.deviation,
            volatility: rating.volatility,
            wins: 0,
            losses: 0,
            draws: 0,
            last_game_ms: None,
        }
    }

    pub fn games_played(&self) -> i64 {
        self.wins + self.losses + self.draws
    }

    pub fn is_provisional(&self) -> bool {
        self.games_played() < PROVISIONAL_GAMES
    }

    /// The rating as shown: rounded, `?` when provisional.
    pub fn rating_text(&self) -> String {
        let mark = if self.is_provisional() { "?" } else { "" };
        format!("{:.0}{mark}", self.rating)
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn set_glicko(&mut self, rating: Glicko2Rating) {
        self.rating = rating.rating;
        self.deviation = rating.deviation;
        self.volatility = rating.volatility;
    }
}

/// New Glicko-2 ratings of every seat of a finished game, from the ratings before it: each seat
/// plays one rating period made of its pairwise games against every other seat.
pub fn rate(before: &[Glicko2Rating], outcome: &Outcome) -> Vec<Glicko2Rating> {
    let config = Glicko2Config::new();
    (0..before.len())
        .map(|me| {
            let results: Vec<(Glicko2Rating, Outcomes)> = (0..before.len())
                .filter(|&other| other != me)
                .map(|other| {
                    let score = outcome.pairwise(Seat(me as u8), Seat(other as u8));
                    (before[other], score_outcome(score))
                })
                .collect();
            glicko2_rating_period(&before[me], &results, &config)
        })
        .collect()
}

fn score_outcome(score: f64) -> Outcomes {
    if score > 0.75 {
        Outcomes::WIN
    } else if score < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    }
}

/// Updates every player of a finished game: records (pairwise wins, losses and draws), ratings
/// of the board's game if it is rated, history points; stores ranks and rating changes on the
/// game's seats.
pub async fn record_result(
    conn: &mut store::Conn,
    game: &mut GameRow,
    outcome: &Outcome,
    now_ms: i64,
) -> Result<()> {
    for seat in &game.seats {
        if store::user(conn, &seat.name).await?.is_none() {
            return Ok(());
        }
    }
    // Another board of the same players may finish at the same moment, on another node.
    let names: Vec<&str> = game.seats.iter().map(|s| s.name.as_str()).collect();
    store::lock_ratings(conn, &names, &game.game).await?;
    let mut rows = Vec::with_capacity(game.seats.len());
    for seat in &game.seats {
        rows.push(store::rating(conn, &seat.name, &game.game).await?);
    }
    for (i, seat) in game.seats.iter_mut().enumerate() {
        seat.rank = Some(i64::from(outcome.rank(Seat(i as u8))));
    }
    let n = rows.len();
    for (i, row) in rows.iter_mut().enumerate() {
        for j in (0..n).filter(|&j| j != i) {
            match score_outcome(outcome.pairwise(Seat(i as u8), Seat(j as u8))) {
                Outcomes::WIN => row.wins += 1,
                Outcomes::LOSS => row.losses += 1,
                Outcomes::DRAW => row.draws += 1,
            }
        }
    }
    if game.rated {
        let before: Vec<Glicko2Rating> = rows.iter().map(RatingRow::glicko).collect();
        let after = rate(&before, outcome);
        for ((row, seat), new) in rows.iter_mut().zip(game.seats.iter_mut()).zip(after) {
            seat.rating_change = Some(new.rating - row.rating);
            row.set_glicko(new);
        }
    }
    for row in &mut rows {
        row.last_game_ms = Some(now_ms);
        store::update_rating(conn, row).await?;
        if game.rated {
            let point = RatingPoint {
                board: game.board,
                game: game.game.clone(),
                at_ms: now_ms,
                rating: row.rating,
                deviation: row.deviation,
            };
            store::insert_rating_point(conn, &row.name, &point).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2;

    #[test]
    fn a_win_between_new_players_moves_both_ratings_symmetrically() {
        let after = rate(&[initial(), initial()], &Outcome::win(Seat(0), 2));
        // Glickman's example scale: two new players, one game, about +/-162.
        assert!(
            (after[0].rating - 1662.3).abs() < 1.0,
            "{}",
            after[0].rating
        );
        assert!(
            (after[1].rating - 1337.7).abs() < 1.0,
            "{}",
            after[1].rating
        );
        assert!(after[0].deviation < 350.0);
        // The same as the two-player update.
        let (x, o) = glicko2(
            &initial(),
            &initial(),
            &Outcomes::WIN,
            &Glicko2Config::new(),
        );
        assert!((after[0].rating - x.rating).abs() < 1e-9);
        assert!((after[1].rating - o.rating).abs() < 1e-9);
    }

    #[test]
    fn four_players_rate_as_six_pairwise_games_in_one_period() {
        let before = [
            initial(),
            Glicko2Rating {
                rating: 1700.0,
                deviation: 80.0,
                volatility: 0.06,
            },
            initial(),
            initial(),
        ];
        // Seat 2 first, seats 0 and 1 level, seat 3 last.
        let outcome = Outcome::from_scores(&[10, 10, 20, 0]);
        let after = rate(&before, &outcome);
        let config = Glicko2Config::new();
        let expected_0 = glicko2_rating_period(
            &before[0],
            &[
                (before[1], Outcomes::DRAW),
                (before[2], Outcomes::LOSS),
                (before[3], Outcomes::WIN),
            ],
            &config,
        );
        assert_eq!(after[0], expected_0);
        assert!(after[2].rating > before[2].rating);
        assert!(after[3].rating < before[3].rating);
        assert!(
            after[1].rating < before[1].rating,
            "a draw with a weaker player"
        );
    }
}
