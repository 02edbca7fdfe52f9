//! Challenges: a new board between players, and their answers (accept, decline, withdraw).

use games::GameKind;

use super::{limits, require_status, seat_of, Answer, ChallengeOptions, Change, Games};
use crate::error::{Error, Result};
use crate::model::{EventKind, GameRow, GameSummary, SeatRow, Status};
use crate::store::{self, Mark, WriteTx};

impl Games {
    /// Starts a challenge between `players`, in seat order (the first moves first). `by`, when
    /// the request is authenticated as one of them, counts as that player's acceptance.
    pub async fn challenge(
        &self,
        players: &[String],
        options: &ChallengeOptions,
        by: Option<&str>,
    ) -> Result<GameSummary> {
        // Computer players accept at once: a board of bots alone would be a rated game nobody
        // asked for, taking the bots' time from the people waiting on them (issue #28, 7).
        let bots = crate::domain::accounts::BOT_PREFIX;
        if players
            .iter()
            .all(|p| p.to_ascii_lowercase().starts_with(bots))
        {
            return Err(Error::InvalidChallenge(
                "computer players do not challenge each other here: a challenge names a person \
                 (bots play each other with `ataxx match`)"
                    .into(),
            ));
        }
        let now = self.now_ms();
        let accepted: Vec<&str> = by.into_iter().collect();
        let mut tx = self.storage.write().await?;
        let game = open_board(&mut tx, players, options, &accepted, true, now).await?;
        self.commit_new(tx, game).await
    }

    /// Commits the transaction in which [`open_board`] wrote a board, and announces the board.
    pub(crate) async fn commit_new(&self, tx: WriteTx, game: GameRow) -> Result<GameSummary> {
        let kind = match game.status {
            Status::Active => EventKind::Started,
            _ => EventKind::Challenge,
        };
        self.commit(tx, vec![Change { kind, game }]).await
    }

    /// Commits the transaction in which [`open_board`] wrote several boards that start at once
    /// (a tournament's pairings), and announces them.
    pub(crate) async fn commit_new_boards(&self, tx: WriteTx, games: Vec<GameRow>) -> Result<()> {
        let kind = || EventKind::Started;
        let changes = games
            .into_iter()
            .map(|game| Change { kind: kind(), game })
            .collect();
        self.commit(tx, changes).await.map(drop)
    }

    /// Accepts, declines or withdraws a challenge.
    pub async fn answer(&self, board: i64, user: &str, answer: Answer) -> Result<GameSummary> {
        let now = self.now_ms();
        let (mut tx, mut game) = self.write_board(board).await?;
        let seat = seat_of(&game, board, user)?;
        require_status(&game, Status::Challenge)?;
        let kind = match answer {
            Answer::Accept => {
                if let (false, Some(row)) = (
                    game.seat_mut(seat).accepted,
                    store::user(&mut tx, user).await?,
                ) {
                    limits::check(&mut tx, &row).await?;
                }
                game.seat_mut(seat).accepted = true;
                if game.seats.iter().all(|s| s.accepted) {
                    game.status = Status::Active;
                    game.started_ms = Some(now);
                    game.last_move_ms = Some(now);
                    EventKind::Started
                } else {
                    EventKind::Challenge
                }
            }
            Answer::Decline => {
                game.status = Status::Declined;
                game.finished_ms = Some(now);
                EventKind::Cancelled
            }
            Answer::Withdraw => {
                if !game.seat_mut(seat).accepted {
                    return Err(Error::Command(format!(
                        "{user} has not accepted board {board}: decline it instead"
                    )));
                }
                game.status = Status::Withdrawn;
                game.finished_ms = Some(now);
                EventKind::Cancelled
            }
        };
        game.version += 1;
        store::update_game(&mut tx, &mut game).await?;
        self.commit(tx, vec![Change { kind, game }]).await
    }
}

