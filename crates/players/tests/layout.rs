//! The players crate's modules point one way: no two sibling modules name each other, directly or
//! around a longer circle (read from the sources; see tests/layout/module_graph.rs).

#[path = "../../../tests/layout/module_graph.rs"]
mod module_graph;

#[test]
fn no_module_circle() {
    module_graph::check_the_checker();
    let circles = module_graph::circles_of(env!("CARGO_MANIFEST_DIR"));
    assert!(
        circles.is_empty(),
        "modules on a circle:\n{}",
        circles.join("\n")
    );
}
