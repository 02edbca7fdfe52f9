//! `ataxx decode`: the hex of a 14-byte board or 19-byte message, or with `--variant ataxx4` a
//! 19-byte four-player board, as a diagram and FEN.

use anyhow::{bail, Context};
use ataxx::{DiagramStyle, PackedBoard, PositionMessage, BOARD_BYTES, MESSAGE_BYTES};
use clap::Args as ClapArgs;
use games::GameKind;

#[derive(ClapArgs)]
pub struct Args {
    /// 28 hex digits (a board; x to move, counters 0 1) or 38 (a message, or with --variant
    /// ataxx4 a four-player board: the first colour in play to move, counters 0 1); spaces may
    /// separate bytes (as separate words or inside quotes).
    #[arg(required = true, num_args = 1..)]
    hex: Vec<String>,
    /// The game: `ataxx` (default) or `ataxx4`. A four-player board and a two-player message
    /// are both 19 bytes and either may read as the other, so four-player boards must be named.
    #[arg(long)]
    variant: Option<GameKind>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let hex = args.hex.join(" ");
    let context = || format!("hex {hex:?}");
    let kind = args.variant.unwrap_or(GameKind::Ataxx);
    if kind == GameKind::Ataxx4 {
        let pos = hex
            .parse::<games::ataxx4::PackedBoard>()
            .with_context(|| format!("four-player board {hex:?}"))?
            .to_position();
        print!("{}", pos.diagram());
        println!("{pos}");
        return Ok(());
    } else if kind != GameKind::Ataxx {
        bail!("--variant {kind}: the encodings cover ataxx and ataxx4 boards only");
    }
    let pos = match hex.chars().filter(|c| !c.is_whitespace()).count() {
        n if n == 2 * BOARD_BYTES => hex.parse::<PackedBoard>().with_context(context)?.to_position(),
        n if n == 2 * MESSAGE_BYTES => hex
            .parse::<PositionMessage>()
            .with_context(|| {
                format!("hex {hex:?} as a two-player message (a four-player board needs --variant ataxx4)")
            })?
            .to_position(),
        n => bail!(
            "hex {hex:?} has {n} characters besides spaces; expected {} (a board) or {} (a message, or a four-player board with --variant ataxx4)",
            2 * BOARD_BYTES,
            2 * MESSAGE_BYTES
        ),
    };
    print!("{}", pos.diagram(DiagramStyle::FEN));
    println!("{pos}");
    Ok(())
}
