//! Custom resources: the schema of each served version of every CustomResourceDefinition the
//! fleet holds or the command line names (`--crds`), by group and kind.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::builtin::GroupVersionKind;
use super::schema::Schema;
use crate::diagnostics::Origin;

/// One CRD: its name, where it was read, and per version whether it is served and its schema.
struct Definition {
    name: String,
    origin: Option<Origin>,
    versions: BTreeMap<String, (bool, Option<Schema>)>,
}

/// `widgets.example.io (crds/live.yaml:3)`: a CRD's name, and where it was read when known.
pub fn named(name: &str, origin: Option<&Origin>) -> String {
    match origin {
        Some(origin) => format!("{name} ({origin})"),
        None => name.to_string(),
    }
}

/// The CRDs known to a run.
#[derive(Default)]
pub struct CustomResources {
    by_kind: HashMap<(String, String), Definition>,
}

/// What a custom resource's CRD says of its apiVersion.
pub enum Lookup<'c> {
    /// No CRD defines the kind.
    Unknown,
    /// The CRD does not serve the version; its served versions and the CRD's name.
    NotServed { crd: &'c str, served: Vec<&'c str> },
    /// Served without a schema (only possible in old CRDs): nothing to check.
    Unchecked,
    Schema {
        /// The CRD's name, and where it was read when known.
        crd: &'c str,
        origin: Option<&'c Origin>,
        schema: &'c Schema,
    },
}

impl CustomResources {
    /// Adds an `apiextensions.k8s.io/v1` CustomResourceDefinition read at `origin`. The first
    /// definition of a kind wins: a fleet's own CRD and the same CRD from `--crds` are one CRD.
    pub fn add(&mut self, crd: &Value, origin: Option<&Origin>) {
        let spec = &crd["spec"];
        let (Some(group), Some(kind)) = (
            spec["group"].as_str(),
            spec.pointer("/names/kind").and_then(Value::as_str),
        ) else {
            return;
        };
        let name = crd
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or(kind)
            .to_string();
        let versions = spec["versions"]
            .as_array()
            .map(|versions| {
                versions
                    .iter()
                    .filter_map(|version| {
                        let name = version["name"].as_str()?;
                        let served = version["served"].as_bool().unwrap_or(false);
                        let schema = version
                            .pointer("/schema/openAPIV3Schema")
                            .map(Schema::from_crd);
                        Some((name.to_string(), (served, schema)))
                    })
                    .collect()
            })
            .unwrap_or_default();
        self.by_kind
            .entry((group.to_string(), kind.to_string()))
            .or_insert(Definition {
                name,
                origin: origin.cloned(),
                versions,
            });
    }

    pub fn is_empty(&self) -> bool {
        self.by_kind.is_empty()
    }

    pub fn lookup(&self, gvk: &GroupVersionKind) -> Lookup<'_> {
        let Some(definition) = self.by_kind.get(&(gvk.group.clone(), gvk.kind.clone())) else {
            return Lookup::Unknown;
        };
        match definition.versions.get(&gvk.version) {
            Some((true, Some(schema))) => Lookup::Schema {
                crd: &definition.name,
                origin: definition.origin.as_ref(),
                schema,
            },
            Some((true, None)) => Lookup::Unchecked,
            _ => Lookup::NotServed {
                crd: &definition.name,
                served: definition
                    .versions
                    .iter()
                    .filter(|(_, (served, _))| *served)
                    .map(|(name, _)| name.as_str())
                    .collect(),
            },
        }
    }
}
