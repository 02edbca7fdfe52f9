//! The server's rooms and the way their arrows point (docs/architecture.md), read from the
//! sources: a module that reaches into a room it must not fails here, naming the file and line.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, with its path relative to `src/`.
fn sources(dir: &Path) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![];
    let mut stack: Vec<PathBuf> = vec![root.join(dir)];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            for entry in fs::read_dir(&path).expect("source folder reads") {
                stack.push(entry.expect("source folder entry").path());
            }
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let text = fs::read_to_string(&path).expect("source file reads");
            let name = path
                .strip_prefix(&root)
                .expect("under src/")
                .display()
                .to_string();
            files.push((name, text));
        }
    }
    files.sort();
    files
}

/// The lines of `room`'s files that name any of `forbidden` (code only: `//` comments and doc
/// comments may mention other rooms).
fn offences(room: &str, forbidden: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut found = vec![];
    for (file, text) in sources(Path::new(room)) {
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
    let outside: Vec<String> = sources(Path::new(""))
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

/// A source file's module path (`doors/http/mod.rs` → `doors::http`, `lib.rs` → ``).
fn module_of(file: &str) -> String {
    let path = file.trim_end_matches(".rs").replace('/', "::");
    let path = path.trim_end_matches("::mod").trim_end_matches("lib");
    path.to_string()
}

/// The modules each module names through `crate::` or `super::` paths (`use crate::{a, b}`
/// groups included), each resolved to the longest module that exists; a module's own
/// ancestors are left out (a child may use its parent's items).
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let files = sources(Path::new(""));
    let modules: BTreeSet<String> = files.iter().map(|(file, _)| module_of(file)).collect();
    let resolve = |path: &str| -> String {
        let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        (0..=segments.len())
            .rev()
            .map(|n| segments[..n].join("::"))
            .find(|candidate| modules.contains(candidate))
            .unwrap_or_default()
    };
    let mut graph = BTreeMap::new();
    for (file, text) in &files {
        let module = module_of(file);
        let parent = module.rsplit_once("::").map_or("", |(parent, _)| parent);
        let code: String = text
            .lines()
            .map(|line| line.split("//").next().unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n");
        let mut named = BTreeSet::new();
        for (prefix, base) in [("crate::", ""), ("super::", parent)] {
            for (at, _) in code.match_indices(prefix) {
                let rest = &code[at + prefix.len()..];
                let group = rest
                    .strip_prefix('{')
                    .map(|g| &g[..g.find('}').unwrap_or(g.len())]);
                let paths: Vec<&str> = match group {
                    Some(group) => group.split(',').collect(),
                    None => vec![rest],
                };
                for path in paths {
                    let path: String = path
                        .trim()
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                        .collect();
                    let full = [base, path.trim_end_matches(':')].join("::");
                    let target = resolve(&full);
                    let ancestor = target.is_empty() || module.starts_with(&format!("{target}::"));
                    if target != module && !ancestor {
                        named.insert(target);
                    }
                }
            }
        }
        graph.insert(module, named);
    }
    graph
}

#[test]
fn no_module_circle() {
    let graph = module_graph();
    // A module reaches itself again only through a circle.
    let mut circles = vec![];
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&String> = graph[start].iter().collect();
        while let Some(module) = stack.pop() {
            if module == start {
                circles.push(start.clone());
                break;
            }
            if seen.insert(module) {
                stack.extend(graph.get(module).into_iter().flatten());
            }
        }
    }
    assert!(circles.is_empty(), "modules on a circle: {circles:?}");
}

#[test]
fn the_check_sees_what_it_looks_for() {
    // The checks above pass on an empty tree too: make sure they read the real one.
    assert!(sources(Path::new("doors")).len() > 10);
    assert_eq!(rooms_named("use crate::store::{self, Storage};"), ["store"]);
    assert_eq!(rooms_named("let x = 1; // crate::store"), ["store"]);
    assert!(offences("store", &|code| code.contains("sqlx::")).len() > 10);
    let graph = module_graph();
    assert!(graph["doors::http"].contains("doors::web"));
    assert!(graph["domain::games::play"].contains("store"));
    assert!(graph["domain::games::play"].contains("domain::games::view"));
}
