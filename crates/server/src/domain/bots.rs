//! Computer players: one account per named level (`bot-very-easy` ... `bot-master`), each run
//! by its own task that listens to its account's events, accepts challenges and plays when it is
//! to move. Thinking runs on the blocking pool, off the request path; the `#N` guard makes a
//! move computed for a stale position fail harmlessly. Of several server nodes, only the leader's
//! bots play ([`Leader`]); a new leader's bots look over every open board first.

use ataxx_players::{choose_any, plays, Level, LEVELS};
use tokio::sync::broadcast::error::RecvError;

use crate::domain::accounts::Accounts;
use crate::domain::games::{Action, Answer, Games};
use crate::domain::leader::Leader;
use crate::error::Result;
use crate::events::Hub;
use crate::model::Status;
use crate::store::{self, Storage};

/// Creates the bot accounts and starts their tasks, which play while this node leads.
pub async fn start(
    accounts: &Accounts,
    games: &Games,
    storage: &Storage,
    hub: &Hub,
    leader: &Leader,
) -> Result<()> {
    for level in &LEVELS {
        let name = crate::domain::accounts::bot_account_name(level);
        accounts.ensure_bot(&name, level.name).await?;
        let events = hub.user(&name);
        let bot = Bot {
            name,
            level,
            games: games.clone(),
            storage: storage.clone(),
        };
        tokio::spawn(bot.run(events, leader.clone()));
    }
    Ok(())
}

struct Bot {
    name: String,
    level: &'static Level,
    games: Games,
    storage: Storage,
}

impl Bot {
    async fn run(
        self,
        mut events: tokio::sync::broadcast::Receiver<crate::model::Event>,
        mut leader: Leader,
    ) {
        while leader.until_leading().await {
            // Boards left waiting before a restart, or while another node led.
            self.rescan().await;
            loop {
                tokio::select! {
                    event = events.recv() => match event {
                        Ok(event) => self.attend(event.board).await,
                        Err(RecvError::Lagged(_)) => self.rescan().await,
                        Err(RecvError::Closed) => return,
                    },
                    _ = leader.until_following() => break,
                }
            }
        }
    }

    async fn rescan(&self) {
        let boards = match self.storage.read().await {
            Ok(mut conn) => store::open_boards(&mut conn).await.unwrap_or_default(),
            Err(_) => vec![],
        };
        for game in boards.iter().filter(|g| g.seat_of(&self.name).is_some()) {
            self.attend(game.board).await;
        }
    }

    /// Does what the board needs from this bot, if anything.
    async fn attend(&self, board: i64) {
        if let Err(err) = self.try_attend(board).await {
            tracing::debug!(bot = %self.name, board, %err, "bot action refused");
        }
    }

    async fn try_attend(&self, board: i64) -> Result<()> {
        let game = self.games.row(board).await?;
        let Some(seat) = game.seat_of(&self.name) else {
            return Ok(());
        };
        if game.status == Status::Challenge && !game.seats[seat.index()].accepted {
            // A level plays the games whose table names it (every level plays square Ataxx;
            // the other games have their own tables, docs/levels.md). Challenges to a level
            // that does not play the game are refused when made; one stored by an older
            // server is declined here.
            let answer = match plays(self.level.name, game.position().kind()) {
                true => Answer::Accept,
                false => Answer::Decline,
            };
            self.games.answer(board, &self.name, answer).await?;
            return Ok(());
        }
        if game.status != Status::Active {
            return Ok(());
        }
        // Proposals to a bot are refused when made (games/proposals.rs); one still pending from
        // an older server's database is declined here.
        if !game.proposal.is_empty() && !game.proposal_agreed().contains(&self.name.as_str()) {
            self.games
                .act(board, &self.name, &Action::Reject, None)
                .await?;
            return Ok(());
        }
        if game.position().turn() != seat {
            return Ok(());
        }
        let pos = game.position();
        let seed = (board as u64) << 16 ^ game.plies as u64;
        let level = self.level.name;
        let mv = tokio::task::spawn_blocking(move || choose_any(level, pos.as_ref(), seed).ok())
            .await
            .ok()
            .flatten();
        // The server plays forced passes itself.
        let Some(mv) = mv.filter(|mv| mv != "0000") else {
            return Ok(());
        };
        let action = Action::Play(mv.to_string());
        self.games
            .act(board, &self.name, &action, Some(game.plies + 1))
            .await?;
        Ok(())
    }
}
