//! `ataxx play --variant hexxagon|ataxx4`: a person against a level in any game, through
//! [`games::AnyPosition`] (square Ataxx keeps its own richer session in `play.rs`).

use std::io::{self, BufRead, Write};

use anyhow::{bail, Context};
use ataxx_players::choose_any;
use games::{AnyPosition, GameKind, StartOptions};

const HELP: &str = "\
commands:
  d4, c3b5      play a move in the game's notation
  hint          suggest a move (the game's hardest level)
  moves         list your legal moves
  resign        give up the game
  quit          leave";

/// Plays a person (seat `seat`, a seat letter; the first seat if `None`) against `level` in
/// `kind`, from `fen` or the start position.
pub fn run(
    kind: GameKind,
    level: &str,
    seat: Option<char>,
    fen: Option<&str>,
    blocks: Option<String>,
    seed: u64,
) -> anyhow::Result<()> {
    let mut pos: Box<dyn AnyPosition> = match fen {
        Some(fen) => kind
            .parse_position(fen)
            .with_context(|| format!("--fen {fen:?}"))?,
        None => kind.start(&StartOptions {
            blocks,
            ..Default::default()
        })?,
    };
    // Checks the level name before the game starts.
    if let Err(e @ ataxx_players::ChooseError::UnknownLevel { .. }) =
        choose_any(level, pos.as_ref(), seed)
    {
        bail!(e);
    }
    let letters: Vec<char> = (0..pos.seats())
        .map(|s| pos.seat_letter(games::Seat(s as u8)))
        .collect();
    let human = match seat {
        None => 0,
        Some(c) => letters
            .iter()
            .position(|&l| l == c.to_ascii_lowercase())
            .with_context(|| format!("no seat {c:?} in {kind}; seats: {letters:?}"))?,
    };
    println!(
        "{kind}: you play {} against {level} (every other seat). Type `help` for commands.",
        letters[human]
    );
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut ply = 0u64;
    let mut shown = None;
    loop {
        while pos.outcome().is_none() && pos.turn().index() != human {
            let mv = choose_any(level, pos.as_ref(), seed.wrapping_add(ply))?;
            let played = pos.play(&mv)?;
            println!("{} plays {}", letters[played.seat.index()], played.text);
            ply += 1;
        }
        if shown != Some(ply) {
            println!("{}", pos.diagram());
            shown = Some(ply);
        }
        if let Some(outcome) = pos.outcome() {
            let counts = pos.piece_counts();
            let ranks: Vec<String> = (0..pos.seats())
                .map(|s| {
                    format!(
                        "{} {} pieces, rank {}",
                        letters[s],
                        counts[s],
                        outcome.rank(games::Seat(s as u8))
                    )
                })
                .collect();
            println!("Game over: {}", ranks.join("; "));
            return Ok(());
        }
        let moves = pos.legal_moves();
        if moves == ["0000"] {
            println!("you must pass");
            pos.play("0000")?;
            ply += 1;
            continue;
        }
        print!("{} to move> ", letters[human]);
        io::stdout().flush()?;
        let Some(line) = lines.next() else {
            return Ok(());
        };
        let line = line?;
        match line.trim() {
            "" => {}
            "quit" | "exit" => return Ok(()),
            "help" | "?" => println!("{HELP}"),
            "moves" => println!("legal moves: {}", moves.join(" ")),
            "hint" => println!("hint: {}", choose_any("hard", pos.as_ref(), seed ^ 0x5eed)?),
            "resign" => {
                println!("You resign.");
                return Ok(());
            }
            text => match pos.play(text) {
                Ok(_) => ply += 1,
                Err(e) => println!("{e}"),
            },
        }
    }
}
