//! Board mails (spec section 7) from what changed on each board since its last mail: a board's
//! cursor (`mail_boards`) holds the version, move count, status, nag mark and last comment
//! mailed. Whatever door changed a board (mail, text, HTTP, a bot, the sweeper), the next round
//! finds it, and the mails and the new cursor are written in one transaction.

use crate::doors::render::board;
use crate::error::Result;
use crate::model::GameView;
use crate::model::Status;
use crate::App;

use super::Mail;
use crate::domain::messages::BoardMail;
use crate::domain::outbox::Outgoing;
use crate::model::BoardCursor;

/// One mail to the board's people: who gets it, and which account setting lets them refuse it.
struct Notice {
    mail: Outgoing,
    /// The event name of the account setting (`challenge`, `move`, `chat`, `nag`, `end`).
    event: &'static str,
    recipients: Vec<String>,
}

/// Composes the mails of every changed board; returns how many mails were queued.
pub async fn compose(app: &App, mail: &Mail) -> Result<usize> {
    let changed = app.messages.changed_boards().await?;
    let mut queued = 0;
    for (board, cursor) in changed {
        let view = app.games.view(board).await?;
        let nagged_ply = app.messages.nagged_ply(board).await?;
        let now = app.games.now_ms();
        let notice = notice(&view, cursor.as_ref(), nagged_ply, now);
        let next = BoardCursor {
            version: view.summary.version,
            plies: view.summary.ply,
            status: view.summary.status,
            nagged_ply,
            chat_seq: view.chat.last().map_or(0, |c| c.seq),
        };
        let notice = notice.map(|mut notice| {
            notice.mail.refs = mail.outbox.board_thread(board);
            notice.mail.in_reply_to = notice.mail.refs.clone();
            notice
        });
        let board_mail = notice.as_ref().map(|notice| BoardMail {
            mail: &notice.mail,
            event: notice.event,
            recipients: &notice.recipients,
        });
        let sender = mail.outbox.sender(now);
        queued += app
            .messages
            .board_mailed(&sender, board, board_mail, &next)
            .await?;
    }
    Ok(queued)
}

/// The mail a board's change calls for, if any.
fn notice(
    view: &GameView,
    cursor: Option<&BoardCursor>,
    nagged_ply: i64,
    now_ms: i64,
) -> Option<Notice> {
    let board = Changed::new(view, cursor, now_ms);
    let game = &board.view.summary;
    let status = game.status;
    let Some(cursor) = cursor else {
        return Some(match status {
            Status::Challenge => board.board_mail("challenge", board.seats.clone()),
            Status::Finished => board.board_mail("end", board.everyone.clone()),
            _ => board.board_mail("move", board.everyone.clone()),
        });
    };
    if status != cursor.status {
        return Some(board.status_changed());
    }
    if game.ply != cursor.plies
        || (status == Status::Active && game.proposal.is_some() && board.view.chat.is_empty())
    {
        return Some(board.board_mail("move", board.everyone.clone()));
    }
    if nagged_ply == game.ply && cursor.nagged_ply != nagged_ply && status == Status::Active {
        return board.nag();
    }
    board.chatted()
}

/// A changed board as its mails tell it: the comments made since its last mail (a board mail
/// carries those, not the game's every comment), its seats, and everyone who follows it.
struct Changed {
    view: GameView,
    seats: Vec<String>,
    everyone: Vec<String>,
    /// The moves the last mail told of.
    mailed_plies: i64,
    now_ms: i64,
}

impl Changed {
    fn new(view: &GameView, cursor: Option<&BoardCursor>, now_ms: i64) -> Changed {
        let seats: Vec<String> = view.summary.seats.iter().map(|s| s.name.clone()).collect();
        let mut everyone = seats.clone();
        for subscriber in &view.subscribers {
            if !everyone.contains(subscriber) {
                everyone.push(subscriber.clone());
            }
        }
        let last_chat = cursor.map_or(0, |c| c.chat_seq);
        let view = GameView {
            chat: view
                .chat
                .iter()
                .filter(|c| c.seq > last_chat)
                .cloned()
                .collect(),
            ..view.clone()
        };
        Changed {
            view,
            seats,
            everyone,
            mailed_plies: cursor.map_or(0, |c| c.plies),
            now_ms,
        }
    }

