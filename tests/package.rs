//! What a user installs: the packages `cargo publish` would upload, the release archives and the
//! container image each carry the license and the notice of what they embed (Apache-2.0 §4); the
//! packages carry none of the repository's test fleets, snapshots or references; and every install
//! command the README shows is one a user can run today.

use std::process::Command;

/// The files of each package, as `cargo package --list` names them (no build, no network).
fn packaged_files() -> Vec<(String, Vec<String>)> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    ["fedrender", "fedrender-engine"]
        .into_iter()
        .map(|package| {
            let output = Command::new(&cargo)
                .args(["package", "--list", "--allow-dirty", "--package", package])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .output()
                .expect("cargo runs");
            assert!(
                output.status.success(),
                "cargo package --list -p {package} failed:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
            let files = String::from_utf8(output.stdout)
                .expect("file names are UTF-8")
                .lines()
                .map(str::to_string)
                .collect();
            (package.to_string(), files)
        })
        .collect()
}

#[test]
fn each_package_carries_the_license_and_notice_and_no_test_data() {
    for (package, files) in packaged_files() {
        for required in ["LICENSE", "NOTICE", "Cargo.toml", "src/lib.rs"] {
            assert!(
                files.iter().any(|file| file == required),
                "{package} leaves out {required}: {files:?}"
            );
        }
        let test_data: Vec<_> = files
            .iter()
            .filter(|file| {
                [
                    "testdata/",
                    "tests/",
                    "examples/",
                    "docs/",
                    ".ci/",
                    ".github/",
                    "fuzz/",
                ]
                .iter()
                .any(|folder| file.starts_with(folder))
                    || file.ends_with(".snap")
            })
            .collect();
        assert!(test_data.is_empty(), "{package} ships {test_data:?}");
    }
}

#[test]
fn the_command_line_package_holds_the_binary_and_the_engine_its_embedded_data() {
    let packages = packaged_files();
    let files_of = |name: &str| {
        &packages
            .iter()
            .find(|(package, _)| package == name)
            .expect("listed")
            .1
    };
    assert!(files_of("fedrender").contains(&"src/main.rs".to_string()));
    let engine = files_of("fedrender-engine");
    for embedded in [
        "src/check/schemas/kubernetes.defs.zz",
        "src/interpret/thirdparty/ray.io/v1/RayJob.lua",
    ] {
        assert!(
            engine.contains(&embedded.to_string()),
            "the engine package leaves out {embedded}, which it compiles in"
        );
    }
}

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(relative: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(ROOT).join(relative)).expect("readable")
}

