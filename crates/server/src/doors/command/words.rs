//! The words of a command line: options split off, board numbers, `#N` guards and the
//! abbreviations the command language accepts, shared by every command's parser.

use super::Selection;
use crate::error::{Error, Result};

/// The selection a listing word names.
pub(super) fn selection(word: &str) -> Option<Selection> {
    Some(match word {
        "all" => Selection::All,
        "active" => Selection::Active,
        "inactive" => Selection::Inactive,
        "next" => Selection::Next,
        "open" | "challenges" => Selection::Open,
        "recent" => Selection::Recent,
        _ => return None,
    })
}

/// The `-name[=value]` or `--name[=value]` options of a line, in order.
pub(super) type Options = Vec<(String, Option<String>)>;

/// The command words and options of a line.
pub(super) struct Words {
    pub(super) words: Vec<String>,
    /// `-name[=value]` game options, in order.
    pub(super) options: Options,
    /// `--name[=value]` framework options, in order.
    pub(super) framework: Options,
}

fn split_option(text: &str) -> (String, Option<String>) {
    match text.split_once('=') {
        Some((name, value)) => (name.to_ascii_lowercase(), Some(value.to_string())),
        None => (text.to_ascii_lowercase(), None),
    }
}

/// Splits a line into words, taking out options (`-x`, `--x`, with a letter after the dashes, so
/// that the move text `--` stays a word) and dropping a lone `**`.
pub(super) fn words(line: &str) -> Words {
    let mut out = Words {
        words: vec![],
        options: vec![],
        framework: vec![],
    };
    for (i, word) in line.split_whitespace().enumerate() {
        let starts_letter = |rest: &str| rest.starts_with(|c: char| c.is_ascii_alphabetic());
        if i > 0 && word.starts_with("--") && starts_letter(&word[2..]) {
            out.framework.push(split_option(&word[2..]));
        } else if i > 0 && word.starts_with('-') && starts_letter(&word[1..]) {
            out.options.push(split_option(&word[1..]));
        } else if word != "**" {
            out.words.push(word.to_string());
        }
    }
    out
}

/// Whether the line asks for a JSON reply (`--json`).
pub fn wants_json(line: &str) -> bool {
    words(line).framework.iter().any(|(name, _)| name == "json")
}

pub(super) fn usage(text: &str) -> Error {
    Error::Command(format!("usage: {text}"))
}

pub(super) fn board_number(word: &str) -> Result<i64> {
    word.parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| Error::Command(format!("{word:?} is not a board number")))
}

/// `101` or `101#5`.
pub(super) fn board_and_move(word: &str) -> Result<(i64, Option<usize>)> {
    match word.split_once('#') {
        Some((board, n)) => {
            let n = n
                .parse::<usize>()
                .map_err(|_| Error::Command(format!("{word:?}: #N needs a move number")))?;
            Ok((board_number(board)?, Some(n)))
        }
        None => Ok((board_number(word)?, None)),
    }
}

/// Abbreviations of spec section 3: a word stands for `full` if it is at least `min` letters of it.
pub(super) fn abbreviates(word: &str, full: &str, min: usize) -> bool {
    word.len() >= min && full.starts_with(word)
}
