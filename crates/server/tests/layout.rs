//! The server's rooms and the way their arrows point (docs/architecture.md), read from the
//! sources: a module that reaches into a room it must not fails here, naming the file and line.

use std::path::Path;

#[path = "../../../tests/layout/module_graph.rs"]
mod module_graph;

use module_graph::{assert_circles, module_graph, sources};

/// This crate's `.rs` files under `src/<dir>`.
fn server_sources(dir: &Path) -> Vec<(String, String)> {
    sources(env!("CARGO_MANIFEST_DIR"), dir)
}

/// The lines of `room`'s files that name any of `forbidden` (code only: `//` comments and doc
/// comments may mention other rooms).
fn offences(room: &str, forbidden: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut found = vec![];
    for (file, text) in server_sources(Path::new(room)) {
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if forbidden(code) {
                found.push(format!("{file}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    found
}

/// The `crate::` paths a line of code names, as their first segment (`crate::store::x` → store).
fn rooms_named(code: &str) -> Vec<&str> {
    code.match_indices("crate::")
        .map(|(at, _)| {
            let rest = &code[at + "crate::".len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

#[test]
fn only_the_store_names_sqlx() {
    let outside: Vec<String> = server_sources(Path::new(""))
        .into_iter()
        .filter(|(file, text)| !file.starts_with("store/") && text.contains("sqlx"))
        .map(|(file, _)| file)
        .collect();
    assert!(outside.is_empty(), "sqlx named outside store/: {outside:?}");
}

#[test]
fn doors_never_reach_the_store() {
    let found = offences("doors", &|code| rooms_named(code).contains(&"store"));
    assert!(
        found.is_empty(),
        "doors importing the store:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_domain_never_names_the_cluster_or_a_door() {
    let found = offences("domain", &|code| {
        rooms_named(code)
            .iter()
            .any(|room| matches!(*room, "cluster" | "doors" | "App" | "app" | "server"))
    });
    assert!(
        found.is_empty(),
        "domain reaching up:\n{}",
        found.join("\n")
    );
}

#[test]
fn events_know_only_the_model() {
    let found = offences("events", &|code| {
        rooms_named(code)
            .iter()
            .any(|room| *room != "model" && *room != "events")
    });
    assert!(
        found.is_empty(),
        "events importing more than the model:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_model_is_plain_data() {
    let found = offences("model", &|code| {
        rooms_named(code).iter().any(|room| *room != "model")
    });
    assert!(
        found.is_empty(),
        "model importing other rooms:\n{}",
        found.join("\n")
    );
}

/// The circles known and not yet broken: none since issue #51 moved the mail-only rules into the
/// domain's `Messages` service (the command language called the mail door, which answered with
/// the command language's reply). A new circle fails here; one listed here fails when it ends,
/// so that the list is emptied again.
const KNOWN_CIRCLES: &[&str] = &[];

#[test]
fn no_module_circle() {
    assert_circles(env!("CARGO_MANIFEST_DIR"), KNOWN_CIRCLES);
}

#[test]
fn the_check_sees_what_it_looks_for() {
    // The checks above pass on an empty tree too: make sure they read the real one.
    assert!(server_sources(Path::new("doors")).len() > 10);
    assert_eq!(rooms_named("use crate::store::{self, Storage};"), ["store"]);
    assert_eq!(rooms_named("let x = 1; // crate::store"), ["store"]);
    assert!(offences("store", &|code| code.contains("sqlx::")).len() > 10);
    let graph = module_graph(&server_sources(Path::new("")));
    assert!(graph["doors::http::web"].contains("doors::http::errors"));
    assert!(graph["domain::games::play"].contains("store"));
    assert!(graph["domain::games::play"].contains("domain::games::view"));
}