/// The `run: |` script of the step named `name` in a workflow: its lines below `run: |`, as
/// deeply indented as the first of them.
fn step_script(workflow: &str, name: &str) -> String {
    let mut lines = workflow
        .lines()
        .skip_while(|line| line.trim() != format!("- name: {name}"));
    assert!(lines.next().is_some(), "no step {name}");
    let mut lines = lines
        .skip_while(|line| line.trim() != "run: |")
        .skip(1)
        .peekable();
    let first = lines.peek().expect("a script");
    let indent = first.len() - first.trim_start().len();
    lines
        .take_while(|line| line.trim().is_empty() || line.len() - line.trim_start().len() >= indent)
        .map(|line| line.get(indent..).unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The release workflow's own archive step, run on a stand-in binary: what it packs is what a
/// release archive holds.
#[test]
fn each_release_archive_carries_the_license_and_notice() {
    let script = step_script(&read(".github/workflows/release.yml"), "Archive");
    let dir = crate::common::empty_scratch("package-archive");
    for file in ["README.md", "CHANGELOG.md", "LICENSE", "NOTICE"] {
        std::fs::copy(std::path::Path::new(ROOT).join(file), dir.join(file)).unwrap();
    }
    for folder in ["docs", "completions"] {
        crate::common::copy_tree(&std::path::Path::new(ROOT).join(folder), &dir.join(folder));
    }
    let binary = dir.join("target/x86_64-unknown-linux-musl/dist");
    std::fs::create_dir_all(&binary).unwrap();
    std::fs::write(binary.join("fedrender"), "a stand-in binary").unwrap();
    let ran = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script])
        .env("TARGET", "x86_64-unknown-linux-musl")
        .env("VERSION", "v0.1.0")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let listed = Command::new("tar")
        .args([
            "-tzf",
            "dist/fedrender-v0.1.0-x86_64-unknown-linux-musl.tar.gz",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    let files = String::from_utf8(listed.stdout).unwrap();
    for required in [
        "LICENSE",
        "NOTICE",
        "fedrender",
        "README.md",
        "CHANGELOG.md",
    ] {
        assert!(
            files
                .lines()
                .any(|file| file == format!("fedrender-v0.1.0/{required}")),
            "the archive leaves out {required}:\n{files}"
        );
    }
}

/// Both images the Dockerfile builds (`with-tools` and the last, default one) are distroless
/// stages of their own: each must copy the license and the notice in itself.
#[test]
fn each_container_image_carries_the_license_and_notice() {
    let dockerfile = read("Dockerfile");
    let stages: Vec<&str> = dockerfile.split("\nFROM ").skip(1).collect();
    let images: Vec<&&str> = stages
        .iter()
        .filter(|stage| stage.starts_with("gcr.io/distroless/"))
        .collect();
    assert_eq!(images.len(), 2, "the images: {images:?}");
    for image in images {
        let copies = image
            .lines()
            .filter(|line| line.starts_with("COPY ") && !line.contains("--from="));
        assert!(
            copies
                .into_iter()
                .any(|line| line.contains(" LICENSE ") && line.contains(" NOTICE ")),
            "an image without LICENSE and NOTICE:\nFROM {image}"
        );
    }
}

/// Every install command the README shows must work today: no crate is published yet, so no
/// `cargo install` may name one from crates.io; a `--path` is a package in this checkout; a
/// `--git` names the repository Cargo.toml gives, at the version the Action installs; a release
/// download names that version and a target the release workflow builds.
#[test]
fn every_install_command_in_the_readme_can_run_today() {
    let readme = read("README.md");
    let manifest = read("Cargo.toml");
    let repository = manifest
        .lines()
        .find_map(|line| line.strip_prefix("repository = "))
        .expect("Cargo.toml names its repository")
        .trim_matches('"');
    let version = read(".github/action/VERSION").trim().to_string();
    let release = read(".github/workflows/release.yml");
    let mut installs = 0;
    for line in readme.lines().map(str::trim) {
        if let Some(arguments) = line.strip_prefix("cargo install ") {
            installs += 1;
            let words: Vec<&str> = arguments.split_whitespace().collect();
            let value_of = |flag: &str| {
                words
                    .iter()
                    .position(|word| *word == flag)
                    .map(|at| words[at + 1])
            };
            match (value_of("--path"), value_of("--git")) {
                (Some(path), None) => assert!(
                    std::path::Path::new(ROOT)
                        .join(path)
                        .join("Cargo.toml")
                        .is_file(),
                    "`{line}`: {path} is no package"
                ),
                (None, Some(git)) => {
                    assert_eq!(git, repository, "`{line}`: not the repository");
                    assert_eq!(value_of("--tag"), Some(version.as_str()), "`{line}`");
                }
                _ => panic!("`{line}` installs from crates.io, where fedrender is not published"),
            }
        }
        if line.starts_with("curl ") && line.contains("/releases/download/") {
            installs += 1;
            let url = line.split_whitespace().last().unwrap();
            assert!(
                url.starts_with(&format!("{repository}/releases/download/{version}/")),
                "{url}"
            );
            let file = url.rsplit('/').next().unwrap();
            let built = file == format!("fedrender-{version}-SHA256SUMS")
                || release.lines().any(|line| {
                    line.trim().starts_with("- { target: ")
                        && line.split_whitespace().nth(3).is_some_and(|target| {
                            file == format!(
                                "fedrender-{version}-{}.tar.gz",
                                target.trim_end_matches(',')
                            )
                        })
                });
            assert!(built, "{file} is no file the release workflow publishes");
        }
    }
    assert!(
        installs >= 4,
        "the README's install commands were not found"
    );
}

/// The changelog is kept by release: its newest section is the unreleased changes or the
/// version Cargo.toml gives, and every release has a section.
#[test]
fn the_changelog_has_a_section_for_the_version() {
    let changelog = read("CHANGELOG.md");
    let sections: Vec<&str> = changelog
        .lines()
        .filter_map(|line| line.strip_prefix("## "))
        .collect();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        sections
            .first()
            .is_some_and(|first| *first == "Unreleased" || *first == version),
        "{sections:?}"
    );
    assert!(
        sections.contains(&version),
        "no section for {version}: {sections:?}"
    );
}
