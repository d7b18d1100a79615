//! The packages `cargo publish` would upload: each carries the license and the notice of what it
//! embeds, and none carries the repository's test fleets, snapshots or references, which a user
//! installing fedrender does not need.

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
        "src/check/schemas/kubernetes.json.zz",
        "src/interpret/thirdparty/ray.io/v1/RayJob.lua",
    ] {
        assert!(
            engine.contains(&embedded.to_string()),
            "the engine package leaves out {embedded}, which it compiles in"
        );
    }
}
