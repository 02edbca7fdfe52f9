//! Game records of a match as PGN (spec 7.3, the cuteataxx dialect with the project's tags).
//!
//! The one place the runner writes PGN; it moves onto the rules library's shared PGN writer
//! once that exists.

use std::fmt::Write;

use ataxx::{Color, Position};

use crate::game::Ending;
use crate::tournament::FinishedGame;

/// What a PGN record says besides the game itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnHeader<'a> {
    pub event: &'a str,
    pub site: &'a str,
    /// `YYYY.MM.DD`.
    pub date: &'a str,
}

/// The game as one PGN record, ending with a blank line.
pub fn game_pgn(game: &FinishedGame, names: &[String], header: &PgnHeader) -> String {
    let record = &game.record;
    let result = record.outcome.pgn();
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", header.event.to_string()),
        ("Site", header.site.to_string()),
        ("Date", header.date.to_string()),
        ("Round", game.round.to_string()),
        ("Black", names[game.x].clone()),
        ("White", names[game.o].clone()),
        ("Result", result.to_string()),
        ("FEN", record.start.to_string()),
    ];
    if record.start != Position::startpos() {
        tags.push(("SetUp", "1".to_string()));
    }
    tags.push(("FinalFEN", record.end.to_string()));
    tags.push(("PlyCount", record.moves.len().to_string()));
    if let Some(value) = record.ending.adjudicated_tag() {
        tags.push(("Adjudicated", value.to_string()));
    }
    if let Some(value) = record.ending.termination_tag() {
        tags.push(("Termination", value.to_string()));
    }
    let mut text = String::new();
    for (name, value) in tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(text, "[{name} \"{value}\"]");
    }
    text.push('\n');

    let mut tokens = Vec::new();
    let mut turn = record.start.turn();
    for (i, played) in record.moves.iter().enumerate() {
        let number = (i + usize::from(record.start.turn() == Color::O)) / 2 + 1;
        match turn {
            Color::X => tokens.push(format!("{number}.")),
            Color::O if i == 0 => tokens.push(format!("{number}...")),
            Color::O => {}
        }
        tokens.push(played.mv.to_string());
        turn = !turn;
    }
    if record.ending != Ending::Rules {
        tokens.push(format!(
            "{{ {} }}",
            record.ending.to_string().replace('}', ")")
        ));
    }
    tokens.push(result.to_string());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    text.push_str(&line);
    text.push_str("\n\n");
    text
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
