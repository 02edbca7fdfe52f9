//! Running `tournament …` commands: one call into [`crate::domain::tournaments`] each, and the
//! tournament as text and JSON.

use serde_json::json;

use super::{Reply, Request, TournamentAct, TournamentCommand};
use crate::domain::tournaments::scores::Tiebreaks;
use crate::domain::tournaments::TournamentView;
use crate::error::Result;
use crate::model::TournamentKind;
use crate::App;

pub(super) async fn run(
    app: &App,
    request: &Request,
    command: &TournamentCommand,
) -> Result<Reply> {
    let accounts = app.accounts.for_peer(request.peer);
    let tournaments = &app.tournaments;
    Ok(match command {
        TournamentCommand::List => {
            let list = tournaments.list().await?;
            let mut text = String::new();
            for t in &list {
                text.push_str(&format!(
                    "{:>4}  {:<8} {:<8} {:<9} {} ({} players)\n",
                    t.id, t.kind, t.game, t.status, t.name, t.players
                ));
            }
            if list.is_empty() {
                text.push_str("No tournaments.\n");
            }
            Reply::ok("tournaments", text, json!({"tournaments": list}))
        }
        TournamentCommand::Show { id } => shown(tournaments.show(*id).await?, ""),
        TournamentCommand::Create {
            userid,
            password,
            new,
        } => {
            let user = accounts.verify(userid, password).await?;
            let view = tournaments.create(&user, new).await?;
            let said = format!("{user} created tournament {}.\n\n", view.id);
            shown(view, &said)
        }
        TournamentCommand::Act {
            id,
            userid,
            password,
            act,
        } => {
            let user = accounts.verify(userid, password).await?;
            let (view, done) = match act {
                TournamentAct::Join => (tournaments.join(*id, &user).await?, "joined"),
                TournamentAct::Withdraw => {
                    (tournaments.withdraw(*id, &user).await?, "withdrew from")
                }
                TournamentAct::Start => (tournaments.start(*id, &user).await?, "started"),
                TournamentAct::Stop => (tournaments.stop(*id, &user).await?, "stopped"),
            };
            shown(view, &format!("{user} {done} tournament {id}.\n\n"))
        }
    })
}

fn shown(view: TournamentView, said: &str) -> Reply {
    let subject = format!("tournament {} {}", view.id, view.name);
    let text = format!("{said}{}", text_of(&view));
    Reply::ok(subject, text, json!(view))
}

/// A tournament as the text door and mail show it: the standings, then each round's boards.
pub fn text_of(t: &TournamentView) -> String {
    let time = match (&t.clock, t.days) {
        (Some(clock), _) => format!("clock {clock}"),
        (None, Some(days)) => format!("{days} days a move"),
        (None, None) => String::new(),
    };
    let length = match (t.kind, t.total_rounds) {
        (TournamentKind::Arena, _) => format!("{} minutes", t.minutes),
        (TournamentKind::League, 0) => format!("cycle {}, with no end until stopped", t.round),
        (TournamentKind::League, cycles) => format!("cycle {} of {cycles}", t.round),
        (TournamentKind::Swiss, rounds) => format!("round {} of {rounds}", t.round),
    };
    let mut text = format!(
        "Tournament {}: {} ({} {}, {}, {}, {}), {}\n\nStandings:\n",
        t.id,
        t.name,
        t.kind,
        t.game,
        time,
        if t.rated { "rated" } else { "unrated" },
        length,
        t.status
    );
    for (place, s) in t.standings.iter().enumerate() {
        let tiebreaks = match s.tiebreaks {
            Tiebreaks::Swiss {
                buchholz,
                sonneborn_berger,
            } => format!("Buchholz {buchholz}, Sonneborn-Berger {sonneborn_berger}"),
            Tiebreaks::Arena { wins, fire } => {
                format!("{wins} wins{}", if fire { ", on a streak" } else { "" })
            }
        };
        text.push_str(&format!(
            "{:>3}. {:<20} {:>5}  ({} games; {tiebreaks})\n",
            place + 1,
            s.name,
            s.points,
            s.games
        ));
    }
    if t.standings.is_empty() {
        text.push_str("  nobody has joined yet\n");
    }
    if t.crosstable.iter().any(|line| !line.games.is_empty()) {
        text.push_str("\nCrosstable (opponent's place, side, result; + a bye, - not played):\n");
        for line in &t.crosstable {
            let games: Vec<String> = line.games.iter().map(|g| g.text()).collect();
            text.push_str(&format!(
                "{:>3}. {:<20} {}\n",
                line.place,
                line.name,
                games.join(" ")
            ));
        }
    }
    if !t.league.is_empty() {
        text.push_str("\nElo against the field (95%), game pairs [LL LD DD/WL WD WW]:\n");
    }
    for (place, line) in t.league.iter().enumerate() {
        // As `ataxx match` prints them: an engine that won (or lost) every game is +inf (-inf).
        let elo = match line.elo {
            Some(elo) => format!("{elo:+.1}"),
            None if line.score > 0.5 => "+inf".to_string(),
            None => "-inf".to_string(),
        };
        let error = line
            .error
            .map_or("inf".to_string(), |error| format!("{error:.1}"));
        let [ll, ld, dd, wd, ww] = line.pentanomial;
        text.push_str(&format!(
            "{:>3}. {:<20} Elo {elo} ± {error}  ({} games, {} points; [{ll} {ld} {dd} {wd} {ww}])\n",
            place + 1,
            line.name,
            line.games,
            line.points
        ));
    }
    for round in &t.rounds {
        text.push_str(&format!("\nRound {}:\n", round.round));
        for p in &round.pairings {
            let board = p.game.map(|g| format!("board {g}")).unwrap_or_default();
            text.push_str(&format!(
                "  {:>2}. {} (x) - {} (o)  {}  {board}\n",
                p.board, p.x, p.o, p.result
            ));
        }
        if let Some(bye) = &round.bye {
            text.push_str(&format!("  bye: {bye}\n"));
        }
    }
    text
}
