//! Ratings: Glicko-2 (the `skillratings` crate), updated after every rated game, one game per
//! rating period as lichess does. New players start at Glicko-2's 1500 with deviation 350; a
//! rating is provisional, shown with `?`, while its player has fewer than 20 rated games
//! (pbmserv's threshold, spec section 9).

use ataxx::Color;
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;
use sqlx::AnyConnection;

use crate::error::Result;
use crate::storage::{self, GameRow, RatingPoint, UserRow};

/// Games below which a rating is provisional.
pub const PROVISIONAL_GAMES: i64 = 20;

/// A new player's rating.
pub fn initial() -> Glicko2Rating {
    Glicko2Rating::new()
}

impl UserRow {
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

/// Updates both players of a finished game (`winner` None = draw): records, ratings if the
/// game is rated, history points; stores the rating changes on the game row.
pub async fn record_result(
    conn: &mut AnyConnection,
    game: &mut GameRow,
    winner: Option<Color>,
    now_ms: i64,
) -> Result<()> {
    let (Some(mut x), Some(mut o)) = (
        storage::user(conn, &game.x_name).await?,
        storage::user(conn, &game.o_name).await?,
    ) else {
        return Ok(());
    };
    let outcome = match winner {
        Some(Color::X) => {
            x.wins += 1;
            o.losses += 1;
            Outcomes::WIN
        }
        Some(Color::O) => {
            x.losses += 1;
            o.wins += 1;
            Outcomes::LOSS
        }
        None => {
            x.draws += 1;
            o.draws += 1;
            Outcomes::DRAW
        }
    };
    if game.rated {
        let (new_x, new_o) = glicko2(&x.glicko(), &o.glicko(), &outcome, &Glicko2Config::new());
        game.x_rating_change = Some(new_x.rating - x.rating);
        game.o_rating_change = Some(new_o.rating - o.rating);
        x.set_glicko(new_x);
        o.set_glicko(new_o);
    }
    for user in [&mut x, &mut o] {
        user.last_game_ms = Some(now_ms);
        storage::update_rating(conn, user).await?;
        if game.rated {
            let point = RatingPoint {
                board: game.board,
                at_ms: now_ms,
                rating: user.rating,
                deviation: user.deviation,
            };
            storage::insert_rating_point(conn, &user.name, &point).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_between_new_players_moves_both_ratings_symmetrically() {
        let (winner, loser) = glicko2(
            &initial(),
            &initial(),
            &Outcomes::WIN,
            &Glicko2Config::new(),
        );
        // Glickman's example scale: two new players, one game, about +/-162.
        assert!((winner.rating - 1662.3).abs() < 1.0, "{}", winner.rating);
        assert!((loser.rating - 1337.7).abs() < 1.0, "{}", loser.rating);
        assert!(winner.deviation < 350.0);
    }
}
