//! `ataxx decode`: the hex of a 14-byte board or 19-byte message, as a diagram and FEN.

use anyhow::{bail, Context};
use ataxx::{DiagramStyle, PackedBoard, PositionMessage, BOARD_BYTES, MESSAGE_BYTES};
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// 28 hex digits (a board; x to move, counters 0 1) or 38 (a message); spaces may separate
    /// bytes (as separate words or inside quotes).
    #[arg(required = true, num_args = 1..)]
    hex: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let hex = args.hex.join(" ");
    let context = || format!("hex {hex:?}");
    let pos = match hex.chars().filter(|c| !c.is_whitespace()).count() {
        n if n == 2 * BOARD_BYTES => hex.parse::<PackedBoard>().with_context(context)?.to_position(),
        n if n == 2 * MESSAGE_BYTES => hex
            .parse::<PositionMessage>()
            .with_context(context)?
            .to_position(),
        n => bail!(
            "hex {hex:?} has {n} characters besides spaces; expected {} (a board) or {} (a message)",
            2 * BOARD_BYTES,
            2 * MESSAGE_BYTES
        ),
    };
    print!("{}", pos.diagram(DiagramStyle::FEN));
    println!("{pos}");
    Ok(())
}
