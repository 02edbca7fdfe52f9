//! The crate's one alpha-beta: a fixed-depth minimax over a game tree, pruning when the tree
//! asks for it. Seed 003's search ([`crate::search`]) and the search for every game
//! ([`crate::generic`]) differ in what they count, where they stop, how they order and score
//! children, and say so through [`Tree`]; the walk itself is the same.

/// A game tree over positions `P`, as one searching side sees it.
pub(crate) trait Tree<P> {
    /// A child of a position: what [`Tree::children`] lists and [`Tree::child_value`] scores.
    type Child;
    /// A position's children, in search order.
    type Children: IntoIterator<Item = Self::Child>;

    /// Counts a visit to `pos`, `depth` plies above the leaves and `ply` below the root, and
    /// gives its value if the search ends there (no plies left, the game over, a bound reached).
    fn leaf(&mut self, pos: &P, depth: u32, ply: i32) -> Option<i32>;

    /// The children of `pos` (not a leaf), `depth` plies above the leaves.
    fn children(&mut self, pos: &P, depth: u32) -> Self::Children;

    /// The value of `pos` when it has no children.
    fn childless(&mut self, pos: &P, ply: i32) -> i32;

    /// Whether the searching side moves at `pos`, which maximises; the others minimise.
    fn maximising(&self, pos: &P) -> bool;

    /// Whether a closed window ends a node's loop; without it the walk is plain minimax and
    /// visits every node.
    fn prunes(&self) -> bool;

    /// The value of `child` of `pos` with `depth` plies to go: [`alpha_beta`] on the position
    /// it leads to, with whatever the tree changes around it.
    fn child_value(
        &mut self,
        pos: &P,
        child: &Self::Child,
        depth: u32,
        ply: i32,
        alpha: i32,
        beta: i32,
    ) -> i32;
}

/// The minimax value of `pos` for the searching side with `depth` plies to go. `alpha`/`beta`
/// bound the window when the tree prunes; the result is not clamped to it (a cut node returns
/// the best value it saw).
pub(crate) fn alpha_beta<P, T: Tree<P>>(
    tree: &mut T,
    pos: &P,
    depth: u32,
    ply: i32,
    mut alpha: i32,
    mut beta: i32,
) -> i32 {
    if let Some(value) = tree.leaf(pos, depth, ply) {
        return value;
    }
    let mut children = tree.children(pos, depth).into_iter().peekable();
    if children.peek().is_none() {
        return tree.childless(pos, ply);
    }
    let maximise = tree.maximising(pos);
    let mut best = if maximise { i32::MIN } else { i32::MAX };
    for child in children {
        let v = tree.child_value(pos, &child, depth - 1, ply + 1, alpha, beta);
        if maximise {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if tree.prunes() && alpha >= beta {
            break;
        }
    }
    best
}
