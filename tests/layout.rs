//! The layout stays true. Two crates: the engine (`engine/src/`), documents in, rendered
//! documents and diagnostics out, and the shell around it (`src/`, the `fedrender` package).
//! Reads each crate's sources as text (the paths each file names, `crate::…` and `super::…`,
//! outside its test modules) and fails on an import loop between the top-level modules of a
//! crate, or between the files of one folder; on a file that imports from a folder's `mod.rs`
//! above it (what a child needs lives below it); on a `main.rs` that does more than parse the
//! command line and run the command; and on anything in the engine that touches a file, a
//! process, the environment or the terminal.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The engine's sources, and the shell's.
const ENGINE: &str = "engine/src";
const SHELL: &str = "src";

/// A module path, `["render", "placement"]`, from its file under the crate's `root`.
fn module_of(root: &str, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(root).unwrap();
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

/// The `.rs` files of a crate, sorted.
fn rust_files(root: &str) -> Vec<PathBuf> {
    walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "rs"))
        .map(|entry| entry.into_path())
        .collect()
}

/// The modules a `#[cfg(test)] mod name;` declares: test code in a file of its own, which may
/// reach anywhere.
fn test_only_modules(root: &str, files: &[PathBuf]) -> BTreeSet<Vec<String>> {
    let mut test_only = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("#[cfg(test)]") {
            rest = &rest[at + "#[cfg(test)]".len()..];
            let item = rest.trim_start();
            let item = item.strip_prefix("pub ").unwrap_or(item);
            if let Some(declared) = item.strip_prefix("mod ")
                && let Some((name, _)) = declared.split_once(';')
                && !name.contains('{')
            {
                let mut module = module_of(root, file);
                module.push(name.trim().to_string());
                test_only.insert(module);
            }
        }
    }
    test_only
}

/// Whether `module` is test code: a test-only module or inside one.
fn is_test_only(module: &[String], test_only: &BTreeSet<Vec<String>>) -> bool {
    (1..=module.len()).any(|length| test_only.contains(&module[..length]))
}

/// The import problems of one crate: loops between its top-level modules and between the
/// files of one folder, and files naming what a folder's `mod.rs` above them defines. A
/// binary's `main.rs` names the library as `fedrender::`, read as `crate::`.
/// What a crate's files import: edges between top-level modules and between files of one
/// folder, with the names that make each edge, and the files that name an item of a `mod.rs`
/// above them.
struct Imports {
    top: BTreeMap<String, BTreeSet<String>>,
    siblings: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>>,
    why: BTreeMap<(String, String), BTreeSet<String>>,
    problems: Vec<String>,
}

