//! The engine crate's modules point one way: no two sibling modules name each other, directly or
//! around a longer circle (read from the sources; see tests/layout/module_graph.rs).

#[path = "../../../tests/layout/module_graph.rs"]
mod module_graph;

#[test]
fn no_module_circle() {
    module_graph::assert_circles(env!("CARGO_MANIFEST_DIR"), &[]);
}
