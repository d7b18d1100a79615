//! The documentation is a test: every ```console block in README.md and in the book under
//! docs/ is run against the built binary, and what each `$ fedrender …` line prints (standard
//! output and standard error together) and its exit status must be what the page shows. A line
//! holding only `...` stands for any lines, `[..]` for the rest of a line.
//!
//! Each page runs in a scratch directory of its own holding a copy of examples/, so its commands
//! name `examples/…` as a reader in the repository would, and may write `--out rendered`
//! without touching the checkout. After a deliberate change of output, rewrite the pages'
//! expected output with `TRYCMD=overwrite cargo test --test integration docs::` and read the
//! diff.

use std::path::{Path, PathBuf};

/// README.md and every page of the book, in a fixed order.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut book: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "md"))
        .collect();
    book.sort();
    let mut pages = vec![root.join("README.md")];
    pages.extend(book);
    pages
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A fresh directory for one page's commands, holding a copy of the page and, beside it, the
/// directory its commands run in (trycmd runs a page `NAME.md`'s commands in `NAME.in/` when
/// there is one), holding a copy of examples/. The commands run there, not in the test's
/// working directory, which the other tests of this binary share. Returns the copy of the page.
fn sandbox(page: &Path) -> PathBuf {
    let relative = page
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap()
        .with_extension("");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("docs")
        .join(relative.to_string_lossy().replace('/', "-"));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    let copy = dir.join(page.file_name().unwrap());
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"),
        &copy.with_extension("in").join("examples"),
    );
    std::fs::copy(page, &copy).unwrap();
    copy
}

/// The commands of the blocks trycmd runs (```console, ```trycmd, or a fence without a
/// language). trycmd skips, and so passes, a command whose program it does not know; every one
/// must therefore be fedrender, and a block meant for a shell must say `sh`.
fn commands(page: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut fence: Option<(String, bool)> = None;
    for line in page.lines() {
        let ticks = line.chars().take_while(|&c| c == '`').count();
        match &fence {
            None if ticks >= 3 => {
                let language = line[ticks..].trim().split(',').next().unwrap_or("");
                let ignored = line.contains("ignore");
                let runs = matches!(language, "" | "console" | "trycmd") && !ignored;
                fence = Some((line[..ticks].to_owned(), runs));
            }
            Some((ticks, _)) if line.starts_with(ticks.as_str()) => fence = None,
            Some((_, true)) => {
                if let Some(command) = line.strip_prefix("$ ") {
                    commands.push(command.to_owned());
                }
            }
            _ => {}
        }
    }
    commands
}

#[test]
fn console_examples_in_the_documentation_hold() {
    let mut failed = Vec::new();
    let mut run = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for command in commands(&text) {
            assert!(
                command.starts_with("fedrender "),
                "{}: `$ {command}` would be skipped: only fedrender runs in a console block; \
                 mark a block for other programs ```sh",
                page.display()
            );
            run += 1;
        }
        let copy = sandbox(&page);
        let checked = std::panic::catch_unwind(|| {
            trycmd::TestCases::new()
                .register_bin("fedrender", PathBuf::from(env!("CARGO_BIN_EXE_fedrender")))
                .case(&copy)
                .run();
        });
        // `TRYCMD=overwrite` rewrote the copy: the page gets what it wrote.
        if std::env::var_os("TRYCMD").is_some_and(|mode| mode == "overwrite") {
            std::fs::copy(&copy, &page).unwrap();
        }
        if checked.is_err() {
            failed.push(page.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "pages whose examples do not hold: {failed:?}"
    );
    assert!(run > 0, "no console example was found");
    println!("{run} documented commands ran");
}

/// What users read speaks their words: none of the project's own working material (the
/// articles it started from, its rule book, its judges) is named, since a user has none of it.
#[test]
fn what_users_read_names_nothing_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let jargon = [
        "../shared",
        "shared/seeds",
        "shared/spec",
        "shared/oracle",
        "the seeds",
        "seeds'",
        "seed 0",
        "spec §",
        ".md §",
    ];
    let mut read = pages();
    for folder in ["examples", "completions"] {
        read.extend(
            walkdir::WalkDir::new(root.join(folder))
                .into_iter()
                .map(|entry| entry.unwrap().into_path())
                .filter(|path| path.is_file()),
        );
    }
    let mut found = Vec::new();
    for path in &read {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        for (number, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            if let Some(word) = jargon.iter().find(|word| lower.contains(*word)) {
                let shown = path.strip_prefix(root).unwrap().display();
                found.push(format!("{shown}:{}: {word}", number + 1));
            }
        }
    }
    assert!(read.len() > 20, "too few files read: {}", read.len());
    assert!(found.is_empty(), "the team's jargon:\n{}", found.join("\n"));
}
