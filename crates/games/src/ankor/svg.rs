//! An SVG drawing: the pyramid seen down its body diagonal, each cube as its three upper faces
//! shaded light, middle and dark, so stacked cubes read as a staircase of blocks.

use std::fmt::Write;

use super::position::{Colour, Position};
use super::pyramid::{bits, NONE};

/// Pixels per cube edge.
const EDGE: f64 = 34.0;
const MARGIN: f64 = 12.0;

/// Fill of the faces toward P − e_a, P − e_b, P − e_c, and the edge stroke, per colour.
fn palette(colour: Colour) -> ([&'static str; 3], &'static str) {
    match colour {
        Colour::O => (["#8fb8f5", "#2f6fd6", "#1d4d9c"], "#0f2a57"),
        Colour::X => (["#f29aa0", "#d1343e", "#8e1f27"], "#4d0d12"),
    }
}

/// A `#rrggbb` colour darkened for depth: the board's level at 72 %, the apex at full
/// brightness, so higher cubes stand out from those they rest on.
fn at_level(hex: &str, level: u8, top: u8) -> String {
    let f = 0.72 + 0.28 * f64::from(level) / f64::from(top.max(1));
    let channel = |k: usize| {
        let v = u8::from_str_radix(&hex[1 + 2 * k..3 + 2 * k], 16).unwrap_or(0);
        (f64::from(v) * f).round() as u8
    };
    format!("#{:02x}{:02x}{:02x}", channel(0), channel(1), channel(2))
}

/// Screen point of the lattice vertex (x, y, z).
fn project(x: f64, y: f64, z: f64) -> (f64, f64) {
    (
        EDGE * (y - (x + z) / 2.0),
        EDGE * (3f64.sqrt() / 2.0) * (x - z),
    )
}

impl Position {
    /// The board as SVG: O blue, X red, lower cubes darker, empty holes as faint hexagons with
    /// their labels, the cube placed or moved last outlined in gold. Each cube carries a `<title>` with its cell.
    pub fn svg(&self) -> String {
        let pyr = self.pyr;
        // Bounds: every vertex of every cell's cube.
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for abc in &pyr.abc {
            let [a, b, c] = abc.map(f64::from);
            for corner in 0..8 {
                let bit = |k: u32| f64::from(corner >> k & 1);
                let (sx, sy) = project(a + bit(0), b + bit(1), c + bit(2));
                x0 = x0.min(sx);
                y0 = y0.min(sy);
                x1 = x1.max(sx);
                y1 = y1.max(sy);
            }
        }
        let (w, h) = (x1 - x0 + 2.0 * MARGIN, y1 - y0 + 2.0 * MARGIN);
        let (dx, dy) = (MARGIN - x0, MARGIN - y0);
        let point = |x: f64, y: f64, z: f64| {
            let (sx, sy) = project(x, y, z);
            format!("{:.1},{:.1}", sx + dx, sy + dy)
        };
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\" font-family=\"sans-serif\">\
             <rect width=\"{w:.0}\" height=\"{h:.0}\" fill=\"#f4efe4\"/>"
        );
        let occ = self.occupied();
        // The three faces of the cube at (a, b, c), seen from above: x = a, y = b, z = c.
        let faces = |a: f64, b: f64, c: f64| {
            [
                [
                    point(a, b, c),
                    point(a, b + 1.0, c),
                    point(a, b + 1.0, c + 1.0),
                    point(a, b, c + 1.0),
                ],
                [
                    point(a, b, c),
                    point(a + 1.0, b, c),
                    point(a + 1.0, b, c + 1.0),
                    point(a, b, c + 1.0),
                ],
                [
                    point(a, b, c),
                    point(a + 1.0, b, c),
                    point(a + 1.0, b + 1.0, c),
                    point(a, b + 1.0, c),
                ],
            ]
        };
        for i in bits(pyr.ground & !occ) {
            let [a, b, c] = pyr.abc[i].map(f64::from);
            let hexagon = [
                point(a + 1.0, b, c),
                point(a + 1.0, b, c + 1.0),
                point(a, b, c + 1.0),
                point(a, b + 1.0, c + 1.0),
                point(a, b + 1.0, c),
                point(a + 1.0, b + 1.0, c),
            ];
            let (cx, cy) = project(a + 0.5, b + 0.5, c + 0.5);
            let _ = write!(
                svg,
                "<polygon points=\"{}\" fill=\"#e2dac8\" stroke=\"#b5a98f\" stroke-width=\"1\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#8a7f68\" text-anchor=\"middle\">{}</text>",
                hexagon.join(" "),
                cx + dx,
                cy + dy + 3.5,
                pyr.label[i]
            );
        }
        // Index order is level order: lower cubes first, higher ones drawn over them.
        for i in bits(occ) {
            let colour = if self.cubes[0] >> i & 1 == 1 {
                Colour::O
            } else {
                Colour::X
            };
            let (fills, stroke) = palette(colour);
            let [a, b, c] = pyr.abc[i].map(f64::from);
            let last = self.last == Some(i as u8);
            let _ = write!(svg, "<g><title>{} {}</title>", pyr.label[i], colour.char());
            for (k, face) in faces(a, b, c).iter().enumerate() {
                let j = pyr.above[i][k];
                if j != NONE && occ >> j & 1 == 1 {
                    continue;
                }
                let _ = write!(
                    svg,
                    "<polygon points=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\" stroke-linejoin=\"round\"/>",
                    face.join(" "),
                    at_level(fills[k], pyr.level[i], pyr.n - 1),
                    if last { "#f2b134" } else { stroke },
                    if last { 3 } else { 1 }
                );
            }
            svg.push_str("</g>");
        }
        svg.push_str("</svg>");
        svg
    }
}
