//! The fuzz targets' seeds, replayed: every file under `fuzz/seeds/<target>/` goes through the
//! calls and checks its target in `fuzz/fuzz_targets/<target>.rs` makes, so that a seed a change
//! breaks fails `cargo test`, where the fuzz targets themselves only run under libFuzzer. Each
//! seed must also reach the library past the target's decoding of its bytes: a seed that never
//! gets there tests nothing.
//!
//! A change to a fuzz target's calls or checks belongs here too; a target without a replay here,
//! or without seeds, fails `every_fuzz_target_is_replayed`.

use std::path::Path;

use fedrender_engine::api::karmada::FieldOverrider;
use fedrender_engine::check::{Checker, KubernetesVersion};
use fedrender_engine::documents::{Format, SourceFile, parse_files};
use fedrender_engine::interpret::lua::{Script, get_replicas};
use fedrender_engine::overrides::field::apply_field_overrider;
use fedrender_engine::overrides::image::ImageReference;
use fedrender_engine::quantity::{Quantity, parse_quantity, quantity_from_json, round_trip};
use serde_json::json;

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
    let dir = Path::new("fuzz/seeds").join(target);
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
    let mut targets: Vec<String> = std::fs::read_dir("fuzz/fuzz_targets")
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "rs"))
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    targets.sort();
    assert_eq!(targets, REPLAYED, "fuzz targets and the replays here");
    for target in REPLAYED {
        seeds(target);
    }
}

/// fuzz_targets/field_overrider.rs
fn field_overrider(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let (overrider, content) = text.split_once('\0').unwrap_or((text, ""));
    let Ok(overrider) = serde_json::from_str::<FieldOverrider>(overrider) else {
        return false;
    };
    let mut object = json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "fuzz", "namespace": "default"},
        "data": {"config": content},
    });
    if apply_field_overrider(&mut object, &overrider).is_ok() {
        let _ = fedrender_engine::yaml::to_yaml(&object);
    }
    true
}

#[test]
fn field_overrider_seeds() {
    replay_seeds("field_overrider", field_overrider);
}

/// fuzz_targets/image_reference.rs
fn image_reference(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let (image, tag_or_digest) = text.split_once('\n').unwrap_or((text, ""));
    // A seed that does not parse still reached the parser.
    let Ok(mut reference) = ImageReference::parse(image) else {
        return true;
    };
    let written = reference.to_string();
    assert_eq!(
        ImageReference::parse(&written).as_ref(),
        Ok(&reference),
        "{image:?} was written as {written:?}"
    );
    reference.set_tag_or_digest(tag_or_digest);
    let written = reference.to_string();
    if let Ok(reparsed) = ImageReference::parse(&written) {
        assert_eq!(
            reparsed, reference,
            "{image:?} with {tag_or_digest:?} was written as {written:?}"
        );
    }
    reference.remove_tag_or_digest();
    let _ = reference.tag_or_digest();
    true
}

#[test]
fn image_reference_seeds() {
    replay_seeds("image_reference", image_reference);
}

/// fuzz_targets/lua_strings.rs, without its time bound: whether a call finishes is decided by
/// its instruction budget, which the target's bound only backs up under libFuzzer.
fn lua_strings(data: &[u8]) -> bool {
    const SCRIPT: &str = "\
function GetReplicas(obj)
  local s, p, init = obj.subject, obj.pattern, obj.init
  pcall(string.find, s, p, init)
  pcall(string.find, s, p, init, true)
  pcall(string.match, s, p, init)
  pcall(function()
    for a, b in string.gmatch(s, p) do end
  end)
  return 1, nil
end";
    let Some((&split, rest)) = data.split_first() else {
        return false;
    };
    let split = (split as usize).min(rest.len());
    let (pattern, subject) = rest.split_at(split);
    let (Ok(pattern), Ok(subject)) = (std::str::from_utf8(pattern), std::str::from_utf8(subject))
    else {
        return false;
    };
    let init = (split as i64 % 7) - 3;
    let object = json!({
        "subject": subject.repeat(64),
        "pattern": pattern,
        "init": init,
    });
    let script = Script::new("fuzz.lua", 1, SCRIPT);
    // Returns, or fails with a message: either way the call is over.
    let _ = get_replicas(&script, &object);
    true
}

#[test]
fn lua_strings_seeds() {
    replay_seeds("lua_strings", lua_strings);
}

/// fuzz_targets/quantity.rs
fn quantity(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    if let Ok(quantity) = parse_quantity(text) {
        let written = quantity.to_string();
        assert_eq!(
            parse_quantity(&written),
            Ok(quantity),
            "{text:?} was written as {written:?}"
        );
        let _ = (quantity.milli_value_ceil(), quantity.value_ceil());
        let _: Quantity = quantity.saturating_add(quantity).saturating_sub(quantity);
        let written_back = round_trip(text).expect("a quantity that parses round-trips");
        const TEN_POW_21_NANOS: i128 = 10i128.pow(30);
        if quantity.nanos().abs() < TEN_POW_21_NANOS {
            assert_eq!(
                parse_quantity(&written_back),
                Ok(quantity),
                "{text:?} was written back as {written_back:?}"
            );
        }
    }
    let _ = quantity_from_json(&serde_json::Value::String(text.to_string()));
    true
}

