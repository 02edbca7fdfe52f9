//! A game's commands: the words after the game's name (`ataxx move ...`, `ataxx seek ...`).

use games::GameKind;

use super::words::{abbreviates, board_and_move, board_number, selection, usage, Options};
use super::{Command, ExportFormat, Selection};
use crate::domain::games::{Action, Answer, ChallengeOptions};
use crate::domain::seeks::{SeekColor, SeekRequest, MAX_SEEKS_PER_USER};
use crate::error::{Error, Result};

/// `<game> seek [-size=N] [-blocks=B] [-clock=M+S] [-color=x|o|random] [-unrated]
/// [-rating_min=R] [-rating_max=R] <userid> <password> <n>`.
fn parse_seek(
    game: GameKind,
    w: &[&str],
    options: &Options,
    framework: &Options,
) -> Result<Command> {
    let usage_text = format!(
        "{game} seek [-size=N] [-blocks=B] [-clock=M+S] [-color=x|o|random] [-unrated] \
         [-rating_min=R] [-rating_max=R] <userid> <password> <n> (n from 0 to {})",
        MAX_SEEKS_PER_USER
    );
    if w.len() != 4 {
        return Err(usage(&usage_text));
    }
    let count = w[3]
        .parse::<usize>()
        .ok()
        .filter(|n| *n <= MAX_SEEKS_PER_USER)
        .ok_or_else(|| usage(&usage_text))?;
    let mut request = SeekRequest {
        options: ChallengeOptions::new(game),
        rated: true,
        color: SeekColor::Random,
        rating_min: None,
        rating_max: None,
    };
    let rating = |name: &str, value: Option<&str>| -> Result<Option<i64>> {
        value
            .and_then(|v| v.parse::<i64>().ok())
            .map(Some)
            .ok_or_else(|| Error::Command(format!("-{name} needs a rating, e.g. -{name}=1400")))
    };
    for (name, value) in options.iter().chain(framework) {
        match name.as_str() {
            "unrated" => request.rated = false,
            "color" | "colour" => request.color = SeekColor::parse(value.as_deref().unwrap_or(""))?,
            "rating_min" => request.rating_min = rating(name, value.as_deref())?,
            "rating_max" => request.rating_max = rating(name, value.as_deref())?,
            _ => request.options.set(name, value.as_deref())?,
        }
    }
    Ok(Command::Seek {
        userid: w[1].to_string(),
        password: w[2].to_string(),
        count,
        request,
    })
}

/// A game's command (the words after the game's name).
pub(super) fn parse_game(
    game: GameKind,
    w: &[&str],
    options: Options,
    framework: Options,
) -> Result<Command> {
    let Some(word) = w.first() else {
        return Err(usage(&format!("{game} <command> ... (try: {game} help)")));
    };
    let word = word.to_ascii_lowercase();
    let s = |i: usize| w[i].to_string();
    if !abbreviates(&word, "challenge", 5) && word != "seek" {
        if let Some((name, _)) = options.first().or(framework.first()) {
            return Err(Error::Command(format!(
                "{game} {word} takes no option -{name}"
            )));
        }
    }
    Ok(match word.as_str() {
        "help" => Command::GameHelp { game },
        w0 if abbreviates(w0, "challenge", 5) => parse_challenge(game, w, &options, &framework)?,
        "move" | "board" | "mvoe" | "queue" | "qmove" | "qboard" | "moveq" | "boardq" => {
            parse_move(game, &word, w)?
        }
        "resign" => {
            if w.len() != 4 {
                return Err(usage(&format!("{game} resign <board> <userid> <password>")));
            }
            Command::Act {
                board: board_number(w[1])?,
                userid: s(2),
                password: s(3),
                action: Action::Resign,
                guard: None,
            }
        }
        "accept" | "reject" | "decline" | "withdraw" => parse_answer(game, &word, w)?,
        "limit" => {
            if w.len() != 4 {
                return Err(usage(&format!("{game} limit <userid> <password> <n>")));
            }
            Command::Limit {
                userid: s(1),
                password: s(2),
                limit: w[3]
                    .parse()
                    .ok()
                    .filter(|n| (0..=10_000).contains(n))
                    .ok_or_else(|| {
                        usage(&format!("{game} limit <userid> <password> <n> (n from 0)"))
                    })?,
            }
        }
        "seek" => parse_seek(game, w, &options, &framework)?,
        "chat" => {
            if w.len() < 4 {
                return Err(usage(&format!(
                    "{game} chat <board> <userid> <password> [<message>]"
                )));
            }
            Command::Chat {
                board: board_number(w[1])?,
                userid: s(2),
                password: s(3),
                message: w[4..].join(" "),
            }
        }
        "show" | "games" | "pgn" | "record" | "history" | "standings" | "ratings" => {
            parse_view(game, &word, w)?
        }
        w0 if abbreviates(w0, "subscribe", 3) || abbreviates(w0, "unsubscribe", 5) => {
            if w.len() != 4 {
                return Err(usage(&format!("{game} {word} <board> <userid> <password>")));
            }
            Command::Subscribe {
                board: board_number(w[1])?,
                userid: s(2),
                password: s(3),
                on: w0.starts_with("sub"),
            }
        }
        "analysis" | "analyse" | "analyze" => match w {
            [_, board] => Command::Analysis {
                board: board_number(board)?,
                userid: None,
                password: None,
            },
            [_, board, userid, password] => Command::Analysis {
                board: board_number(board)?,
                userid: Some(userid.to_string()),
                password: Some(password.to_string()),
            },
            _ => {
                return Err(usage(&format!(
                    "{game} analysis <board> [<userid> <password>]"
                )))
            }
        },
        w0 if abbreviates(w0, "preview", 4) => {
            if w.len() < 3 {
                return Err(usage(&format!("{game} preview <board> <move>...")));
            }
            Command::Preview {
                board: board_number(w[1])?,
                moves: w[2..].iter().map(|m| m.to_string()).collect(),
            }
        }
        _ => {
            return Err(Error::Command(format!(
                "unknown ataxx command {word:?}; commands: help, challenge, accept, decline, \
                 withdraw, reject, move, queue, resign, chat, subscribe, unsubscribe, show, games, \
                 history, standings, limit, preview, pgn, record, analysis"
            )))
        }
    })
}

