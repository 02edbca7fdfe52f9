//! A match's course as an SVG chart, written by hand: the SPRT's LLR between its bounds, or,
//! without an SPRT, the Elo estimate with its 95% band, against games played.

use std::fmt::Write;

use crate::tournament::{HistoryPoint, SprtState};

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;
/// Elo shown at most this far from zero: a 100% score has an infinite estimate.
const ELO_CAP: f64 = 1000.0;

/// What is drawn: a line of (games, value), an optional band of (games, low, high), and
/// horizontal guide lines.
struct Chart {
    line: Vec<(f64, f64)>,
    band: Vec<(f64, f64, f64)>,
    guides: Vec<f64>,
    y_label: &'static str,
}

impl Chart {
    /// The LLR with the bounds of `sprt` if given, else the Elo band, over `history`.
    fn of(history: &[HistoryPoint], sprt: Option<&SprtState>) -> Chart {
        let clamp = |v: f64| v.clamp(-ELO_CAP, ELO_CAP);
        match sprt {
            Some(s) => Chart {
                // The LLR is 0 before the first game.
                line: std::iter::once((0.0, 0.0))
                    .chain(
                        history
                            .iter()
                            .map(|p| (p.games as f64, p.llr.unwrap_or(0.0))),
                    )
                    .collect(),
                band: Vec::new(),
                guides: vec![s.lower, 0.0, s.upper],
                y_label: "LLR",
            },
            None => Chart {
                line: history
                    .iter()
                    .map(|p| (p.games as f64, clamp(p.elo)))
                    .collect(),
                band: history
                    .iter()
                    .map(|p| (p.games as f64, clamp(p.lower), clamp(p.upper)))
                    .collect(),
                guides: vec![0.0],
                y_label: "Elo (95% band)",
            },
        }
    }
}

/// Where games and values land on the page: games from 0 to `max_games` across the plot
/// area, values from `y_min` at its bottom to `y_max` at its top.
struct Scale {
    max_games: f64,
    y_min: f64,
    y_max: f64,
}

impl Scale {
    /// A scale for `chart` over `max_games`, every value drawn inside with a margin.
    fn of(chart: &Chart, max_games: f64) -> Scale {
        let values = chart
            .line
            .iter()
            .map(|p| p.1)
            .chain(chart.band.iter().flat_map(|b| [b.1, b.2]))
            .chain(chart.guides.iter().copied());
        let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let pad = ((hi - lo) * 0.05).max(0.5);
        Scale {
            max_games,
            y_min: lo - pad,
            y_max: hi + pad,
        }
    }

    fn x(&self, games: f64) -> f64 {
        LEFT + games / self.max_games * (WIDTH - LEFT - RIGHT)
    }

    fn y(&self, value: f64) -> f64 {
        TOP + (self.y_max - value) / (self.y_max - self.y_min) * (HEIGHT - TOP - BOTTOM)
    }

    /// `points` as SVG coordinates, `x,y x,y ...`.
    fn points(&self, points: impl Iterator<Item = (f64, f64)>) -> String {
        let points: Vec<String> = points
            .map(|(g, v)| format!("{:.1},{:.1}", self.x(g), self.y(v)))
            .collect();
        points.join(" ")
    }
}

/// The chart of `history`: the LLR with the bounds of `sprt` if given, else the Elo band.
pub fn svg(history: &[HistoryPoint], sprt: Option<&SprtState>, title: &str) -> String {
    let max_games = history.last().map_or(1, |p| p.games).max(1) as f64;
    let chart = Chart::of(history, sprt);
    let scale = Scale::of(&chart, max_games);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        out,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/><text x="{}" y="24" text-anchor="middle" font-size="15">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
    draw_axes(&mut out, &scale, chart.y_label);
    draw_values(&mut out, &scale, &chart);
    let _ = writeln!(
        out,
        r##"<rect x="{LEFT}" y="{TOP}" width="{:.1}" height="{:.1}" fill="none" stroke="#555"/>"##,
        WIDTH - LEFT - RIGHT,
        HEIGHT - TOP - BOTTOM
    );
    out.push_str("</svg>\n");
    out
}

/// The grid lines and tick labels of both axes, and the axes' names.
fn draw_axes(out: &mut String, scale: &Scale, y_label: &str) {
    for tick in ticks(scale.y_min, scale.y_max) {
        let ty = scale.y(tick);
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT}" y1="{ty:.1}" x2="{:.1}" y2="{ty:.1}" stroke="#e4e4e4"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            WIDTH - RIGHT,
            LEFT - 6.0,
            ty + 4.0,
            trim_number(tick)
        );
    }
    for tick in ticks(0.0, scale.max_games) {
        let tx = scale.x(tick);
        let _ = writeln!(
            out,
            r#"<text x="{tx:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            HEIGHT - BOTTOM + 18.0,
            trim_number(tick)
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">games</text><text x="16" y="{:.1}" text-anchor="middle" transform="rotate(-90 16 {:.1})">{y_label}</text>"#,
        (LEFT + WIDTH - RIGHT) / 2.0,
        HEIGHT - 10.0,
        HEIGHT / 2.0,
        HEIGHT / 2.0
    );
}

/// The chart's band, its guide lines (dashed but at zero) and its line, in that order, so
/// that the line is drawn over the rest.
fn draw_values(out: &mut String, scale: &Scale, chart: &Chart) {
    if !chart.band.is_empty() {
        let upper = chart.band.iter().map(|b| (b.0, b.2));
        let lower = chart.band.iter().rev().map(|b| (b.0, b.1));
        let _ = writeln!(
            out,
            r##"<polygon points="{}" fill="#9ecae1" fill-opacity="0.5" stroke="none"/>"##,
            scale.points(upper.chain(lower))
        );
    }
    for guide in &chart.guides {
        let gy = scale.y(*guide);
        let dash = if *guide == 0.0 {
            ""
        } else {
            r#" stroke-dasharray="6 4""#
        };
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT}" y1="{gy:.1}" x2="{:.1}" y2="{gy:.1}" stroke="#c0392b"{dash}/>"##,
            WIDTH - RIGHT
        );
    }
    let _ = writeln!(
        out,
        r##"<polyline points="{}" fill="none" stroke="#08519c" stroke-width="1.8"/>"##,
        scale.points(chart.line.iter().copied())
    );
}

/// About five round tick values (1, 2 or 5 times a power of ten apart) within `[lo, hi]`.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let raw = (hi - lo) / 5.0;
    if raw <= 0.0 || !raw.is_finite() {
        return vec![lo];
    }
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

fn trim_number(v: f64) -> String {
    let text = format!("{v:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        assert_eq!(ticks(0.0, 100.0), [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(ticks(-2.94, 2.94), [-2.0, 0.0, 2.0]);
        assert_eq!(ticks(-1.2, 3.3), [-1.0, 0.0, 1.0, 2.0, 3.0]);
    }

    #[test]
    fn charts_draw_every_point() {
        let history: Vec<HistoryPoint> = (1..=4)
            .map(|i| HistoryPoint {
                games: 2 * i,
                elo: 10.0 * i as f64,
                lower: f64::NEG_INFINITY,
                upper: 50.0,
                llr: Some(0.1 * i as f64),
            })
            .collect();
        let elo = svg(&history, None, "a <b>");
        assert!(elo.contains("a &lt;b&gt;"));
        let line = elo.lines().find(|l| l.starts_with("<polyline")).unwrap();
        assert_eq!(line.matches(',').count(), 4);
        assert!(elo.contains("<polygon"));
        assert!(!elo.contains("NaN") && !elo.contains("inf"));
    }
}
