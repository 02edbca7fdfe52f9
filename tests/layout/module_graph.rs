//! A crate's modules and the arrows between them, read from its sources; shared by the layout
//! tests of the server, the players and the engine (`#[path]`-included: each test binary gets
//! its own copy, and no crate depends on another for it).
//!
//! An arrow is a `crate::` or `super::` path in code (comments left out). Arrows are compared
//! between **siblings**: an arrow from `doors::command::accounts` to `doors::mail::commands`
//! counts as `doors::command → doors::mail`, so that two rooms reaching into each other through
//! different files are a circle too. A parent may use its children and a child its parent.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `src/<dir>` of the crate whose manifest folder is `crate_dir`, with
/// its path relative to `src/`, sorted.
pub fn sources(crate_dir: &str, dir: &Path) -> Vec<(String, String)> {
    let root = Path::new(crate_dir).join("src");
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

/// A source file's module path (`doors/http/mod.rs` → `doors::http`, `lib.rs` → ``).
pub fn module_of(file: &str) -> String {
    let path = file.trim_end_matches(".rs").replace('/', "::");
    let path = path.trim_end_matches("::mod").trim_end_matches("lib");
    path.to_string()
}

/// `text` without its `//` comments (doc comments included), line by line.
fn code_of(text: &str) -> String {
    text.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules each module names through `crate::` or `super::` paths (`use crate::{a, b}`
/// groups included), each resolved to the longest module that exists; a module's own
/// ancestors are left out (a child may use its parent's items).
pub fn module_graph(files: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
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
    for (file, text) in files {
        let module = module_of(file);
        let parent = module.rsplit_once("::").map_or("", |(parent, _)| parent);
        let code = code_of(text);
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

/// The arrow `from → to` as an arrow between siblings: both cut just below the deepest module
/// that holds them both. None when one holds the other (a parent and its descendant).
pub fn between_siblings(from: &str, to: &str) -> Option<(String, String)> {
    let from: Vec<&str> = from.split("::").filter(|s| !s.is_empty()).collect();
    let to: Vec<&str> = to.split("::").filter(|s| !s.is_empty()).collect();
    let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    if shared == from.len() || shared == to.len() {
        return None;
    }
    Some((from[..=shared].join("::"), to[..=shared].join("::")))
}

/// The circles among sibling modules, each as the modules along it (`a → b → a`), one per
/// circle found from its smallest module.
pub fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut siblings: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, named) in graph {
        for to in named {
            if let Some((from, to)) = between_siblings(from, to) {
                siblings.entry(from).or_default().insert(to);
            }
        }
    }
    let mut found = vec![];
    for start in siblings.keys() {
        // Depth first from `start`, remembering how each module was reached, until `start`
        // comes back.
        let mut came_from: BTreeMap<&String, &String> = BTreeMap::new();
        let mut stack: Vec<(&String, &String)> =
            siblings[start].iter().map(|next| (start, next)).collect();
        while let Some((from, module)) = stack.pop() {
            if module == start {
                let mut path = vec![start.as_str()];
                let mut at = from;
                while at != start {
                    path.push(at);
                    at = came_from[at];
                }
                path.push(start);
                let last = path.len() - 1;
                path[1..last].reverse();
                if path.iter().all(|module| *module >= start.as_str()) {
                    found.push(path.join(" → "));
                }
                break;
            }
            if !came_from.contains_key(module) {
                came_from.insert(module, from);
                let next = siblings.get(module).into_iter().flatten();
                stack.extend(next.map(|next| (module, next)));
            }
        }
    }
    found
}

/// Asserts that the crate at `crate_dir` (its `CARGO_MANIFEST_DIR`) has exactly the circles
/// `known` (none, but for a debt its test names), after checking the checker itself.
pub fn assert_circles(crate_dir: &str, known: &[&str]) {
    check_the_checker();
    let files = sources(crate_dir, Path::new(""));
    assert!(files.len() > 3, "{crate_dir}/src has hardly any sources");
    let found = circles(&module_graph(&files));
    assert_eq!(
        found,
        known,
        "modules on a circle (beyond the known ones, or a known one gone):\n{}",
        found.join("\n")
    );
}

/// Checks of the checker itself, on made-up modules, so that a check that passes on a tree it
/// misreads fails here.
fn check_the_checker() {
    let file = |name: &str, text: &str| (name.to_string(), text.to_string());
    // The server's old circle: the command language called the mail door's commands, which
    // answered with the command language's reply type, each through another file.
    let files = [
        file("lib.rs", "mod doors;"),
        file("doors/mod.rs", "mod command; mod mail;"),
        file("doors/command/mod.rs", "pub struct Reply; mod accounts;"),
        file(
            "doors/command/accounts.rs",
            "use crate::doors::mail::commands as mail;",
        ),
        file("doors/mail/mod.rs", "mod commands;"),
        file(
            "doors/mail/commands.rs",
            "use crate::doors::command::Reply; // crate::x",
        ),
    ];
    let graph = module_graph(&files);
    assert_eq!(
        graph["doors::command::accounts"],
        BTreeSet::from(["doors::mail::commands".to_string()])
    );
    assert_eq!(
        circles(&graph),
        ["doors::command → doors::mail → doors::command"]
    );
    // One way only: no circle; a child naming its parent or the parent its child is no arrow.
    let one_way = [
        file("lib.rs", "mod a; mod b;"),
        file("a/mod.rs", "use crate::b::Thing; mod inner;"),
        file("a/inner.rs", "use super::Up; use crate::a::Up;"),
        file("b/mod.rs", "// use crate::a::Thing;"),
    ];
    assert!(circles(&module_graph(&one_way)).is_empty());
    assert_eq!(
        between_siblings("doors::command::accounts", "doors::mail::commands"),
        Some(("doors::command".into(), "doors::mail".into()))
    );
    assert_eq!(between_siblings("a::inner", "a"), None);
}
