//! `ataxx play`: a game against the computer in the terminal.
//!
//! Reads one command per line from standard input, so it can also be driven by a script.

use std::io::{self, BufRead, Write};

use anyhow::Context;
use ataxx::{pgn, Bitboard, Color, Game, GameResult, Move, Position, Square, Termination};
use ataxx_players::Player;
use clap::Args as ClapArgs;

use crate::commands::blocks::read_layout;
use crate::opponent::opponent;

#[derive(ClapArgs)]
pub struct Args {
    /// Difficulty level of the computer (see `ataxx levels`); default easy.
    #[arg(long)]
    level: Option<String>,
    /// A classic player instead of a level, e.g. `alphabeta:depth=3,moves=reduced`.
    #[arg(long)]
    player: Option<String>,
    /// Your side: x moves first.
    #[arg(long, default_value = "x", value_parser = ["x", "o"])]
    color: String,
    /// Blocked layout: a Blocks-Config code (`6bch`) or wall mask (`0x0F00`).
    #[arg(long, conflicts_with = "fen")]
    blocks: Option<String>,
    /// Start from this position instead.
    #[arg(long)]
    fen: Option<String>,
    /// Continue a game saved as PGN.
    #[arg(long, conflicts_with_all = ["fen", "blocks"])]
    load: Option<String>,
    /// Seed for the computer's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The game: ataxx (default), hexxagon or ataxx4 (see `ataxx levels --variant V`).
    #[arg(long, default_value = "ataxx")]
    variant: games::GameKind,
    /// Your seat's letter in a variant (`x`/`o` in hexxagon, `r`/`b`/`g`/`y` in ataxx4);
    /// the first seat by default.
    #[arg(long)]
    seat: Option<char>,
}

const HELP: &str = "\
commands:
  d4, c3b5      play a move (single: destination; jump: from and to; C3-B5 and b2b3 work too)
  hint          suggest a move
  moves         list your legal moves
  undo          take back your last move (and the computer's reply)
  save FILE     save the game as PGN
  load FILE     continue a game saved as PGN
  resign        give up the game
  quit          leave";

struct Session {
    game: Game,
    human: Color,
    computer: Box<dyn Player>,
    helper: Box<dyn Player>,
    name: String,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.variant != games::GameKind::Ataxx {
        if args.player.is_some() || args.load.is_some() {
            anyhow::bail!("--player and --load are for square Ataxx; variants take --level");
        }
        return super::play_variant::run(
            args.variant,
            args.level.as_deref().unwrap_or("easy"),
            args.seat,
            args.fen.as_deref(),
            args.blocks,
            args.seed,
        );
    }
    let (name, computer) = opponent(
        args.level.as_deref(),
        args.player.as_deref(),
        "easy",
        args.seed,
    )?;
    let (_, helper) = opponent(Some("very-hard"), None, "very-hard", args.seed ^ 0x5eed)?;
    let human = Color::from_char(args.color.chars().next().expect("x or o")).expect("x or o");
    let game = match (&args.load, &args.blocks, &args.fen) {
        (Some(file), _, _) => load(file)?,
        (None, Some(code), _) => Game::new(read_layout(code)?.start_position()),
        (None, None, Some(fen)) => {
            Game::new(fen.parse().with_context(|| format!("--fen {fen:?}"))?)
        }
        (None, None, None) => Game::new(Position::startpos()),
    };
    let mut session = Session {
        game,
        human,
        computer,
        helper,
        name,
    };
    session.name_players();
    println!(
        "You play {human} against {}. Type `help` for commands.",
        session.name
    );
    println!("On the board: [x] last move, (x) pieces it flipped, ' : ' the cell a jump left, # blocked.");
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut changed = true;
    loop {
        if changed {
            session.computer_moves();
            session.show();
            if session.finished() {
                println!(
                    "Game over: {}. `undo`, `save FILE` or `quit`.",
                    session.describe_result()
                );
            }
        }
        let before = (session.game.moves().len(), session.game.result());
        let mut loaded = false;
        print!("> ");
        io::stdout().flush()?;
        let Some(line) = lines.next() else {
            return Ok(());
        };
        let line = line?;
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (None, _) => {}
            (Some("quit" | "exit"), _) => return Ok(()),
            (Some("help" | "?"), _) => println!("{HELP}"),
            (Some("moves"), _) => {
                let moves: Vec<String> = session
                    .position()
                    .legal_moves()
                    .iter()
                    .map(Move::to_string)
                    .collect();
                println!("legal moves: {}", moves.join(" "));
            }
            (Some("hint"), _) => match session.helper.choose(&session.position()) {
                Some(mv) => println!("hint: {mv}"),
                None => println!("the game is over"),
            },
            (Some("undo"), _) => session.undo(),
            (Some("resign"), _) if !session.finished() => {
                session.game.set_result(GameResult::Win(!human));
                session.game.set_termination(Some(Termination::Resignation));
            }
            (Some("save"), Some(file)) => match std::fs::write(file, session.game.to_pgn()) {
                Ok(()) => println!("saved to {file}"),
                Err(e) => println!("cannot save to {file}: {e}"),
            },
            (Some("load"), Some(file)) => match load(file) {
                Ok(game) => {
                    session.game = game;
                    loaded = true;
                    session.name_players();
                    println!("loaded {file}");
                }
                Err(e) => println!("cannot load {file}: {e:#}"),
            },
            (Some("save" | "load"), None) => println!("give a file name, e.g. `save game.pgn`"),
            (Some(text), _) => session.human_moves(text),
        }
        changed = loaded || before != (session.game.moves().len(), session.game.result());
    }
}