fn read_imports(root: &str) -> Imports {
    let files = rust_files(root);
    let test_only = test_only_modules(root, &files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|file| module_of(root, file)).collect();
    // Edges between top-level modules, and between files of one folder, with the names that
    // make each, for the message.
    let mut top: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut siblings: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    let mut why: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    let mut problems = Vec::new();
    for file in &files {
        let module = module_of(root, file);
        if module.is_empty() || is_test_only(&module, &test_only) {
            continue;
        }
        let mut text = code_of(&std::fs::read_to_string(file).unwrap());
        if module == ["main"] {
            text = text.replace("fedrender::", "crate::");
        }
        for path in named_paths(&text, &module) {
            let name = path.join("::");
            // An item of lib.rs, when the path names no module.
            let target = module_named(&path, &modules).cloned().unwrap_or_default();
            if target.len() < module.len() && module.starts_with(&target) {
                let parent = match target.is_empty() {
                    true => "lib.rs".to_string(),
                    false => format!("{}/mod.rs", target.join("/")),
                };
                problems.push(format!(
                    "{} names {name}, defined in {parent} above it: move it into a file of its \
                     own below both",
                    file.display()
                ));
                continue;
            }
            if target.is_empty() {
                continue;
            }
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
    Imports {
        top,
        siblings,
        why,
        problems,
    }
}

fn import_problems(root: &str) -> Vec<String> {
    let Imports {
        top,
        siblings,
        why,
        mut problems,
    } = read_imports(root);
    let describe =
        |component: &[String], prefix: &str, why: &BTreeMap<(String, String), BTreeSet<String>>| {
            let mut text = format!("import loop in {root}: {}\n", component.join(", "));
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
    // main.rs is thin: it parses the command line and runs the command.
    if let Some(named) = top.get("main") {
        let beyond: Vec<&String> = named
            .iter()
            .filter(|module| *module != "cli" && *module != "commands")
            .collect();
        if !beyond.is_empty() {
            problems.push(format!(
                "main.rs names {beyond:?}: it only parses the command line (cli) and runs the \
                 command (commands)"
            ));
        }
    }
    problems
}

/// The rooms of `root` as ARCHITECTURE.md's table for it lists them, top to bottom: each
/// room's name and modules.
fn rooms(architecture: &str, root: &str) -> Vec<(String, Vec<String>)> {
    let start = format!("<!-- rooms: {root} -->");
    let table = architecture
        .split_once(&start)
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no {start}"))
        .1;
    let table = table
        .split_once("<!-- end rooms -->")
        .expect("the rooms table ends")
        .0;
    table
        .lines()
        .filter(|line| line.starts_with('|'))
        .skip(2)
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let modules = cells[2]
                .split(',')
                .map(|module| module.trim().trim_matches('`').to_string())
                .collect();
            (cells[1].to_string(), modules)
        })
        .collect()
}

/// The top-level modules of `root` (`main` for a `main.rs`), outside test-only ones.
fn top_level_modules(root: &str) -> BTreeSet<String> {
    let files = rust_files(root);
    let test_only = test_only_modules(root, &files);
    files
        .iter()
        .map(|file| module_of(root, file))
        .filter(|module| !module.is_empty() && !is_test_only(module, &test_only))
        .map(|module| module[0].clone())
        .collect()
}

/// What breaks ARCHITECTURE.md's table of `root`'s rooms: a module it does not list (or lists
/// twice), one it lists that is not there, and an import of a room above the importer's.
fn room_problems(architecture: &str, root: &str) -> Vec<String> {
    let rooms = rooms(architecture, root);
    let mut room_of: BTreeMap<String, usize> = BTreeMap::new();
    let mut problems = Vec::new();
    for (index, (_, modules)) in rooms.iter().enumerate() {
        for module in modules {
            if room_of.insert(module.clone(), index).is_some() {
                problems.push(format!("ARCHITECTURE.md lists {root}'s {module} twice"));
            }
        }
    }
    let present = top_level_modules(root);
    for module in &present {
        if !room_of.contains_key(module) {
            problems.push(format!(
                "{root}/{module} is in no room of ARCHITECTURE.md: add it to the room it belongs \
                 to (or a new one)"
            ));
        }
    }
    for module in room_of.keys() {
        if !present.contains(module) {
            problems.push(format!(
                "ARCHITECTURE.md lists {module} among {root}'s rooms, and there is no such module"
            ));
        }
    }
    let imports = read_imports(root);
    for (from, targets) in &imports.top {
        for to in targets {
            let (Some(&from_room), Some(&to_room)) = (room_of.get(from), room_of.get(to)) else {
                continue;
            };
            if to_room < from_room {
                let reasons = &imports.why[&(from.clone(), to.clone())];
                problems.push(format!(
                    "{root}: {from} (room {}) uses {to}, of room {} above it, against \
                     ARCHITECTURE.md's order: {}",
                    rooms[from_room].0,
                    rooms[to_room].0,
                    reasons
                        .iter()
                        .take(3)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join("; ")
                ));
            }
        }
    }
    problems
}

/// ARCHITECTURE.md's rooms hold: every module of each crate is in one, and every import goes
/// to the importer's room or one below it.
#[test]
fn every_module_is_in_a_room_and_imports_go_down_the_rooms() {
    let architecture = std::fs::read_to_string("ARCHITECTURE.md").unwrap();
    let problems: Vec<String> = [ENGINE, SHELL]
        .into_iter()
        .flat_map(|root| room_problems(&architecture, root))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The room test fails where it should: a module no room lists, and an import upward.
#[test]
fn the_room_test_refuses_an_unlisted_module_and_an_upward_import() {
    let architecture = std::fs::read_to_string("ARCHITECTURE.md").unwrap();
    let without_progress = architecture.replacen(", `progress` |", " |", 1);
    assert_ne!(
        without_progress, architecture,
        "the foundation room lists progress"
    );
    let problems = room_problems(&without_progress, ENGINE);
    assert!(
        problems
            .iter()
            .any(|problem| problem.contains("engine/src/progress is in no room")),
        "{problems:?}"
    );
    // The door uses the rendering room; put above it, rendering would use a room below it.
    let rendering_on_top = architecture.replacen(
        "| door | `run` |",
        "| door | `render`, `work`, `output` |",
        1,
    );
    let rendering_on_top = rendering_on_top.replacen(
        "| rendering | `render`, `work`, `output` |",
        "| rendering | `run` |",
        1,
    );
    let problems = room_problems(&rendering_on_top, ENGINE);
    assert!(
        problems
            .iter()
            .any(|problem| problem.contains("uses render, of room door above it")),
        "{problems:?}"
    );
}

/// Each package's tests are one binary: its manifest turns test discovery off and names one
/// test target, `tests/main.rs`, and every file and folder under `tests/` is a module of it, so
/// that no test file is silently left out (with `autotests = false` cargo would not build it).
fn test_binary_problems(package: &str) -> Vec<String> {
    let dir = Path::new(package);
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let mut problems = Vec::new();
    if !manifest
        .lines()
        .any(|line| line.trim() == "autotests = false")
    {
        problems.push(format!(
            "{}: autotests is not false",
            dir.join("Cargo.toml").display()
        ));
    }
    let targets = manifest.matches("[[test]]").count();
    if targets != 1 || !manifest.contains("path = \"tests/main.rs\"") {
        problems.push(format!(
            "{}: {targets} [[test]] targets; one, tests/main.rs, is the package's test binary",
            dir.join("Cargo.toml").display()
        ));
    }
    let tests = dir.join("tests");
    let main = std::fs::read_to_string(tests.join("main.rs")).unwrap();
    let declared: BTreeSet<String> = code_of(&main)
        .lines()
        .filter_map(|line| line.trim().strip_prefix("mod "))
        .map(|rest| rest.trim_end_matches(';').trim().to_string())
        .collect();
    for entry in std::fs::read_dir(&tests).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let module = match name.strip_suffix(".rs") {
            Some("main") => continue,
            Some(module) => module.to_string(),
            None if path.is_dir() && name != "snapshots" => name.clone(),
            None => continue,
        };
        if !declared.contains(&module) {
            problems.push(format!(
                "{} is not a module of {}: add `mod {module};` there, or the tests in it never run",
                path.display(),
                tests.join("main.rs").display()
            ));
        }
    }
    problems
}

#[test]
fn each_packages_tests_are_one_binary() {
    let problems: Vec<String> = [".", "engine"]
        .into_iter()
        .flat_map(test_binary_problems)
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The shell's modules a test may name (ARCHITECTURE.md, "The tests"): its readers. The rest of
/// the shell is reached through the binary, as a user reaches it.
const SHELL_READERS: [&str; 2] = [
    "fedrender::source::fleet",
    "fedrender::source::rendered_tree",
];

/// Each path into the shell (`fedrender::…`) that a test file names and that is not a reader.
fn shell_paths_in_tests(tests: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for file in rust_files(tests) {
        let code = code_of(&std::fs::read_to_string(&file).unwrap());
        for (at, _) in code.match_indices("fedrender::") {
            // `fedrender_engine::` is the engine's door, not the shell.
            if at > 0 && code.as_bytes()[at - 1].is_ascii_alphanumeric() {
                continue;
            }
            let path: String = code[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let path = path.trim_end_matches(':');
            if !SHELL_READERS
                .iter()
                .any(|reader| path == *reader || path.starts_with(&format!("{reader}::")))
            {
                problems.push(format!(
                    "{} names {path}: a test reaches the shell through the binary (or its readers, {})",
                    file.display(),
                    SHELL_READERS.join(", ")
                ));
            }
        }
    }
    problems
}

#[test]
fn tests_reach_the_shell_through_the_binary_or_its_readers() {
    let problems: Vec<String> = shell_paths_in_tests("tests")
        .into_iter()
        .filter(|problem| !problem.starts_with("tests/layout.rs"))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_shell_path_test_refuses_a_command_and_takes_a_reader() {
    let dir = crate::common::empty_scratch("layout-shell-paths");
    std::fs::write(
        dir.join("case.rs"),
        "use fedrender::source::fleet::read_fleet;\nuse fedrender_engine::run::Run;\n\
         fn f() { fedrender::commands::diff::diff(); }\n",
    )
    .unwrap();
    let problems = shell_paths_in_tests(dir.to_str().unwrap());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("names fedrender::commands::diff::diff"),
        "{problems:?}"
    );
}

#[test]
fn modules_import_only_downward() {
    let problems: Vec<String> = [ENGINE, SHELL]
        .into_iter()
        .flat_map(import_problems)
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Crates the engine may not depend on: they walk directories, run or signal processes, read
/// the command line, or replace the allocator. The shell is theirs.
const IO_CRATES: [&str; 8] = [
    "walkdir",
    "clap",
    "clap_complete",
    "signal-hook",
    "rustix",
    "libc",
    "mimalloc",
    "fedrender",
];

/// Paths the engine's code may not name outside its tests (engine/clippy.toml disallows the
/// same calls): the standard library's file system, processes, environment and terminal, and
/// the crates above.
const IO_PATHS: [&str; 13] = [
    "std::fs",
    "std::process",
    "std::env",
    "std::io::stdin",
    "std::io::stdout",
    "std::io::stderr",
    "walkdir::",
    "clap::",
    "clap_complete::",
    "signal_hook::",
    "rustix::",
    "libc::",
    "mimalloc::",
];

/// Printing macros, which live in the shell.
const PRINTING: [&str; 5] = ["print!", "println!", "eprint!", "eprintln!", "dbg!"];

/// Every `std::…` path a text names, braced groups (`use std::{fs, io::Read}`) opened one
/// level, as `std::fs`, `std::io::Read`.
fn std_paths(text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("std::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "std::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let path = format!("std::{}", &rest[..end]);
        if rest[end..].starts_with('{') {
            let close = rest[end..]
                .find('}')
                .map_or(rest.len(), |close| end + close);
            for item in rest[end + 1..close].split(',') {
                paths.push(format!("{path}{}", item.trim()));
            }
        } else {
            paths.push(path.trim_end_matches(':').to_string());
        }
    }
    paths
}

/// What in the engine's code (tests aside) reads, writes, runs or prints.
fn io_in_engine_code(file: &str, code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for path in std_paths(code) {
        if let Some(forbidden) = IO_PATHS
            .iter()
            .find(|forbidden| path == **forbidden || path.starts_with(&format!("{forbidden}::")))
        {
            found.push(format!("{file} names {path} ({forbidden})"));
        }
    }
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    for forbidden in IO_PATHS.iter().filter(|path| !path.starts_with("std::")) {
        for (at, _) in code.match_indices(forbidden) {
            if !code[..at].ends_with(|c: char| is_ident(c) || c == ':') {
                found.push(format!("{file} names {forbidden}"));
            }
        }
    }
    for forbidden in PRINTING {
        for (at, _) in code.match_indices(forbidden) {
            if !code[..at].ends_with(|c: char| is_ident(c) || c == ':') {
                found.push(format!("{file} prints with {forbidden}"));
            }
        }
    }
    found
}

/// The dependencies a manifest lists, in every dependency table.
fn dependencies(manifest: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_dependencies = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line.ends_with("dependencies]");
            continue;
        }
        if in_dependencies && let Some((name, _)) = line.split_once('=') {
            names.push(name.trim().to_string());
        }
    }
    names
}

#[test]
fn the_engine_touches_no_file_process_environment_or_terminal() {
    let manifest = std::fs::read_to_string("engine/Cargo.toml").unwrap();
    let depends = dependencies(&manifest);
    assert!(depends.contains(&"serde_json".to_string()), "{depends:?}");
    let mut problems: Vec<String> = depends
        .iter()
        .filter(|name| IO_CRATES.contains(&name.as_str()))
        .map(|name| format!("engine/Cargo.toml depends on {name}"))
        .collect();
    let files = rust_files(ENGINE);
    let test_only = test_only_modules(ENGINE, &files);
    for file in &files {
        if is_test_only(&module_of(ENGINE, file), &test_only) {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        problems.extend(io_in_engine_code(&file.display().to_string(), &code));
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
    let text = "use std::{fs, io::Read};\nfn f() { std::env::var(\"X\"); mystd::fs::x(); }\n";
    assert_eq!(
        std_paths(text),
        ["std::fs", "std::io::Read", "std::env::var"]
    );
    let code = "use std::io::Write;\nfn f(out: &mut Vec<u8>) { writeln!(out); eprintln!(); \
                walkdir::WalkDir::new(\".\"); }\n";
    assert_eq!(
        io_in_engine_code("x.rs", code),
        ["x.rs names walkdir::", "x.rs prints with eprintln!"]
    );
}
