//! Custom resources: the schema of each served version of every CustomResourceDefinition the
//! fleet holds or the command line names (`--crds`), by group and kind.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::builtin::GroupVersionKind;
use super::crd_creation::{Refusal, creation_refusals};
use super::schema::Schema;
use crate::diagnostics::{Diagnostic, Origin};
use crate::lint::Lint;

/// The most bytes an API server reads in one request: k8s.io/apiserver's `MaxRequestBodyBytes`
/// (pkg/server/config.go), twice etcd's default 1.5 MiB request limit, since a JSON body
/// shrinks when it is stored as protobuf. A CRD larger than this as JSON — its YAML aliases
/// expanded, as kubectl sends it — cannot be created on any cluster, and its schemas are not
/// compiled.
pub const MAX_CRD_BYTES: usize = 3 * 1024 * 1024;

/// Who gave a CRD to the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrdSource {
    /// A CRD among the fleet's files: the pull request's.
    Fleet,
    /// `--crds`: what the job running fedrender trusts.
    CommandLine,
}

/// One CRD: its name, where it was read, who gave it, and per version whether it is served and
/// its schema.
struct Definition {
    name: String,
    origin: Option<Origin>,
    source: CrdSource,
    versions: BTreeMap<String, (bool, Option<Schema>)>,
    /// The Kubernetes minor versions whose API servers refuse to create it.
    refused_by: Vec<u32>,
}

impl Definition {
    fn named(&self) -> String {
        named(&self.name, self.origin.as_ref())
    }
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
    /// The API servers of these Kubernetes minor versions refuse to create the CRD: no
    /// object of the kind can be created there.
    Refused {
        crd: &'c str,
        origin: Option<&'c Origin>,
        refused_by: &'c [u32],
    },
    Schema {
        /// The CRD's name, and where it was read when known.
        crd: &'c str,
        origin: Option<&'c Origin>,
        schema: &'c Schema,
    },
}