fn load(file: &str) -> anyhow::Result<Game> {
    let text = std::fs::read_to_string(file).with_context(|| format!("reading {file}"))?;
    let mut games = pgn::parse_games(&text).with_context(|| format!("reading {file}"))?;
    games.pop().with_context(|| format!("{file} holds no game"))
}

impl Session {
    fn position(&self) -> Position {
        self.game.final_position()
    }

    fn finished(&self) -> bool {
        self.game.result() != GameResult::Unfinished || self.position().is_game_over()
    }

    fn name_players(&mut self) {
        let (x, o) = if self.human == Color::X {
            ("you", self.name.as_str())
        } else {
            (self.name.as_str(), "you")
        };
        self.game.set_tag("Black", x);
        self.game.set_tag("White", o);
        self.game.set_tag("Event", "ataxx play");
    }

    fn describe_result(&self) -> String {
        let result = match self.game.result() {
            GameResult::Unfinished => GameResult::from(self.position().outcome()),
            r => r,
        };
        match result.winner() {
            Some(c) if c == self.human => format!("you win ({result})"),
            Some(_) => format!("{} wins ({result})", self.name),
            None => format!("draw ({result})"),
        }
    }

    /// The computer plays while it is its turn, and forced passes are played for either side.
    fn computer_moves(&mut self) {
        while !self.finished() {
            let pos = self.position();
            let mv = if pos.must_pass() {
                let who = if pos.turn() == self.human {
                    "you"
                } else {
                    "the computer"
                };
                println!("{} cannot move and must pass.", who);
                Move::Pass
            } else if pos.turn() != self.human {
                self.computer
                    .choose(&pos)
                    .expect("a move while the game goes on")
            } else {
                return;
            };
            self.game.push(mv).expect("players choose legal moves");
            if pos.turn() != self.human && mv != Move::Pass {
                println!("computer plays {mv}");
            }
        }
        if let Some(outcome) = self.position().outcome() {
            if self.game.result() == GameResult::Unfinished {
                self.game.set_result(outcome.into());
            }
        }
    }

    fn human_moves(&mut self, text: &str) {
        if self.finished() {
            println!("the game is over; `undo`, `save FILE` or `quit`");
            return;
        }
        match self.position().parse_move(text) {
            Ok(mv) => {
                self.game.push(mv).expect("checked legal");
            }
            Err(e) => println!("{e}. Type `moves` for your legal moves or `help`."),
        }
    }

    /// Takes back moves up to and including the human's last one.
    fn undo(&mut self) {
        let moves: Vec<Move> = self.game.moves().iter().map(|m| m.mv()).collect();
        let start = self.game.start();
        let Some(last_human) = (0..moves.len()).rev().find(|&i| {
            let mut pos = start;
            moves[..i].iter().for_each(|&m| pos.play_unchecked(m));
            pos.turn() == self.human && moves[i] != Move::Pass
        }) else {
            println!("nothing of yours to take back");
            return;
        };
        let tags: Vec<(String, String)> = self.game.tags().to_vec();
        let mut game = Game::new(start);
        for (name, value) in tags {
            game.set_tag(name, value);
        }
        for &mv in &moves[..last_human] {
            game.push(mv).expect("replaying legal moves");
        }
        self.game = game;
        println!("took back {}", moves[last_human]);
    }

    /// The board with the last move marked: `[x]` its destination, `(x)` pieces it flipped,
    /// ` : ` the cell a jump left.
    fn show(&self) {
        let pos = self.position();
        let last = self.game.moves().last();
        let (dest, flipped, origin) = match last {
            Some(m) => (
                m.mv().to().map_or(Bitboard::EMPTY, Bitboard::from_square),
                m.flipped(),
                m.mv().from().map_or(Bitboard::EMPTY, Bitboard::from_square),
            ),
            None => (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY),
        };
        println!();
        for rank in (0..pos.size()).rev() {
            let mut line = format!("{} ", rank + 1);
            for file in 0..pos.size() {
                let sq = Square::new(file, rank).expect("on the board");
                let c = match pos.piece_at(sq) {
                    Some(Ok(color)) => color.char(),
                    Some(Err(())) => '#',
                    None => '.',
                };
                let cell = if dest.contains(sq) {
                    format!("[{c}]")
                } else if flipped.contains(sq) {
                    format!("({c})")
                } else if origin.contains(sq) {
                    " : ".to_string()
                } else {
                    format!(" {c} ")
                };
                line.push_str(&cell);
            }
            println!("{line}");
        }
        let files: String = (0..pos.size())
            .map(|f| format!(" {} ", (b'a' + f) as char))
            .collect();
        println!("  {files}");
        let (x, o) = (pos.pieces(Color::X).count(), pos.pieces(Color::O).count());
        let last_text = last.map_or(String::new(), |m| {
            format!("   last move {} flipped {}", m.mv(), m.flip_count())
        });
        println!("x {x}  o {o}{last_text}");
        if !self.finished() {
            let whose = if pos.turn() == self.human {
                "your move"
            } else {
                "computer to move"
            };
            println!("{} ({})", whose, pos.turn());
        }
    }
}
