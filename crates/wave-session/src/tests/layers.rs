//! The crate's modules import downwards only: no module reaches, through `crate::` paths, a
//! module that reaches back to it. Read from the sources, so that an upward import fails here
//! before it tangles the parts (ARCHITECTURE.md's code map shows the layers).
//!
//! Each top-level module is one node (a directory module, like `session/`, with its files); a
//! `crate::Name` that the crate root re-exports counts as an import of the module it comes from.
//! A file's `#[cfg(test)]` section, always at its end, is left out: tests may use the whole
//! crate.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, depth first.
fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("the source directory reads")
        .map(|e| e.expect("a directory entry reads").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// `text` without comments and without its `#[cfg(test)]` section.
fn production_code(text: &str) -> String {
    without_comments(text.split("#[cfg(test)]").next().unwrap_or(""))
}

fn without_comments(text: &str) -> String {
    let mut code = String::new();
    let mut in_block = false;
    for line in text.lines() {
        let mut rest = line;
        let mut kept = String::new();
        loop {
            if in_block {
                match rest.find("*/") {
                    Some(end) => {
                        in_block = false;
                        rest = &rest[end + 2..];
                    }
                    None => break,
                }
            } else {
                let line_comment = rest.find("//");
                let block_comment = rest.find("/*");
                match (line_comment, block_comment) {
                    (Some(l), b) if b.is_none_or(|b| l < b) => {
                        kept.push_str(&rest[..l]);
                        break;
                    }
                    (_, Some(b)) => {
                        kept.push_str(&rest[..b]);
                        in_block = true;
                        rest = &rest[b + 2..];
                    }
                    (_, None) => {
                        kept.push_str(rest);
                        break;
                    }
                }
            }
        }
        code.push_str(&kept);
        code.push('\n');
    }
    code
}

fn identifier_at(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The first names after each `crate::` in `code`: `crate::a::b` gives `a`, and
/// `crate::{a::x, B}` gives `a` and `B`.
fn crate_paths(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        // `pub(crate)` and `$crate::` are no paths into the crate.
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut item_start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => item_start = true,
                    c if item_start && depth == 1 && !c.is_whitespace() => {
                        item_start = false;
                        names.push(identifier_at(&group[i..]).to_string());
                    }
                    _ => {}
                }
            }
        } else {
            names.push(identifier_at(rest).to_string());
        }
    }
    names
}

/// The modules the crate root declares, and for each name it re-exports, its module.
fn crate_root(lib: &str) -> (BTreeSet<String>, BTreeMap<String, String>) {
    // The root's test module is declared among the others, so the whole file is read.
    let code = without_comments(lib);
    let mut modules = BTreeSet::new();
    let mut exports = BTreeMap::new();
    for statement in code.split(';') {
        // Attributes (`#![forbid(..)]`, `#[cfg(test)]`) stand before a declaration.
        let statement = statement
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n");
        let statement = statement.trim();
        let declared = statement
            .strip_prefix("pub mod ")
            .or_else(|| statement.strip_prefix("mod "));
        if let Some(name) = declared {
            modules.insert(name.trim().to_string());
        }
        let Some(path) = statement.strip_prefix("pub use ") else {
            continue;
        };
        let module = identifier_at(path).to_string();
        let items = match path.find('{') {
            Some(open) => path[open + 1..].trim_end_matches('}').to_string(),
            None => path.rsplit("::").next().unwrap_or("").to_string(),
        };
        for item in items.split(',') {
            // `Entry as ProgressEntry` is reached as `ProgressEntry`.
            let name = item.split(" as ").last().unwrap_or("").trim();
            if !name.is_empty() {
                exports.insert(name.to_string(), module.clone());
            }
        }
    }
    (modules, exports)
}

/// Which modules each module imports.
fn module_imports(source_dir: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let lib = fs::read_to_string(source_dir.join("lib.rs")).expect("lib.rs reads");
    let (modules, exports) = crate_root(&lib);
    let mut files = Vec::new();
    rust_files(source_dir, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let relative = file
            .strip_prefix(source_dir)
            .expect("under the source directory");
        let first = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .unwrap_or("");
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "tests" {
            continue;
        }
        assert!(
            modules.contains(&module),
            "{} is no module lib.rs declares",
            relative.display()
        );
        let code = production_code(&fs::read_to_string(&file).expect("a source file reads"));
        let imports = graph.entry(module.clone()).or_default();
        for name in crate_paths(&code) {
            let target = if modules.contains(&name) {
                Some(name)
            } else {
                exports.get(&name).filter(|m| modules.contains(*m)).cloned()
            };
            if let Some(target) = target.filter(|t| *t != module) {
                imports.insert(target);
            }
        }
    }
    graph
}

/// A cycle in `graph`, as the modules along it (the first one again at the end), if any.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        module: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(module) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let start = path.iter().position(|m| m == module).unwrap_or(0);
                let mut cycle = path[start..].to_vec();
                cycle.push(module.to_string());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(module.to_string(), Mark::Open);
        path.push(module.to_string());
        for next in graph.get(module).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, marks, path) {
                return Some(cycle);
            }
        }
        path.pop();
        marks.insert(module.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    graph
        .keys()
        .find_map(|module| visit(module, graph, &mut marks, &mut Vec::new()))
}

fn source_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_module_of_the_crate_imports_one_that_imports_it_back() {
    let graph = module_imports(&source_dir());
    // The parts and the façade are all seen, so the check below checks the crate.
    for module in ["build", "run", "view", "session", "caption", "quiz"] {
        assert!(graph.contains_key(module), "{module} is read");
    }
    assert_eq!(
        find_cycle(&graph),
        None,
        "an import circle between the crate's modules (each imports the next)"
    );
}

#[test]
fn the_parts_sit_below_the_facade_and_the_readers() {
    let graph = module_imports(&source_dir());
    let imports = |module: &str| graph.get(module).cloned().unwrap_or_default();
    // The parts import no reader and not the façade: each can be held twice by a view that
    // compares runs.
    for part in ["build", "run", "view"] {
        for above in [
            "session", "shown", "caption", "lanes", "stack", "status", "timeline",
        ] {
            assert!(
                !imports(part).contains(above),
                "the part {part} imports {above}, which sits above it"
            );
        }
    }
    // Nothing but the crate root imports the façade.
    let into_session: Vec<&String> = graph
        .iter()
        .filter(|(_, imports)| imports.contains("session"))
        .map(|(module, _)| module)
        .collect();
    assert!(
        into_session.is_empty(),
        "{into_session:?} import the session façade"
    );
}

#[test]
fn the_reader_finds_imports_in_each_form_and_cycles_through_them() {
    let code = production_code(
        "use crate::a::X;\nuse crate::{b::Y, C};\n// crate::commented\npub(crate) fn f() { crate::d::g() }\n/* crate::e */\n",
    );
    assert_eq!(crate_paths(&code), ["a", "b", "C", "d"]);
    let graph = |edges: &[(&str, &str)]| {
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, to) in edges {
            graph
                .entry(from.to_string())
                .or_default()
                .insert(to.to_string());
            graph.entry(to.to_string()).or_default();
        }
        graph
    };
    assert_eq!(find_cycle(&graph(&[("a", "b"), ("b", "c")])), None);
    assert_eq!(
        find_cycle(&graph(&[("a", "b"), ("b", "c"), ("c", "a")])),
        Some(vec![
            "a".to_string(),
            "b".to_string(),
            "c".to_string(),
            "a".to_string()
        ])
    );
}