    /// The board mail of `event`: the board, the moves since the last mail, `**` when commented.
    fn board_mail(&self, event: &'static str, recipients: Vec<String>) -> Notice {
        let commented = if self.view.chat.is_empty() { "" } else { " **" };
        Notice {
            mail: Outgoing {
                kind: event.to_string(),
                subject: format!("{}{commented}", board::subject(&self.view.summary)),
                body: format!(
                    "{}{}",
                    moves_made(&self.view, self.mailed_plies),
                    board::mail(&self.view, None, self.now_ms)
                ),
                ..Default::default()
            },
            event,
            recipients,
        }
    }

    /// The mail of a new status: the game's end, its start, or what became of the challenge.
    fn status_changed(&self) -> Notice {
        let game = &self.view.summary;
        match game.status {
            Status::Finished => self.board_mail("end", self.everyone.clone()),
            Status::Active => self.board_mail("move", self.everyone.clone()),
            other => Notice {
                mail: Outgoing {
                    kind: "challenge".into(),
                    subject: format!("{} Board {} {other}", game.game, game.board),
                    body: format!(
                        "The challenge on {} board {} was {other}.\n\n{}",
                        game.game,
                        game.board,
                        board::mail(&self.view, None, self.now_ms)
                    ),
                    ..Default::default()
                },
                event: "challenge",
                recipients: self.seats.clone(),
            },
        }
    }

    /// The nag of the player to move.
    fn nag(&self) -> Option<Notice> {
        let game = &self.view.summary;
        let user = game.to_move.clone()?;
        Some(Notice {
            mail: Outgoing {
                kind: "nag".into(),
                subject: format!("Nag: {} Board {} {user}", game.game, game.board),
                body: format!(
                    "{user}, board {} has waited for your move since {}.\n\n{}",
                    game.board,
                    board::timestamp(
                        game.last_move_ms
                            .or(game.started_ms)
                            .unwrap_or(game.created_ms)
                    ),
                    board::mail(&self.view, None, self.now_ms)
                ),
                ..Default::default()
            },
            event: "nag",
            recipients: vec![user],
        })
    }

    /// The comments made since the last mail, if any, above the board.
    fn chatted(&self) -> Option<Notice> {
        let game = &self.view.summary;
        let first = self.view.chat.first()?;
        let mut body = String::new();
        for chat in &self.view.chat {
            body.push_str(&format!("{} writes:\n{}\n\n", chat.name, chat.body));
        }
        // The comments are above: the board below them without a second copy.
        let board_only = GameView {
            chat: vec![],
            ..self.view.clone()
        };
        body.push_str(&board::mail(&board_only, None, self.now_ms));
        Some(Notice {
            mail: Outgoing {
                kind: "chat".into(),
                subject: format!("{} chat {} {}", game.game, game.board, first.name),
                body,
                ..Default::default()
            },
            event: "chat",
            recipients: self.everyone.clone(),
        })
    }
}

/// Names the moves made since the last board mail when there were several (moves a second
/// apart, a bot answering at once), so that none goes unmentioned; empty otherwise.
fn moves_made(view: &GameView, mailed_plies: i64) -> String {
    let new: Vec<String> = view
        .moves
        .iter()
        .filter(|m| m.ply > mailed_plies)
        .map(|m| {
            let who = view
                .summary
                .seats
                .get(usize::from(m.seat))
                .map_or("?", |s| s.name.as_str());
            let text = if m.mv == "0000" { "--" } else { m.mv.as_str() };
            format!("{}. {text} by {who}", m.ply)
        })
        .collect();
    match new.len() {
        0 | 1 => String::new(),
        n => format!("{n} moves since the last mail: {}.\n\n", new.join(", ")),
    }
}
