//! `ataxx encode`: a 7x7 position as the hex of the 14-byte board or the 19-byte message, or a
//! four-player position as the hex of its 19-byte board.

use anyhow::{bail, Context};
use ataxx::{PackedBoard, Position, PositionMessage};
use clap::Args as ClapArgs;
use games::GameKind;

#[derive(ClapArgs)]
pub struct Args {
    /// A 7x7 position as FEN (quoted when it has several fields).
    #[arg(allow_hyphen_values = true)]
    fen: String,
    /// Print the 19-byte message (board, side to move, halfmove clock, fullmove number) instead
    /// of the 14-byte board (two-player positions only).
    #[arg(long)]
    message: bool,
    /// The game: `ataxx` or `ataxx4` (four players: the 19-byte board of 3-bit cells). Without
    /// it, a FEN whose board or side field has an r, b, g or y is four-player, any other
    /// two-player.
    #[arg(long)]
    variant: Option<GameKind>,
}

/// Whether a FEN names four-player pieces or a four-player side. The letters of the two games
/// are disjoint (the two-player reader refuses r, b, g and y), so a FEN with any piece or a
/// side field says which game it is; only a board without pieces and side, or the `startpos`
/// keyword, needs `--variant ataxx4`.
fn is_four_player_fen(fen: &str) -> bool {
    fen.split_whitespace()
        .take(2)
        .filter(|field| *field != "startpos")
        .any(|field| field.chars().any(|c| "rbgyRBGY".contains(c)))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let kind = match args.variant {
        Some(kind) => kind,
        None if is_four_player_fen(&args.fen) => GameKind::Ataxx4,
        None => GameKind::Ataxx,
    };
    if kind == GameKind::Ataxx4 {
        if args.message {
            bail!("--message is the two-player 19-byte message; a four-player position encodes as its 19-byte board alone (drop --message)");
        }
        let pos: games::ataxx4::Position = args
            .fen
            .parse()
            .with_context(|| format!("four-player FEN {:?}", args.fen))?;
        println!("{}", games::ataxx4::PackedBoard::from_position(&pos)?);
    } else if kind == GameKind::Ataxx {
        let pos: Position = args
            .fen
            .parse()
            .with_context(|| format!("FEN {:?}", args.fen))?;
        if args.message {
            println!("{}", PositionMessage::from_position(&pos)?);
        } else {
            println!("{}", PackedBoard::from_position(&pos)?);
        }
    } else {
        bail!("--variant {kind}: the encodings cover ataxx and ataxx4 boards only");
    }
    Ok(())
}
