//! What `fuzz_targets/render_fleet.rs` does with an input, which `engine/tests/fuzz_seeds.rs`
//! replays on every seed: a fleet held in memory, through the front door every command takes.
//!
//! The input is split into files at lines holding only `=====`; each part is an input file
//! (`.json` when it starts with `{`, else `.yaml`). An inventory of two member clusters is
//! added, so that policies have somewhere to place templates.

use fedrender_engine::documents::{Format, SourceFile};
use fedrender_engine::{Inputs, Options, Outcome, RenderedFleet, Run, assemble};

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
status:
  resourceSummary:
    allocatable: {cpu: \"8\", memory: 32Gi, pods: \"110\"}
    allocated: {cpu: 500m, memory: 1Gi, pods: \"3\"}
";

/// The fleet `data` holds, as `fedrender build --stdout` runs it: [`assemble`] parses,
/// classifies and admits it, judges its policies against the Karmada release they are for and
/// builds the schema checker from the built-in schemas and the fleet's CRDs; [`Run::new`]
/// places, lays out and judges the warnings; and every object is rendered and checked against
/// its schema and CEL rules. `None` when `data` is not UTF-8 and reaches nothing.
pub fn render(data: &[u8]) -> Option<Outcome<RenderedFleet>> {
    let text = std::str::from_utf8(data).ok()?;
    let files: Vec<SourceFile> = text
        .split(SEPARATOR)
        .enumerate()
        .map(|(index, part)| {
            let (extension, format) = if part.trim_start().starts_with('{') {
                ("json", Format::Json)
            } else {
                ("yaml", Format::Yaml)
            };
            let path = format!("input/{index:03}.{extension}");
            SourceFile::new(path.into(), part.to_string(), format)
        })
        .collect();
    let mut inputs = Inputs::new("input", files);
    inputs.inventory = Some(SourceFile::new(
        "clusters.yaml".into(),
        INVENTORY.to_string(),
        Format::Yaml,
    ));
    let options = Options::default();
    let Outcome { result, warnings } = assemble(inputs, &options);
    let fleet = match result {
        Ok(fleet) => fleet,
        // A fleet that is refused reached the loader all the same.
        Err(rejected) => {
            return Some(Outcome {
                result: Err(rejected),
                warnings,
            });
        }
    };
    Some(Run::new(&fleet, warnings, &options).and_then(|mut run| {
        let rendered = run.tree();
        run.finish(rendered)
    }))
}

/// Whether `data` reached the engine.
pub fn run(data: &[u8]) -> bool {
    render(data).is_some()
}
