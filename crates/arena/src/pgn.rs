//! Match games as records of the rules library ([`ataxx::Game`]), whose PGN writer gives the
//! project dialect (spec 7.3): cuteataxx's tags and `{ movetime N }` comments.

use ataxx::{Adjudication, Game, GameResult, Termination};

use crate::game::Ending;
use crate::tournament::FinishedGame;

/// What a record says besides the game itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnHeader<'a> {
    pub event: &'a str,
    pub site: &'a str,
    /// `YYYY.MM.DD`.
    pub date: &'a str,
}

/// The game as a record: players, moves with their thinking times, result, and how it ended
/// (`Adjudicated` or `Termination`, plus a `Reason` tag spelling out an engine's fault).
pub fn game_record(game: &FinishedGame, names: &[String], header: &PgnHeader) -> Game {
    let record = &game.record;
    let mut out = Game::new(record.start);
    out.set_tag("Event", header.event);
    out.set_tag("Site", header.site);
    out.set_tag("Date", header.date);
    out.set_tag("Round", game.round.to_string());
    out.set_tag("Black", names[game.x].as_str());
    out.set_tag("White", names[game.o].as_str());
    for played in &record.moves {
        out.push(played.mv)
            .expect("the runner plays only legal moves")
            .movetime_ms = Some(played.time.as_millis() as u64);
    }
    out.set_result(GameResult::from(record.outcome));
    out.set_termination(termination(&record.ending));
    if record.ending.offender().is_some() {
        out.set_tag("Reason", record.ending.to_string());
    }
    out
}

/// The tag for an ending the rules did not decide: a time forfeit is PGN's `Termination`,
/// everything else cuteataxx's `Adjudicated`.
fn termination(ending: &Ending) -> Option<Termination> {
    let adjudicated = |a| Some(Termination::Adjudicated(a));
    match ending {
        Ending::Rules => None,
        Ending::Material => adjudicated(Adjudication::MaterialImbalance),
        Ending::MaxLength => adjudicated(Adjudication::MaxGameLength),
        Ending::IllegalMove { .. } => adjudicated(Adjudication::IllegalMove),
        Ending::TimeForfeit { .. } => Some(Termination::TimeForfeit),
        Ending::Crash { .. } | Ending::Hang { .. } => adjudicated(Adjudication::Crash),
    }
}

/// Today's date (UTC) as `YYYY.MM.DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_date((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Gregorian (year, month, day) of a day count since 1970-01-01, by splitting time into
/// 400-year eras of 146,097 days that start on 1 March (so the leap day ends a year).
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(19_782), (2024, 2, 29));
        assert_eq!(civil_date(20_454), (2026, 1, 1));
    }
}
