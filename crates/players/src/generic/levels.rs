//! The named levels of the variants (Hexxagon, four-player Ataxx). Square Ataxx keeps its own
//! table ([`crate::LEVELS`]).

use games::GameKind;

/// What plays at a variant level.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GenericStrength {
    /// [`super::random_move`].
    Random,
    /// [`super::greedy_move`].
    Greedy,
    /// [`super::paranoid_search`] deepening to `depth` plies, stopped after `nodes` nodes or
    /// `millis` milliseconds, whichever comes first (answering with the last complete depth).
    Search { depth: u32, nodes: u64, millis: u64 },
    /// The same search judging the searching seat against every rival
    /// ([`super::Judge::AllRivals`]).
    SearchAgainstAll { depth: u32, nodes: u64, millis: u64 },
}

/// A named level of a variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GenericLevel {
    pub name: &'static str,
    pub strength: GenericStrength,
    pub description: &'static str,
}

/// The most nodes a variant level searches for one move, whatever its depth.
pub const NODE_LIMIT: u64 = 400_000;

/// The most time a variant level takes for one move: its search stops there.
pub const MOVE_TIME_MS: u64 = 2_000;

/// A search `depth` plies deep within the default bounds ([`NODE_LIMIT`], [`MOVE_TIME_MS`]).
pub const fn search(depth: u32) -> GenericStrength {
    GenericStrength::Search {
        depth,
        nodes: NODE_LIMIT,
        millis: MOVE_TIME_MS,
    }
}

/// Hexxagon's levels, weakest first (ladder measured in docs/levels.md).
pub const HEXXAGON_LEVELS: [GenericLevel; 4] = [
    GenericLevel {
        name: "very-easy",
        strength: GenericStrength::Random,
        description: "random moves, singles three times in four",
    },
    GenericLevel {
        name: "easy",
        strength: GenericStrength::Greedy,
        description: "takes the move that leaves it the most pieces",
    },
    GenericLevel {
        name: "medium",
        strength: search(2),
        description: "alpha-beta 2 plies deep on the piece difference",
    },
    GenericLevel {
        name: "hard",
        strength: search(3),
        description: "alpha-beta 3 plies deep on the piece difference",
    },
];

/// Four-player Ataxx's levels, weakest first (ladder measured in docs/levels.md). Three, not
/// four: with four seats a level's result leans on its neighbours' play, and the whole span
/// from greedy play to the strongest search is about 265 Elo, room for one 75 % rung, not two.
pub const ATAXX4_LEVELS: [GenericLevel; 3] = [
    GenericLevel {
        name: "very-easy",
        strength: GenericStrength::Random,
        description: "random moves, singles three times in four",
    },
    GenericLevel {
        name: "easy",
        strength: GenericStrength::Greedy,
        description: "most own pieces less the strongest opponent's, one move ahead",
    },
    GenericLevel {
        name: "hard",
        strength: GenericStrength::SearchAgainstAll {
            depth: 4,
            nodes: NODE_LIMIT,
            millis: MOVE_TIME_MS,
        },
        description: "paranoid alpha-beta 4 plies deep: three times own pieces less all opponents' pieces, and the capture in hand",
    },
];

/// Ankor's levels, weakest first (ladder measured in docs/levels.md). Every search answers
/// within its `millis`, whatever the board.
pub const ANKOR_LEVELS: [GenericLevel; 4] = [
    GenericLevel {
        name: "very-easy",
        strength: GenericStrength::Random,
        description: "random moves",
    },
    GenericLevel {
        name: "easy",
        strength: GenericStrength::Search {
            depth: 1,
            nodes: 10_000,
            millis: 1_000,
        },
        description: "the move that most shortens its own connection distance against the opponent's, one ply ahead",
    },
    GenericLevel {
        name: "medium",
        strength: GenericStrength::Search {
            depth: 2,
            nodes: 20_000,
            millis: 1_000,
        },
        description: "alpha-beta 2 plies deep on the connection evaluation",
    },
    GenericLevel {
        name: "hard",
        strength: GenericStrength::Search {
            depth: 6,
            nodes: 60_000,
            millis: 2_000,
        },
        description: "alpha-beta deepening to 6 plies on the connection evaluation, at most 60,000 nodes or 2 s a move",
    },
];

/// The generic levels of a game, weakest first: Hexxagon's and four-player Ataxx's tables,
/// and for square Ataxx the same ladder built from the generic players (its named levels
/// proper are [`crate::LEVELS`], which [`super::choose_any`] uses), and Ankor's
/// ([`ANKOR_LEVELS`]).
pub fn variant_levels(kind: GameKind) -> &'static [GenericLevel] {
    match kind {
        GameKind::Ataxx4 => &ATAXX4_LEVELS,
        GameKind::Ankor => &ANKOR_LEVELS,
        _ => &HEXXAGON_LEVELS,
    }
}

impl GenericLevel {
    /// Finds a level by name in `kind`'s table (`very easy`, `very_easy`, any case).
    pub fn find(kind: GameKind, text: &str) -> Option<&'static GenericLevel> {
        let key: String = text
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        variant_levels(kind)
            .iter()
            .find(|level| level.name.replace('-', "") == key)
    }

    /// The player as a spec string, for tables.
    pub fn spec(&self) -> String {
        match self.strength {
            GenericStrength::Random => "random".into(),
            GenericStrength::Greedy => "greedy".into(),
            GenericStrength::Search {
                depth,
                nodes,
                millis,
            } => format!("search:depth={depth},nodes={nodes},ms={millis}"),
            GenericStrength::SearchAgainstAll {
                depth,
                nodes,
                millis,
            } => format!("search-all:depth={depth},nodes={nodes},ms={millis}"),
        }
    }
}
