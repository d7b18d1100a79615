//! The layout stays true: every module imports only downward. Reads `src/` as text (the paths
//! each file names, `crate::…` and `super::…`, outside its test modules) and fails on an import
//! loop between the top-level modules of `src/`, or between the files of one folder.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path, `["render", "placement"]`, from its file under `src/`.
fn module_of(file: &Path) -> Vec<String> {
    let relative = file.strip_prefix("src").unwrap();
    let mut parts: Vec<String> = relative
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// The code of a file: its comments left out (a doc may name any module), and its
/// `#[cfg(test)]` items (a test module may reach anywhere).
fn code_of(text: &str) -> String {
    let code: Vec<&str> = text
        .lines()
        .map(|line| {
            if line.trim_start().starts_with("//") {
                return "";
            }
            // A trailing comment, where the quotes before it are balanced.
            match line.find(" //") {
                Some(at) if line[..at].matches('"').count() % 2 == 0 => &line[..at],
                _ => line,
            }
        })
        .collect();
    without_tests(&code.join("\n"))
}

/// The text of a file without its `#[cfg(test)]` items (a test module may reach anywhere).
fn without_tests(text: &str) -> String {
    let mut kept = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..at]);
        let after = &rest[at..];
        // Skip the attribute's item: up to its first `{` and the matching `}`, or a `;`.
        let open = after.find('{');
        let semicolon = after.find(';');
        match (open, semicolon) {
            (Some(open), Some(semicolon)) if semicolon < open => {
                rest = &after[semicolon + 1..];
            }
            (Some(open), _) => {
                let mut depth = 0;
                let mut end = after.len();
                for (offset, byte) in after[open..].bytes().enumerate() {
                    match byte {
                        b'{' => depth += 1,
                        b'}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = open + offset + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                rest = &after[end..];
            }
            _ => rest = "",
        }
    }
    kept.push_str(rest);
    kept
}

/// The paths a file names: every `crate::a::b…` and `super::…`, made absolute. Braced groups
/// (`use crate::{a, b::c}`) are opened one level.
fn named_paths(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let bytes = text.as_bytes();
    let is_ident = |byte: u8| byte.is_ascii_alphanumeric() || byte == b'_';
    let mut at = 0;
    while at < text.len() {
        let starts = ["crate::", "super::"]
            .iter()
            .find(|start| bytes[at..].starts_with(start.as_bytes()))
            .filter(|_| at == 0 || !is_ident(bytes[at - 1]) && bytes[at - 1] != b':');
        let Some(start) = starts else {
            at += 1;
            continue;
        };
        let mut base: Vec<String> = if *start == "crate::" {
            Vec::new()
        } else {
            // A module's parent, whether it is a file or a folder's mod.rs.
            let mut parent = module.to_vec();
            parent.pop();
            parent
        };
        let mut end = at + start.len();
        // More `super::`.
        while bytes[end..].starts_with(b"super::") {
            base.pop();
            end += "super::".len();
        }
        let segment_end = |from: usize| {
            let mut to = from;
            while to < bytes.len() && (is_ident(bytes[to]) || bytes[to..].starts_with(b"::")) {
                to += if bytes[to..].starts_with(b"::") { 2 } else { 1 };
            }
            to
        };
        let stop = segment_end(end);
        let mut path = base.clone();
        path.extend(
            text[end..stop]
                .trim_end_matches("::")
                .split("::")
                .filter(|segment| !segment.is_empty())
                .map(String::from),
        );
        if bytes[stop..].starts_with(b"{") {
            let close = text[stop..]
                .find('}')
                .map_or(text.len(), |close| stop + close);
            for item in text[stop + 1..close].split(',') {
                let item = item.trim();
                let mut grouped = path.clone();
                grouped.extend(
                    item.split("::")
                        .map(|segment| segment.trim().to_string())
                        .filter(|segment| !segment.is_empty() && segment != "self"),
                );
                paths.push(grouped);
            }
        } else {
            paths.push(path);
        }
        at = stop.max(at + 1);
    }
    paths
}

/// The longest module that `path` starts with.
fn module_named<'a>(
    path: &[String],
    modules: &'a BTreeSet<Vec<String>>,
) -> Option<&'a Vec<String>> {
    (1..=path.len())
        .rev()
        .find_map(|length| modules.get(&path[..length]))
}