#[test]
fn quantity_seeds() {
    replay_seeds("quantity", quantity);
}

/// fuzz_targets/render_fleet.rs
fn render_fleet(data: &[u8]) -> bool {
    const SEPARATOR: &str = "\n=====\n";
    const INVENTORY: &str = "apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member1
  labels: {environment: production}
spec:
  syncMode: Push
  provider: aws
  region: eu-west-1
  zones: [eu-west-1a]
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member2
  labels: {environment: staging}
spec:
  syncMode: Pull
  provider: gcp
  region: europe-west4
  resourceSummary:
    allocatable: {cpu: \"8\", memory: 32Gi, pods: \"110\"}
    allocated: {cpu: 500m, memory: 1Gi, pods: \"3\"}
";
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let mut files: Vec<SourceFile> = text
        .split(SEPARATOR)
        .enumerate()
        .map(|(index, part)| {
            let (extension, format) = if part.trim_start().starts_with('{') {
                ("json", Format::Json)
            } else {
                ("yaml", Format::Yaml)
            };
            SourceFile {
                path: format!("input/{index:03}.{extension}").into(),
                text: part.to_string(),
                format,
            }
        })
        .collect();
    let input_file_count = files.len();
    files.push(SourceFile {
        path: "clusters.yaml".into(),
        text: INVENTORY.to_string(),
        format: Format::Yaml,
    });
    // A fleet that is refused reached the loader all the same.
    let Ok((fleet, _warnings)) = fedrender_engine::fleet::assemble(&files, input_file_count) else {
        return true;
    };
    let Ok(placed) = fedrender_engine::render::place(&fleet, true) else {
        return true;
    };
    let names: Vec<&str> = fleet
        .clusters
        .iter()
        .map(|cluster| cluster.name())
        .collect();
    let Ok(layout) = fedrender_engine::output::TreeLayout::new(&names, placed.destinations())
    else {
        return true;
    };
    let _ = fedrender_engine::output::OutputTree::collect(&layout, &placed);
    true
}

#[test]
fn render_fleet_seeds() {
    replay_seeds("render_fleet", render_fleet);
}

/// fuzz_targets/yaml_loader.rs
fn yaml_loader(data: &[u8]) -> bool {
    let Some((&selector, text)) = data.split_first() else {
        return false;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return false;
    };
    let (path, format) = if selector % 2 == 0 {
        ("fuzz.yaml", Format::Yaml)
    } else {
        ("fuzz.json", Format::Json)
    };
    let file = SourceFile {
        path: path.into(),
        text: text.to_string(),
        format,
    };
    let (documents, _errors) = parse_files(std::slice::from_ref(&file));
    // Lines as YAML counts them: a lone carriage return, NEL, LS and PS end a line too.
    let lines_in_file = text
        .replace("\r\n", "\n")
        .chars()
        .filter(|c| matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}'))
        .count() as u64
        + 1;
    for document in &documents {
        let written = fedrender_engine::yaml::to_yaml(&document.value);
        assert!(written.ends_with('\n'));
        let fields = document.field_lines(std::slice::from_ref(&file));
        let origin = fields.origin(
            &document.origin,
            "spec.placement.clusterAffinity.clusterNames[0]",
        );
        assert!(
            (1..=lines_in_file).contains(&origin.line),
            "line {} of a {lines_in_file}-line file",
            origin.line
        );
    }
    true
}

#[test]
fn yaml_loader_seeds() {
    replay_seeds("yaml_loader", yaml_loader);
}

/// fuzz_targets/crd_checker.rs
fn crd_checker(data: &[u8]) -> bool {
    let Some(split) = data.iter().position(|&b| b == 0) else {
        return false;
    };
    let (Ok(schema), Ok(mut object)) = (
        serde_json::from_slice::<serde_json::Value>(&data[..split]),
        serde_json::from_slice::<serde_json::Value>(&data[split + 1..]),
    ) else {
        return false;
    };
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.io"},
        "spec": {"group": "example.io", "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": schema}}]}});
    if let Some(fields) = object.as_object_mut() {
        fields.insert("apiVersion".into(), json!("example.io/v1"));
        fields.insert("kind".into(), json!("Widget"));
    }
    let checker = Checker::new(Vec::new(), [&crd]).with_run_budget(20_000_000, 20_000_000);
    let again = Checker::new(Vec::new(), [&crd]).with_run_budget(20_000_000, 20_000_000);
    for minor in [30, 36] {
        let version = KubernetesVersion { minor };
        assert_eq!(
            checker.check_at(&object, version),
            again.check_at(&object, version)
        );
    }
    assert_eq!(
        checker.check_transition(&object, &object),
        again.check_transition(&object, &object)
    );
    true
}

#[test]
fn crd_checker_seeds() {
    replay_seeds("crd_checker", crd_checker);
}

/// The fuzz workspace's lock file lists what the engine now depends on, so that `cargo fuzz
/// run` on a fresh clone builds without rewriting it.
#[test]
fn the_fuzz_lock_file_is_current() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = std::process::Command::new(cargo)
        .args(["metadata", "--locked", "--format-version", "1"])
        .args(["--manifest-path", "fuzz/Cargo.toml"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "fuzz/Cargo.lock is stale: run `cargo metadata --manifest-path fuzz/Cargo.toml` and commit it\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
