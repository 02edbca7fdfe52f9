//! `ataxx encode`: a 7x7 position as the hex of the 14-byte board or the 19-byte message.

use anyhow::Context;
use ataxx::{PackedBoard, Position, PositionMessage};
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// A 7x7 position as FEN (quoted when it has several fields).
    #[arg(allow_hyphen_values = true)]
    fen: String,
    /// Print the 19-byte message (board, side to move, halfmove clock, fullmove number) instead
    /// of the 14-byte board.
    #[arg(long)]
    message: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let pos: Position = args
        .fen
        .parse()
        .with_context(|| format!("FEN {:?}", args.fen))?;
    if args.message {
        println!("{}", PositionMessage::from_position(&pos)?);
    } else {
        println!("{}", PackedBoard::from_position(&pos)?);
    }
    Ok(())
}
