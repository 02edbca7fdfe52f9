//! Plain-text boards, drawn as seed 001 draws them: rank numbers on the left, the top rank
//! first, file letters underneath.

use crate::{Color, Position, Square};

/// The characters a diagram draws cells with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DiagramStyle {
    pub x: char,
    pub o: char,
    pub empty: char,
    pub blocked: char,
}

impl DiagramStyle {
    /// FEN letters: `x`, `o`, `.` empty, `-` blocked (as pbmserv board mails).
    pub const FEN: DiagramStyle = DiagramStyle {
        x: 'x',
        o: 'o',
        empty: '.',
        blocked: '-',
    };

    /// The 1995 record's style with the first player drawn `first` and the second `second`
    /// (`O` and `X` there), `-` for empty and `#` for a blocked cell.
    pub const fn labels(first: char, second: char) -> DiagramStyle {
        DiagramStyle {
            x: first,
            o: second,
            empty: '-',
            blocked: '#',
        }
    }
}

impl Default for DiagramStyle {
    fn default() -> Self {
        DiagramStyle::FEN
    }
}

impl Position {
    /// The board as text, one line per rank and a line of file letters, each line ending `\n`.
    ///
    /// ```
    /// use ataxx::{DiagramStyle, Position};
    /// let text = "x1o/3/o1x".parse::<Position>().unwrap().diagram(DiagramStyle::FEN);
    /// assert_eq!(text, "3 x . o\n2 . . .\n1 o . x\n  a b c\n");
    /// ```
    pub fn diagram(&self, style: DiagramStyle) -> String {
        grid_diagram(self.size(), |sq| match self.piece_at(sq) {
            Some(Ok(Color::X)) => style.x,
            Some(Ok(Color::O)) => style.o,
            Some(Err(())) => style.blocked,
            None => style.empty,
        })
    }
}

/// A square grid of `size` as text, each cell drawn by `cell`: one line per rank, the top
/// first, each starting with its number, then a line of file letters; each line ends `\n`.
pub fn grid_diagram(size: u8, cell: impl Fn(Square) -> char) -> String {
    let mut out = String::new();
    for rank in (0..size).rev() {
        out.push_str(&(rank + 1).to_string());
        for file in 0..size {
            out.push(' ');
            out.push(cell(Square::new(file, rank).expect("on the grid")));
        }
        out.push('\n');
    }
    out.push(' ');
    for file in 0..size {
        out.push(' ');
        out.push((b'a' + file) as char);
    }
    out.push('\n');
    out
}
