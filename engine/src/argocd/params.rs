//! What a generator hands the ApplicationSet controller: one result per entry of
//! `spec.generators` (generator_spec_processor.go `TransformResult`), each a list of parameter
//! sets and the generator's own `template`, which the controller merges into `spec.template`
//! before it renders an Application per parameter set.

use serde_json::{Map, Value};

/// One parameter set: flat (`metadata.labels.env` → `prod`) without `goTemplate`, nested
/// (`metadata` → `{labels: {env: prod}}`) with it.
pub type Params = Map<String, Value>;

/// What one entry of `spec.generators` produced.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratorResult {
    /// The entry's index in `spec.generators`.
    pub generator: usize,
    /// Its parameter sets, in the order Argo CD produces them (where Argo CD's order is a Go
    /// map's, fedrender's is sorted: nothing downstream depends on it but a plan's order).
    pub params: Vec<Params>,
    /// The generator's own `template` field as written (JSON), if any.
    pub template: Option<Value>,
}