impl CustomResources {
    /// Adds an `apiextensions.k8s.io/v1` CustomResourceDefinition read at `origin`. Of two
    /// definitions of a kind, the command line's wins over the fleet's — with a warning when
    /// their schemas differ, returned — and otherwise the first wins: a fleet's own CRD and the
    /// same CRD from `--crds` are one CRD. A CRD larger than [`MAX_CRD_BYTES`] as JSON is an
    /// error at its origin; so is a fleet's CRD that the API server of one of `minors` (the
    /// Kubernetes minor versions of the run's clusters) refuses to create, an error for each
    /// reason, at the field it is about (`crd_creation::creation_refusals`). A CRD given on the command
    /// line is one the clusters hold already, and is not judged as a new one.
    pub fn add(
        &mut self,
        crd: &Value,
        origin: Option<&Origin>,
        source: CrdSource,
        minors: &[u32],
    ) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
        let spec = &crd["spec"];
        let (Some(group), Some(kind)) = (
            spec["group"].as_str(),
            crate::json_pointer::pointer(spec, "/names/kind").and_then(Value::as_str),
        ) else {
            return Ok(Vec::new());
        };
        let name = crate::json_pointer::pointer(crd, "/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or(kind)
            .to_string();
        if json_larger_than(crd, MAX_CRD_BYTES) {
            return Err(vec![Diagnostic::error(
                origin.cloned(),
                format!(
                    "CustomResourceDefinition {name} is larger than 3 MiB as JSON (its YAML \
                     aliases expanded, as kubectl sends it): no API server takes a request that \
                     large (k8s.io/apiserver's MaxRequestBodyBytes), so no cluster can hold it"
                ),
            )]);
        }
        let versions = spec["versions"]
            .as_array()
            .map(|versions| {
                versions
                    .iter()
                    .filter_map(|version| {
                        let name = version["name"].as_str()?;
                        let served = version["served"].as_bool().unwrap_or(false);
                        let schema =
                            crate::json_pointer::pointer(version, "/schema/openAPIV3Schema")
                                .map(Schema::from_crd);
                        Some((name.to_string(), (served, schema)))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let refusals = match source {
            CrdSource::Fleet => refused(crd, &name, origin, minors),
            CrdSource::CommandLine => Vec::new(),
        };
        let refused_by: Vec<u32> = {
            let mut all: Vec<u32> = refusals
                .iter()
                .flat_map(|(_, by)| by.iter().copied())
                .collect();
            all.sort_unstable();
            all.dedup();
            all
        };
        let added = Definition {
            name,
            origin: origin.cloned(),
            source,
            versions,
            refused_by,
        };
        if !refusals.is_empty() {
            self.by_kind
                .entry((group.to_string(), kind.to_string()))
                .or_insert(added);
            return Err(refusals
                .into_iter()
                .map(|(diagnostic, _)| diagnostic)
                .collect());
        }
        let transitions = transition_rules_skipped(&added);
        match self.by_kind.entry((group.to_string(), kind.to_string())) {
            Entry::Vacant(entry) => {
                entry.insert(added);
                Ok(transitions.into_iter().collect())
            }
            Entry::Occupied(mut entry) => match (entry.get().source, source) {
                (CrdSource::Fleet, CrdSource::CommandLine) => {
                    let warning = overridden(entry.get(), &added, group, kind);
                    entry.insert(added);
                    Ok(warning.into_iter().chain(transitions).collect())
                }
                (CrdSource::CommandLine, CrdSource::Fleet) => {
                    Ok(overridden(&added, entry.get(), group, kind)
                        .into_iter()
                        .collect())
                }
                _ => Ok(Vec::new()),
            },
        }
    }

    pub fn is_empty(&self) -> bool {
        self.by_kind.is_empty()
    }

    pub fn lookup(&self, gvk: &GroupVersionKind) -> Lookup<'_> {
        let Some(definition) = self.by_kind.get(&(gvk.group.clone(), gvk.kind.clone())) else {
            return Lookup::Unknown;
        };
        if !definition.refused_by.is_empty() {
            return Lookup::Refused {
                crd: &definition.name,
                origin: definition.origin.as_ref(),
                refused_by: &definition.refused_by,
            };
        }
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

/// The errors of creating `crd` (named `name`, read at `origin`) on the API servers of
/// `minors`: one per reason, naming every version that gives it, at the field it is about
/// (its line found when the run reports it); each with the versions.
fn refused(
    crd: &Value,
    name: &str,
    origin: Option<&Origin>,
    minors: &[u32],
) -> Vec<(Diagnostic, Vec<u32>)> {
    let mut minors = minors.to_vec();
    minors.sort_unstable();
    minors.dedup();
    let mut grouped: Vec<(Refusal, Vec<u32>)> = Vec::new();
    // The reasons past the first few of any version: counted, not written.
    let mut more = 0;
    for &minor in &minors {
        let refusals = creation_refusals(crd, minor);
        more = more.max(refusals.len().saturating_sub(REFUSALS_WRITTEN));
        for refusal in refusals.into_iter().take(REFUSALS_WRITTEN) {
            match grouped.iter_mut().find(|(known, _)| *known == refusal) {
                Some((_, by)) => by.push(minor),
                None => grouped.push((refusal, vec![minor])),
            }
        }
    }
    let mut diagnostics: Vec<(Diagnostic, Vec<u32>)> = grouped
        .into_iter()
        .map(|(refusal, by)| {
            let versions: Vec<String> = by.iter().map(|minor| format!("1.{minor}")).collect();
            let versions = match versions.as_slice() {
                [one] => one.clone(),
                [init @ .., last] => format!("{} and {last}", init.join(", ")),
                [] => String::new(),
            };
            let mut lines = refusal.says.lines();
            let first = lines.next().unwrap_or_default();
            let mut detail: Vec<String> = lines.map(String::from).collect();
            if let Some(rule) = &refusal.rule {
                detail.push(format!("the rule: {rule}"));
            }
            let mut diagnostic = Diagnostic::error(
                origin.cloned(),
                format!(
                    "{} of Kubernetes {versions} {} to create the CustomResourceDefinition \
                     {name}: {}: {first}",
                    if by.len() == 1 {
                        "the API server"
                    } else {
                        "the API servers"
                    },
                    if by.len() == 1 { "refuses" } else { "refuse" },
                    refusal.field
                ),
            )
            .about_field(refusal.document_field);
            if !detail.is_empty() {
                diagnostic = diagnostic.with_detail(detail.join("\n"));
            }
            (diagnostic, by)
        })
        .collect();
    if more > 0
        && let Some((_, by)) = diagnostics.last()
    {
        let by = by.clone();
        diagnostics.push((
            Diagnostic::error(
                origin.cloned(),
                format!(
                    "and {more} more {} the API server refuses to create the \
                     CustomResourceDefinition {name}, not written out",
                    if more == 1 { "reason" } else { "reasons" }
                ),
            ),
            by,
        ));
    }
    diagnostics
}

/// The reasons for refusing a CRD written out per Kubernetes version; a CRD built to fail
/// every check of a large schema gets these and a count of the rest.
const REFUSALS_WRITTEN: usize = 20;

/// The warning, once per CRD, that its transition rules (CEL rules reading `oldSelf`) are
/// not judged: they judge a change, and a build has no object before it.
fn transition_rules_skipped(definition: &Definition) -> Option<Diagnostic> {
    let count: usize = definition
        .versions
        .values()
        .filter(|(served, _)| *served)
        .filter_map(|(_, schema)| schema.as_ref())
        .map(Schema::transition_rules)
        .sum();
    (count > 0).then(|| {
        Diagnostic::warning(
            Lint::UncheckedKind,
            definition.origin.clone(),
            format!(
                "the CRD {} has {count} transition {} (x-kubernetes-validations reading \
                 oldSelf): a build has no object before the change, so {} not judged here; \
                 `fedrender diff` judges {} against its base, the API server on every update",
                definition.name,
                if count == 1 { "rule" } else { "rules" },
                if count == 1 { "it is" } else { "they are" },
                if count == 1 { "it" } else { "them" },
            ),
        )
    })
}

/// The warning that the fleet's CRD of a kind is set aside for the command line's, at the
/// fleet's CRD; none when both say the same.
fn overridden(
    fleet: &Definition,
    command_line: &Definition,
    group: &str,
    kind: &str,
) -> Option<Diagnostic> {
    if fleet.versions == command_line.versions {
        return None;
    }
    Some(Diagnostic::warning(
        Lint::SkippedInput,
        fleet.origin.clone(),
        format!(
            "the CRD {} defines {group} {kind} unlike the one --crds gives, {}: {kind} objects \
             are checked against --crds' schemas, not this CRD's",
            fleet.name,
            command_line.named()
        ),
    ))
}

/// Whether `value` written as compact JSON takes more than `limit` bytes; finds out writing
/// at most `limit` of them.
fn json_larger_than(value: &Value, limit: usize) -> bool {
    struct Counter {
        left: usize,
    }
    impl std::io::Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.left = self
                .left
                .checked_sub(bytes.len())
                .ok_or_else(|| std::io::Error::other("over the limit"))?;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    serde_json::to_writer(Counter { left: limit }, value).is_err()
}

#[cfg(test)]
mod tests {
    use super::super::crd_creation::tests::{widget_crd_with_spec, widget_with_rule};
    use super::*;
    use serde_json::json;
    fn widget_crd(size: Value) -> Value {
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.io"},
        "spec": {"group": "example.io", "names": {"kind": "Widget"}, "versions": [
            {"name": "v1", "served": true, "schema": {"openAPIV3Schema": {"type": "object",
                "properties": {"spec": {"type": "object", "properties": {"size": size}}}}}},
        ]}})
    }

    fn size_schema(resources: &CustomResources) -> Value {
        let gvk = GroupVersionKind::of("example.io/v1", "Widget");
        let Lookup::Schema { schema, origin, .. } = resources.lookup(&gvk) else {
            panic!("no schema");
        };
        let object = json!({"spec": {"size": 3}});
        let (found, _) = schema
            .validate(&object, &super::super::NoDefinitions, u64::MAX, 20)
            .unwrap();
        json!({"from": origin.map(|origin| origin.to_string()),
            "accepts 3": found.findings.is_empty()})
    }

    /// The command line's CRD of a kind wins over the fleet's in either order, with a warning
    /// at the fleet's naming both when they differ; the same CRD twice is one.
    #[test]
    fn the_command_line_crd_wins_over_the_fleets() {
        let fleet_origin = Origin::new("fleet/crd.yaml", 0, 1);
        let live_origin = Origin::new("crds/live.yaml", 2, 40);
        let fleet = widget_crd(json!({"type": "string"}));
        let live = widget_crd(json!({"type": "integer"}));
        let expected = "the CRD widgets.example.io defines example.io Widget unlike the one \
            --crds gives, widgets.example.io (crds/live.yaml:40): Widget objects are checked \
            against --crds' schemas, not this CRD's";
        for fleet_first in [true, false] {
            let mut resources = CustomResources::default();
            let mut add =
                |crd, origin, source| resources.add(crd, Some(origin), source, &[34]).unwrap();
            let warnings: Vec<Diagnostic> = if fleet_first {
                [
                    add(&fleet, &fleet_origin, CrdSource::Fleet),
                    add(&live, &live_origin, CrdSource::CommandLine),
                ]
            } else {
                [
                    add(&live, &live_origin, CrdSource::CommandLine),
                    add(&fleet, &fleet_origin, CrdSource::Fleet),
                ]
            }
            .into_iter()
            .flatten()
            .collect();
            assert_eq!(warnings.len(), 1);
            assert_eq!(warnings[0].message, expected);
            assert_eq!(warnings[0].origin.as_ref(), Some(&fleet_origin));
            assert_eq!(warnings[0].lint, Some(Lint::SkippedInput));
            assert_eq!(
                size_schema(&resources),
                json!({"from": "crds/live.yaml:40", "accepts 3": true})
            );
        }
        let mut resources = CustomResources::default();
        let same = resources.add(&live, Some(&fleet_origin), CrdSource::Fleet, &[34]);
        let again = resources.add(&live, Some(&live_origin), CrdSource::CommandLine, &[34]);
        assert_eq!((same, again), (Ok(Vec::new()), Ok(Vec::new())));
    }

    /// A CRD whose rules read oldSelf says once, at the CRD, that they are not judged; one
    /// without says nothing.
    #[test]
    fn transition_rules_are_said_once_per_crd() {
        let origin = Origin::new("fleet/crd.yaml", 0, 1);
        let immutable = json!({"type": "integer", "x-kubernetes-validations": [
            {"rule": "self == oldSelf", "message": "size is immutable"},
            {"rule": "self >= 0"},
        ]});
        let warnings = CustomResources::default()
            .add(
                &widget_crd(immutable),
                Some(&origin),
                CrdSource::Fleet,
                &[34],
            )
            .unwrap();
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].lint, Some(Lint::UncheckedKind));
        assert_eq!(warnings[0].origin.as_ref(), Some(&origin));
        assert_eq!(
            warnings[0].message,
            "the CRD widgets.example.io has 1 transition rule (x-kubernetes-validations \
             reading oldSelf): a build has no object before the change, so it is not judged \
             here; `fedrender diff` judges it against its base, the API server on every update"
        );
        let plain = json!({"type": "integer", "x-kubernetes-validations": [{"rule": "self >= 0"}]});
        assert_eq!(
            CustomResources::default().add(
                &widget_crd(plain),
                Some(&origin),
                CrdSource::Fleet,
                &[34]
            ),
            Ok(Vec::new())
        );
    }

    /// A fleet's refused CRD is an error per reason naming every version that gives it, at
    /// the rule's field; its custom resources are unchecked-kind findings naming it. A CRD
    /// from --crds is one the clusters hold already and is not judged as new.
    #[test]
    fn a_refused_crd_is_an_error_and_its_objects_are_unchecked() {
        let crd = widget_with_rule(
            json!({"ip": {"type": "string", "maxLength": 45}}),
            json!({"rule": "isIP(self.ip)"}),
        );
        let origin = Origin::new("fleet/crd.yaml", 0, 1);
        let mut resources = CustomResources::default();
        let errors = resources
            .add(&crd, Some(&origin), CrdSource::Fleet, &[30, 31, 29])
            .unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].message.starts_with(
                "the API servers of Kubernetes 1.29 and 1.30 refuse to create the \
             CustomResourceDefinition widgets.example.io: spec.validation.openAPIV3Schema.\
             properties[spec].x-kubernetes-validations[0].rule: Invalid value: compilation \
             failed: ERROR: <input>:1:5: undeclared reference to 'isIP' (in container '')"
            ),
            "{}",
            errors[0].message
        );
        assert_eq!(
            errors[0].about().field.as_deref(),
            Some(
                "spec.versions[0].schema.openAPIV3Schema.properties.spec.x-kubernetes-validations[0].rule"
            )
        );
        assert_eq!(
            errors[0].detail.as_deref(),
            Some(" | isIP(self.ip)\n | ....^\nthe rule: isIP(self.ip)")
        );
        let gvk = GroupVersionKind::of("example.io/v1", "Widget");
        assert!(matches!(
            resources.lookup(&gvk),
            Lookup::Refused {
                refused_by: [29, 30],
                ..
            }
        ));
        let mut trusted = CustomResources::default();
        assert!(
            trusted
                .add(&crd, Some(&origin), CrdSource::CommandLine, &[30])
                .is_ok()
        );
    }

    /// A CRD built to fail every check gets 20 errors and a count of the rest, not thousands.
    #[test]
    fn a_crd_refused_for_thousands_of_reasons_reports_twenty() {
        let properties: serde_json::Map<String, Value> = (0..5000)
            .map(|n| (format!("f{n}"), json!({"maxLength": 1})))
            .collect();
        let crd = widget_crd_with_spec(json!({"type": "object", "properties": properties}));
        let origin = Origin::new("fleet/crd.yaml", 0, 1);
        let errors = CustomResources::default()
            .add(&crd, Some(&origin), CrdSource::Fleet, &[33, 34])
            .unwrap_err();
        assert_eq!(errors.len(), 21);
        assert!(
            errors[0].message.starts_with(
                "the API servers of Kubernetes 1.33 and 1.34 refuse to create the \
                 CustomResourceDefinition widgets.example.io: "
            ),
            "{}",
            errors[0].message
        );
        assert_eq!(
            errors[20].message,
            "and 4980 more reasons the API server refuses to create the CustomResourceDefinition \
             widgets.example.io, not written out"
        );
    }

    /// A CRD larger than an API server takes in one request is an error at its line.
    #[test]
    fn a_crd_larger_than_an_api_server_takes_is_refused() {
        let origin = Origin::new("fleet/crd.yaml", 0, 7);
        let enumeration: Vec<String> = (0..400_000).map(|n| format!("value{n}")).collect();
        let crd = widget_crd(json!({"type": "string", "enum": enumeration}));
        let error = CustomResources::default()
            .add(&crd, Some(&origin), CrdSource::Fleet, &[34])
            .unwrap_err()
            .remove(0);
        assert_eq!(error.origin, Some(origin.clone()));
        assert!(error.is_error());
        assert!(
            error
                .message
                .starts_with("CustomResourceDefinition widgets.example.io is larger than 3 MiB"),
            "{}",
            error.message
        );
        assert!(json_larger_than(&json!("x".repeat(10)), 11));
        assert!(!json_larger_than(&json!("x".repeat(10)), 12));
    }
}