/// The strongly connected components of more than one node.
fn loops(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Small graphs: a node is in a loop with another when each reaches the other.
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut pending = vec![from.clone()];
        while let Some(node) = pending.pop() {
            for next in edges.get(&node).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    pending.push(next.clone());
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|node| (node, reach(node))).collect();
    let mut components: Vec<Vec<String>> = Vec::new();
    let mut placed = BTreeSet::new();
    for (node, reaches) in &reachable {
        if placed.contains(*node) {
            continue;
        }
        let mut component: Vec<String> = reaches
            .iter()
            .filter(|other| {
                *other != *node
                    && reachable
                        .get(other)
                        .is_some_and(|back| back.contains(*node))
            })
            .cloned()
            .collect();
        if component.is_empty() {
            continue;
        }
        component.push((*node).clone());
        component.sort();
        placed.extend(component.iter().cloned());
        components.push(component);
    }
    components
}

#[test]
fn modules_import_only_downward() {
    let files: Vec<PathBuf> = walkdir::WalkDir::new("src")
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "rs"))
        .map(|entry| entry.into_path())
        .filter(|path| path != Path::new("src/main.rs") && path != Path::new("src/cli.rs"))
        .collect();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|file| module_of(file)).collect();
    // Edges between top-level modules, and between files of one folder, with the names that
    // make each, for the message.
    let mut top: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut siblings: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    let mut why: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(file);
        if module.is_empty() {
            continue;
        }
        let text = code_of(&std::fs::read_to_string(file).unwrap());
        for path in named_paths(&text, &module) {
            let Some(target) = module_named(&path, &modules) else {
                continue;
            };
            if target.is_empty() {
                continue;
            }
            let name = path.join("::");
            if target[0] != module[0] {
                top.entry(module[0].clone())
                    .or_default()
                    .insert(target[0].clone());
                why.entry((module[0].clone(), target[0].clone()))
                    .or_default()
                    .insert(format!("{} names {name}", file.display()));
                continue;
            }
            // Within one folder: the first segments where the two differ, if both go on.
            let shared = module
                .iter()
                .zip(target.iter())
                .take_while(|(a, b)| a == b)
                .count();
            if shared < module.len() && shared < target.len() {
                let folder = module[..shared].to_vec();
                let (from, to) = (module[shared].clone(), target[shared].clone());
                siblings
                    .entry(folder.clone())
                    .or_default()
                    .entry(from.clone())
                    .or_default()
                    .insert(to.clone());
                why.entry((
                    format!("{}/{from}", folder.join("/")),
                    format!("{}/{to}", folder.join("/")),
                ))
                .or_default()
                .insert(format!("{} names {name}", file.display()));
            }
        }
    }
    let mut problems = Vec::new();
    let describe =
        |component: &[String], prefix: &str, why: &BTreeMap<(String, String), BTreeSet<String>>| {
            let mut text = format!("import loop: {}\n", component.join(", "));
            for from in component {
                for to in component {
                    if let Some(reasons) =
                        why.get(&(format!("{prefix}{from}"), format!("{prefix}{to}")))
                    {
                        for reason in reasons.iter().take(3) {
                            text.push_str(&format!("  {from} -> {to}: {reason}\n"));
                        }
                    }
                }
            }
            text
        };
    for component in loops(&top) {
        problems.push(describe(&component, "", &why));
    }
    for (folder, edges) in &siblings {
        for component in loops(edges) {
            problems.push(describe(
                &component,
                &format!("{}/", folder.join("/")),
                &why,
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_reader_sees_paths_as_rust_does() {
    let module = vec!["render".to_string(), "placement".to_string()];
    let text = "use crate::emit::{HEADER, layout::TreeLayout};\nuse super::plan::Entry;\nfn f() { crate::yaml::write(); }\n#[cfg(test)]\nmod tests { use crate::diff::X; }\n";
    let paths = named_paths(&without_tests(text), &module);
    let joined: Vec<String> = paths.iter().map(|path| path.join("::")).collect();
    assert_eq!(
        joined,
        [
            "emit::HEADER",
            "emit::layout::TreeLayout",
            "render::plan::Entry",
            "yaml::write"
        ]
    );
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    edges.entry("a".into()).or_default().insert("b".into());
    edges.entry("b".into()).or_default().insert("a".into());
    edges.entry("c".into()).or_default().insert("a".into());
    assert_eq!(loops(&edges), vec![vec!["a".to_string(), "b".to_string()]]);
}
