//! `ataxx diagram`: a position of any game as its text diagram (or SVG).

use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use games::{ankor, GameKind};

#[derive(ClapArgs)]
pub struct Args {
    /// The game: ataxx or ankor (see `games::GameKind`).
    #[arg(long, default_value = "ataxx")]
    variant: String,
    /// The position: a FEN, or the game's position text (`ankor 6 1 ... o 28 28 0`).
    #[arg(long)]
    fen: String,
    /// Ankor: the cell of the cube moved last, drawn in upper case (`e3''`, `e3^2`).
    #[arg(long)]
    last: Option<String>,
    /// Print an SVG drawing instead of the text diagram.
    #[arg(long)]
    svg: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let kind: GameKind = args.variant.parse()?;
    let context = || format!("--fen {:?}", args.fen);
    if kind == GameKind::Ankor {
        let pos: ankor::Position = args
            .fen
            .parse()
            .map_err(anyhow::Error::msg)
            .with_context(context)?;
        let last = match &args.last {
            None => None,
            Some(text) => Some(
                text.parse::<ankor::Cell>()
                    .map_err(anyhow::Error::from)
                    .and_then(|cell| {
                        pos.clone()
                            .with_last_moved(Some(cell))
                            .map_err(anyhow::Error::msg)
                            .map(|_| cell)
                    })
                    .with_context(|| format!("--last {text:?}"))?,
            ),
        };
        let pos = pos.with_last_moved(last).map_err(anyhow::Error::msg)?;
        if args.svg {
            println!("{}", pos.svg());
        } else {
            print!("{}", pos.diagram());
        }
        return Ok(());
    }
    if args.last.is_some() {
        bail!("--last marks Ankor's cube moved last; {kind} diagrams have no such mark");
    }
    let pos = kind.parse_position(&args.fen).with_context(context)?;
    if args.svg {
        println!("{}", pos.svg(None));
    } else {
        print!("{}", pos.diagram());
    }
    Ok(())
}