/// Checks the players and writes a new board between them, in seat order. `accepted` names
/// who has accepted already: when that is everyone (a taken seek), the game starts at once and
/// nobody's refusal of challenges stands in the way. `rated` says whether the result counts.
pub(crate) async fn open_board(
    conn: &mut store::Conn,
    players: &[String],
    options: &ChallengeOptions,
    accepted: &[&str],
    rated: bool,
    now: i64,
) -> Result<GameRow> {
    let start = options.start()?;
    if players.len() != start.seats() {
        return Err(Error::InvalidChallenge(format!(
            "{} is played by {} players, not {}",
            options.game,
            start.seats(),
            players.len()
        )));
    }
    let mut names: Vec<String> = Vec::with_capacity(players.len());
    for player in players {
        let name = crate::domain::accounts::normalize_userid(player)?;
        if names.contains(&name) {
            return Err(Error::InvalidChallenge(format!(
                "{name} cannot play themself"
            )));
        }
        names.push(name);
    }
    // A user's blocks hold for challenges and seeks alike: no board with someone they blocked.
    for name in &names {
        let blocked = store::blocked_by(conn, name).await?;
        if let Some(other) = names.iter().find(|other| blocked.contains(other)) {
            return Err(Error::InvalidChallenge(format!(
                "{name} does not take challenges from {other}"
            )));
        }
    }
    let everyone_accepted = names.iter().all(|n| accepted.contains(&n.as_str()));
    // A game with a player an admin marked as a cheater does not count for ratings.
    let mut unrated_reason = String::new();
    let mut seats = Vec::with_capacity(names.len());
    for name in names {
        let user = store::user(conn, &name)
            .await?
            .ok_or_else(|| Error::InvalidChallenge(format!("no user {name:?}")))?;
        if crate::domain::accounts::is_closed(&user) {
            return Err(Error::InvalidChallenge(format!(
                "{name}'s account is closed"
            )));
        }
        if store::is_marked(conn, Mark::Banned, &name).await? {
            return Err(Error::InvalidChallenge(format!("{name} is banned")));
        }
        if rated
            && unrated_reason.is_empty()
            && store::is_marked(conn, Mark::Cheater, &name).await?
        {
            unrated_reason =
                format!("{name} is marked as a cheater: the game does not count for ratings");
        }
        refuse_a_level_that_does_not_play(&user, options.game)?;
        if user.refuses_challenges && !everyone_accepted {
            return Err(Error::InvalidChallenge(format!(
                "{name} refuses challenges"
            )));
        }
        limits::check(conn, &user).await?;
        let accepts = accepted.contains(&name.as_str());
        // Computer players answer by themselves and read no mail.
        if !accepts && user.bot_level.is_none() {
            limits::check_waiting(conn, &user).await?;
        }
        seats.push(SeatRow {
            accepted: accepts,
            name,
            remaining_ms: options.clock.map(|c| c.0),
            used_ms: 0,
            rank: None,
            rating_change: None,
        });
    }
    let fen = start.fen();
    let mut game = GameRow {
        board: store::next_board(conn).await?,
        game: options.game.name().to_string(),
        seats,
        stored_seats: vec![],
        status: if everyone_accepted {
            Status::Active
        } else {
            Status::Challenge
        },
        layout: options.blocks_text.clone(),
        start_fen: fen.clone(),
        fen,
        plies: 0,
        version: 1,
        result: "*".into(),
        termination: String::new(),
        rated: rated && unrated_reason.is_empty(),
        nag_days: options.nag_days,
        forfeit_days: options.forfeit_days,
        total_days: options.total_days,
        clock_base_ms: options.clock.map(|c| c.0),
        clock_increment_ms: options.clock.map(|c| c.1),
        proposal: String::new(),
        proposal_by: String::new(),
        nagged_ply: -1,
        created_ms: now,
        started_ms: everyone_accepted.then_some(now),
        last_move_ms: everyone_accepted.then_some(now),
        finished_ms: None,
        unrated_reason,
        queued_moves: Some(0),
    };
    store::insert_game(conn, &mut game).await?;
    let names: Vec<&str> = game.seats.iter().map(|s| s.name.as_str()).collect();
    tracing::info!(board = game.board, game = %game.game, players = %names.join(" "), status = %game.status, "new board");
    Ok(game)
}

/// A built-in level's bot would decline a game its level table lacks (`bot-master` in
/// Hexxagon, `bot-medium` in four-player Ataxx): the challenge is refused at once, naming the
/// levels that play the game. Engines played through `ataxx bot` answer for themselves.
fn refuse_a_level_that_does_not_play(user: &crate::model::UserRow, game: GameKind) -> Result<()> {
    let Some(level) = user.bot_level.as_deref() else {
        return Ok(());
    };
    if level == crate::domain::accounts::ENGINE_BOT || ataxx_players::plays(level, game) {
        return Ok(());
    }
    let bots: Vec<String> = ataxx_players::LEVELS
        .iter()
        .filter(|l| ataxx_players::plays(l.name, game))
        .map(crate::domain::accounts::bot_account_name)
        .collect();
    Err(Error::InvalidChallenge(format!(
        "{} does not play {game}; the levels that do: {}",
        user.name,
        bots.join(", ")
    )))
}
