//! What text people write for others may hold: no control characters (ESC, BEL, NUL, BS reach
//! a text-door user's terminal as commands: colours, a cleared screen, a bell) and no
//! bidirectional overrides (RLO shows a line's characters in another order than they are).
//! Line breaks and tabs stay.

/// `text` without the characters above.
pub fn printable(text: &str) -> String {
    text.chars().filter(|&c| !unprintable(c)).collect()
}

fn unprintable(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn terminal_commands_and_overrides_go_and_words_stay() {
        assert_eq!(
            printable("\u{1b}[2Jhi\u{7}\u{0} there\u{8}\u{202e}dlrow\u{9b}"),
            "[2Jhi theredlrow"
        );
        assert_eq!(
            printable("two\nlines\tand tabs, é ☺"),
            "two\nlines\tand tabs, é ☺"
        );
    }
}
