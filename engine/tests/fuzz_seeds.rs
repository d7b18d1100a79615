//! The fuzz targets' seeds, replayed: every file under `fuzz/seeds/<target>/` goes through the
//! body its target in `fuzz/fuzz_targets/<target>.rs` runs, `fuzz/bodies/<target>.rs`, compiled
//! here as a module of its own, so that a seed a change breaks fails `cargo test`, where the
//! fuzz targets themselves only run under libFuzzer. Each seed must also reach the library
//! past the body's decoding of its bytes: a seed that never gets there tests nothing.
//!
//! A target without a body replayed here, or without seeds, fails
//! `every_fuzz_target_is_replayed`.

use std::path::Path;

use fedrender_engine::diagnostics::Rejected;

#[path = "../../fuzz/bodies/crd_checker.rs"]
mod crd_checker;
#[path = "../../fuzz/bodies/field_overrider.rs"]
mod field_overrider;
#[path = "../../fuzz/bodies/image_reference.rs"]
mod image_reference;
#[path = "../../fuzz/bodies/lua_strings.rs"]
mod lua_strings;
#[path = "../../fuzz/bodies/quantity.rs"]
mod quantity;
#[path = "../../fuzz/bodies/render_fleet.rs"]
mod render_fleet;
#[path = "../../fuzz/bodies/yaml_loader.rs"]
mod yaml_loader;

/// The targets replayed here, by the name of their file in `fuzz/fuzz_targets/`.
const REPLAYED: [&str; 7] = [
    "crd_checker",
    "field_overrider",
    "image_reference",
    "lua_strings",
    "quantity",
    "render_fleet",
    "yaml_loader",
];

/// The seeds of `target`, by file name, sorted.
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new("../fuzz/seeds").join(target);
    let mut seeds: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    seeds.sort();
    assert!(!seeds.is_empty(), "{} has no seeds", dir.display());
    seeds
}

/// Feeds every seed of `target` to `replay`, which answers whether the seed reached the
/// library; every one must.
fn replay_seeds(target: &str, replay: impl Fn(&[u8]) -> bool) {
    for (name, data) in seeds(target) {
        assert!(
            replay(&data),
            "fuzz/seeds/{target}/{name} never reaches the library: the target's decoding \
             refuses it"
        );
    }
}

#[test]
fn every_fuzz_target_is_replayed() {
    let names_in = |dir: &str| {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|extension| extension == "rs"))
            .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        names_in("../fuzz/fuzz_targets"),
        REPLAYED,
        "fuzz targets and the replays here"
    );
    assert_eq!(
        names_in("../fuzz/bodies"),
        REPLAYED,
        "fuzz bodies and the replays here"
    );
    for target in REPLAYED {
        seeds(target);
        // The target runs its body, and nothing else.
        let source = std::fs::read_to_string(format!("../fuzz/fuzz_targets/{target}.rs")).unwrap();
        assert!(
            source.contains(&format!("#[path = \"../bodies/{target}.rs\"]\nmod body;")),
            "fuzz/fuzz_targets/{target}.rs does not run fuzz/bodies/{target}.rs"
        );
    }
}

#[test]
fn field_overrider_seeds() {
    replay_seeds("field_overrider", field_overrider::run);
}

#[test]
fn image_reference_seeds() {
    replay_seeds("image_reference", image_reference::run);
}

/// Without the target's time bound: whether a call finishes is decided by its instruction
/// budget, which the bound only backs up under libFuzzer.
#[test]
fn lua_strings_seeds() {
    replay_seeds("lua_strings", |data| lua_strings::run(data, None));
}

#[test]
fn crd_checker_seeds() {
    replay_seeds("crd_checker", crd_checker::run);
}

#[test]
fn quantity_seeds() {
    replay_seeds("quantity", quantity::run);
}

#[test]
fn render_fleet_seeds() {
    replay_seeds("render_fleet", render_fleet::run);
}

#[test]
fn yaml_loader_seeds() {
    replay_seeds("yaml_loader", yaml_loader::run);
}

/// The inventory the fleet target adds is one Karmada takes: were it refused, no input would
/// get past it (`resourceSummary` once sat under `spec`, and every seed stopped there).
#[test]
fn the_fleet_targets_inventory_renders() {
    let outcome = render_fleet::render(b"").expect("UTF-8");
    assert!(outcome.result.is_ok(), "{:?}", outcome.result);
    let data = std::fs::read("../fuzz/seeds/render_fleet/mixed-fleet").unwrap();
    let outcome = render_fleet::render(&data).expect("UTF-8");
    let rendered = outcome.result.expect("the mixed fleet renders");
    assert!(rendered.object_count() > 0);
}

/// The errors the body's run of seed `name` of `render_fleet` ends with.
fn render_fleet_errors(name: &str) -> Vec<String> {
    let data = std::fs::read(format!("../fuzz/seeds/render_fleet/{name}")).unwrap();
    let outcome = render_fleet::render(&data).expect("the seed is UTF-8");
    let Err(Rejected { errors, .. }) = outcome.result else {
        panic!("fuzz/seeds/render_fleet/{name} renders, where it should be refused");
    };
    errors.iter().map(|error| error.message.clone()).collect()
}

/// The fleet fuzz target goes through the front door as far as the commands do: an object a
/// CRD's CEL rule refuses is refused (the seed is testdata/error-schema-cel-rules), and so is a
/// policy the Karmada release its Config names does not take (error-karmada-1.14-purge-modes).
#[test]
fn the_fleet_target_reaches_the_schema_cel_and_release_checks() {
    let errors = render_fleet_errors("schema-cel-rules-refused");
    for expected in [
        // A CEL rule over a list (exists_one).
        "spec.addresses: IPAddress values must be unique",
        // A CEL rule with a messageExpression and a fieldPath.
        "Required value: tls must be set for protocol TLS on listener secure",
        // The structural schema's own checks.
        "does not match the pattern",
    ] {
        assert!(
            errors.iter().any(|error| error.contains(expected)),
            "{expected:?} not among {errors:#?}"
        );
    }
    let errors = render_fleet_errors("karmada-1.14-purge-modes-refused");
    assert!(
        errors
            .iter()
            .any(|error| error.contains("Directly came in Karmada 1.15")),
        "{errors:#?}"
    );
}

/// The fuzz workspace's lock file lists what the engine now depends on, so that `cargo fuzz
/// run` on a fresh clone builds without rewriting it.
#[test]
fn the_fuzz_lock_file_is_current() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = std::process::Command::new(cargo)
        .args(["metadata", "--locked", "--format-version", "1"])
        .args(["--manifest-path", "../fuzz/Cargo.toml"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "fuzz/Cargo.lock is stale: run `cargo metadata --manifest-path fuzz/Cargo.toml` and commit it\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
