//! `ataxx blocks`: Blocks-Config codes and wall masks, one layout at a time or listed.

use anyhow::Context;
use ataxx::{DiagramStyle, Layout, Position};
use clap::{Args as ClapArgs, Subcommand};

#[derive(ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    command: BlocksCommand,
}

#[derive(Subcommand)]
enum BlocksCommand {
    /// Describe one layout: its codes, weight, block count, mask, start position and diagram.
    Show(ShowArgs),
    /// List layouts by block count, then in code order (`1` < `12` < `1x` < `2` < `a`).
    List(ListArgs),
}

#[derive(ClapArgs)]
struct ShowArgs {
    /// A Blocks-Config code (`3ghx`), a wall mask (`0xC420`) or a FEN whose blocked cells are
    /// mirror-symmetric (quoted when it has several fields).
    #[arg(allow_hyphen_values = true)]
    layout: String,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(ClapArgs)]
struct ListArgs {
    /// Only layouts with exactly this many blocked cells.
    #[arg(long)]
    blocks: Option<u32>,
    /// Only layouts whose wall mask has at most this many bits set.
    #[arg(long)]
    max_bits: Option<u32>,
    /// Only the preferred code of each twin pair.
    #[arg(long)]
    canonical: bool,
    /// Print only how many layouts match.
    #[arg(long)]
    count: bool,
    /// One JSON object per line instead of `code mask blocks`.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        BlocksCommand::Show(args) => show(args),
        BlocksCommand::List(args) => list(args),
    }
}

/// Reads a mask (`0x…`), a FEN (has a `/`, or `startpos`) or else a code.
pub(crate) fn read_layout(text: &str) -> anyhow::Result<Layout> {
    if text.starts_with("0x") || text.starts_with("0X") {
        Ok(Layout::parse_mask(text)?)
    } else if text.contains('/') || text == "startpos" {
        let pos: Position = text.parse().with_context(|| format!("FEN {text:?}"))?;
        Layout::from_position(&pos)
            .with_context(|| format!("FEN {text:?} has no Blocks-Config code"))
    } else {
        Ok(text.parse()?)
    }
}

fn show(args: ShowArgs) -> anyhow::Result<()> {
    let layout = read_layout(&args.layout)?;
    let start = layout.start_position();
    if args.json {
        let object = serde_json::json!({
            "code": layout.to_string(),
            "canonical": layout.canonical().to_string(),
            "twin": layout.twin().to_string(),
            "weight": layout.weight(),
            "blocks": layout.blocks(),
            "mask": layout.mask_text(),
            "fen": start.to_string(),
        });
        println!("{object}");
        return Ok(());
    }
    println!("code       {layout}");
    println!("canonical  {}", layout.canonical());
    println!("twin       {}", layout.twin());
    println!("weight     {}", layout.weight());
    println!("blocks     {}", layout.blocks());
    println!("mask       {}", layout.mask_text());
    println!("fen        {start}");
    println!();
    print!("{}", start.diagram(DiagramStyle::FEN));
    Ok(())
}

fn list(args: ListArgs) -> anyhow::Result<()> {
    let mut layouts: Vec<Layout> = Layout::all()
        .filter(|l| args.blocks.is_none_or(|n| l.blocks() == n))
        .filter(|l| args.max_bits.is_none_or(|k| l.mask().count_ones() <= k))
        .filter(|l| !args.canonical || l.is_canonical())
        .collect();
    if args.count {
        println!("{}", layouts.len());
        return Ok(());
    }
    layouts.sort_by_key(|&l| (l.blocks(), l));
    for layout in layouts {
        if args.json {
            let object = serde_json::json!({
                "code": layout.to_string(),
                "mask": layout.mask_text(),
                "blocks": layout.blocks(),
            });
            println!("{object}");
        } else {
            println!("{layout} {} {}", layout.mask_text(), layout.blocks());
        }
    }
    Ok(())
}