/// `<game> challenge [-<option>=<value>...] <userid>...`.
fn parse_challenge(
    game: GameKind,
    w: &[&str],
    options: &Options,
    framework: &Options,
) -> Result<Command> {
    let mut opts = ChallengeOptions::new(game);
    let mut password = None;
    for (name, value) in options.iter().chain(framework.iter()) {
        match name.as_str() {
            "password" => password = value.clone(),
            _ => opts.set(name, value.as_deref())?,
        }
    }
    if w.len() < 3 {
        return Err(usage(&format!(
            "{game} challenge [-password=<the first player's password>] [-<option>=<value>...] <userid1> <userid2> [<userid3> <userid4>] [--nagtime=N] [--forfeittime=N] [--totaltime=N]",
        )));
    }
    Ok(Command::Challenge {
        options: opts,
        players: w[1..].iter().map(|p| p.to_string()).collect(),
        password,
    })
}

/// `move` and its spellings, and `queue` and its: `<board> <userid> <password> <move>[#N]`.
fn parse_move(game: GameKind, word: &str, w: &[&str]) -> Result<Command> {
    if w.len() != 5 {
        return Err(usage(&format!(
            "{game} {word} <board> <userid> <password> <move>[#N]"
        )));
    }
    let (text, guard) = match w[4].split_once('#') {
        Some((text, n)) => (
            text,
            Some(
                n.parse::<i64>()
                    .map_err(|_| Error::Command(format!("{:?}: #N needs a move number", w[4])))?,
            ),
        ),
        None => (w[4], None),
    };
    let board = board_number(w[1])?;
    let (userid, password) = (w[2].to_string(), w[3].to_string());
    Ok(match word {
        "move" | "board" | "mvoe" => Command::Act {
            board,
            userid,
            password,
            action: Action::parse(text),
            guard,
        },
        _ => Command::Queue {
            board,
            userid,
            password,
            text: text.to_string(),
            guard,
        },
    })
}

/// `accept|decline|withdraw <board> ...` (a challenge) and `accept|reject <userid> <password>`
/// (challenges at all), told apart by their arguments.
fn parse_answer(game: GameKind, word: &str, w: &[&str]) -> Result<Command> {
    let s = |i: usize| w[i].to_string();
    Ok(match word {
        _ if w.len() == 4 => Command::Answer {
            board: board_number(w[1])?,
            userid: s(2),
            password: s(3),
            answer: match word {
                "accept" => Answer::Accept,
                "withdraw" => Answer::Withdraw,
                _ => Answer::Decline,
            },
        },
        "accept" | "reject" if w.len() == 3 => Command::Policy {
            userid: s(1),
            password: s(2),
            accept: word == "accept",
        },
        _ => {
            return Err(usage(&format!(
                "{game} accept|decline|withdraw <board> <userid> <password>, or {game} accept|reject <userid> <password>",
            )))
        }
    })
}

/// The commands that only read: `show`, `games`, `pgn`, `record`, `history`, `standings`.
fn parse_view(game: GameKind, word: &str, w: &[&str]) -> Result<Command> {
    let user_filter = |args: &[&str]| -> (Vec<String>, Selection) {
        let mut users = vec![];
        let mut chosen = None;
        for arg in args {
            match selection(&arg.to_ascii_lowercase()) {
                Some(sel) => chosen = Some(sel),
                None => users.push(arg.to_ascii_lowercase()),
            }
        }
        (users, chosen.unwrap_or(Selection::Active))
    };
    Ok(match word {
        "show" => {
            let args = &w[1..];
            if args.is_empty() {
                return Err(usage(&format!("{game} show <board>[#N]... | {game} show <userid>... [all|active|inactive|next]")));
            }
            if args[0].starts_with(|c: char| c.is_ascii_digit()) {
                Command::ShowBoards {
                    boards: args
                        .iter()
                        .map(|a| board_and_move(a))
                        .collect::<Result<_>>()?,
                }
            } else {
                let (users, selection) = user_filter(args);
                Command::ShowUsers {
                    game,
                    users,
                    selection,
                }
            }
        }
        "games" => {
            let (users, selection) = user_filter(&w[1..]);
            Command::Games {
                game,
                users,
                selection,
            }
        }
        "pgn" | "record" => {
            if w.len() != 2 {
                return Err(usage(&format!("{game} {word} <board>")));
            }
            Command::Export {
                board: board_number(w[1])?,
                format: if word == "pgn" {
                    ExportFormat::Pgn
                } else {
                    ExportFormat::Record
                },
            }
        }
        "history" => Command::History { game },
        _ => Command::Standings { game },
    })
}
