//! `ataxx replay`: read a game record (PGN or the 1995 two-column record), check it, and print
//! its moves with flip counts, the final FEN and a diagram, or convert it to the other format.

use std::path::PathBuf;

use anyhow::{bail, Context};
use ataxx::{pgn, record, Color, DiagramStyle, Game};
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// The record: PGN (one or more games) or a two-column numbered record as in the 1995 article.
    file: PathBuf,
    /// Draw pieces with these two letters, first player first (`OX` draws x as O, as the 1995
    /// article does; empty cells are then `-`, blocked ones `#`). Default: FEN letters x, o, `.`, `-`.
    #[arg(long, value_name = "XY", value_parser = parse_labels)]
    labels: Option<DiagramStyle>,
    /// Print the game(s) as project PGN instead.
    #[arg(long, conflicts_with = "record")]
    pgn: bool,
    /// Print the game(s) as two-column records (with the final diagram) instead.
    #[arg(long)]
    record: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let path = args.file.display();
    let text = std::fs::read_to_string(&args.file).with_context(|| format!("reading {path}"))?;
    let games = if looks_like_pgn(&text) {
        pgn::parse_games(&text).with_context(|| format!("{path} (read as PGN)"))?
    } else {
        vec![record::parse_record(&text)
            .with_context(|| format!("{path} (read as a two-column record)"))?]
    };
    if games.is_empty() {
        bail!("{path}: no game found");
    }
    let style = args.labels.unwrap_or_default();
    for (index, game) in games.iter().enumerate() {
        if index > 0 {
            println!();
        }
        if args.pgn {
            print!("{}", game.to_pgn());
        } else if args.record {
            print!("{}", game.to_record(Some(style)));
        } else {
            if games.len() > 1 {
                println!("Game {}\n", index + 1);
            }
            print!("{}", summary(game, style));
        }
    }
    Ok(())
}

/// PGN has tag pairs or `1.`-style move numbers; the two-column record has neither.
fn looks_like_pgn(text: &str) -> bool {
    text.lines().any(|line| line.trim_start().starts_with('['))
        || text.split_whitespace().any(|word| {
            let digits = word.bytes().take_while(u8::is_ascii_digit).count();
            digits > 0 && word[digits..].starts_with('.')
        })
}

/// The moves with flip counts, then the facts of the final position and its diagram.
fn summary(game: &Game, style: DiagramStyle) -> String {
    let end = game.final_position();
    let moves = game.moves();
    let jumps = moves.iter().filter(|m| m.mv().is_jump()).count();
    let passes = moves.iter().filter(|m| m.mv() == ataxx::Move::Pass).count();
    let flips: u32 = moves.iter().map(|m| m.flip_count()).sum();
    let mut ending = game.result().to_string();
    if let Some(termination) = game.termination() {
        ending.push_str(&format!(" ({})", termination.pgn_tag().1));
    }
    format!(
        "{moves_text}\nFEN     {fen}\nplies   {plies} ({jumps} jumps, {passes} passes), {flips} flips\npieces  x {x}, o {o}\nresult  {ending}\n\n{diagram}",
        moves_text = game.to_record(None),
        fen = end,
        plies = moves.len(),
        x = end.pieces(Color::X).count(),
        o = end.pieces(Color::O).count(),
        diagram = end.diagram(style),
    )
}

fn parse_labels(text: &str) -> Result<DiagramStyle, String> {
    match text.chars().collect::<Vec<_>>().as_slice() {
        &[x, o]
            if x != o
                && [x, o]
                    .iter()
                    .all(|c| c.is_ascii_graphic() && !"-#".contains(*c)) =>
        {
            Ok(DiagramStyle::labels(x, o))
        }
        _ => Err(format!(
            "{text:?}: expected two different letters, the first player's first (e.g. OX)"
        )),
    }
}
