//! Helm charts among the fleet's sources: the release name a chart gets and what makes one
//! refused, and the `helm template` command line a declaration builds. Running it, timed and
//! capped, is [`super::run`]'s; finding, checking and running every source is
//! [`super::tools`]'s.

use std::path::Path;

use fedrender_engine::api::source::{DECLARATION_FILE, HelmSource};

/// The file that makes a directory a chart.
pub const CHART_FILE: &str = "Chart.yaml";

/// Helm's rule for release names (helm pkg/chartutil/validate_name.go): a DNS subdomain of at
/// most 53 characters. It matters beyond Helm's own refusal: the release name is a positional
/// argument, and one starting with `-` would be read as a flag (`--post-renderer=…` runs a
/// program).
pub(crate) fn release_name_problem(name: &str) -> Option<String> {
    if name.len() > 53 {
        return Some("is not a Helm release name: at most 53 characters".to_string());
    }
    fedrender_engine::names::dns_subdomain_problem(name)
        .map(|problem| format!("is not a Helm release name: it {problem}"))
}

/// The problem with the release name a chart gets from its directory, if any.
pub(crate) fn default_release_name_problem(dir: &Path) -> Option<String> {
    let name = default_release_name(dir);
    release_name_problem(&name).map(|problem| {
        format!(
            "the chart's release name is its directory's, and {name:?} {problem}; set \
             spec.helm.releaseName in a {DECLARATION_FILE} beside it"
        )
    })
}

/// The release name a chart gets from its directory, as Helm names it: the directory's own
/// name.
pub(crate) fn default_release_name(dir: &Path) -> String {
    dir.canonicalize()
        .ok()
        .and_then(|dir| {
            dir.file_name()
                .map(|name| name.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "release".to_string())
}

/// `helm template` for a declaration, with the inline values to pass on standard input. The
/// order is Argo CD's: value files in order, then the inline values, which win.
pub fn helm_template_argv(helm: &HelmSource, dir: &Path) -> (Vec<String>, Option<String>) {
    let release = helm
        .release_name
        .clone()
        .unwrap_or_else(|| default_release_name(dir));
    let mut argv: Vec<String> = vec!["helm".into(), "template".into(), release, ".".into()];
    if let Some(namespace) = &helm.namespace {
        argv.extend(["--namespace".into(), namespace.clone()]);
    }
    for file in &helm.value_files {
        argv.extend(["--values".into(), file.clone()]);
    }
    let stdin = helm.values_object.as_ref().map(|values| {
        argv.extend(["--values".into(), "-".into()]);
        values.to_string()
    });
    for set in &helm.argo_cd.set {
        argv.extend([
            set.kind.flag().into(),
            format!("{}={}", set.name, set.value),
        ]);
    }
    if let Some(version) = &helm.kube_version {
        argv.extend(["--kube-version".into(), version.clone()]);
    }
    for api_version in &helm.api_versions {
        argv.extend(["--api-versions".into(), api_version.clone()]);
    }
    if !helm.skip_crds {
        argv.push("--include-crds".into());
    }
    if helm.argo_cd.skip_schema_validation {
        argv.push("--skip-schema-validation".into());
    }
    if helm.skip_tests == Some(true) {
        argv.push("--skip-tests".into());
    }
    (argv, stdin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fedrender_engine::api::source::{ArgoCdHelmOptions, HelmSet, HelmSetKind};

    #[test]
    fn helm_template_gets_value_files_then_inline_values_in_argo_cds_order() {
        let helm = HelmSource {
            release_name: Some("web".into()),
            namespace: Some("shop".into()),
            value_files: vec!["values-prod.yaml".into(), "extra.yaml".into()],
            values_object: Some(serde_json::json!({"replicaCount": 3})),
            kube_version: Some("1.31.0".into()),
            api_versions: vec!["monitoring.coreos.com/v1".into()],
            skip_crds: false,
            skip_tests: Some(true),
            argo_cd: ArgoCdHelmOptions {
                set: vec![
                    HelmSet {
                        kind: HelmSetKind::Value,
                        name: "image.tag".into(),
                        value: "1.2".into(),
                    },
                    HelmSet {
                        kind: HelmSetKind::File,
                        name: "config".into(),
                        value: "../shared/config.txt".into(),
                    },
                ],
                skip_schema_validation: true,
            },
        };
        let (argv, stdin) = helm_template_argv(&helm, Path::new("charts/web"));
        assert_eq!(
            argv.join(" "),
            "helm template web . --namespace shop --values values-prod.yaml --values extra.yaml \
             --values - --set image.tag=1.2 --set-file config=../shared/config.txt \
             --kube-version 1.31.0 --api-versions monitoring.coreos.com/v1 --include-crds \
             --skip-schema-validation --skip-tests"
        );
        assert_eq!(stdin.as_deref(), Some(r#"{"replicaCount":3}"#));
    }

    #[test]
    fn a_chart_without_a_declaration_is_named_after_its_directory() {
        let dir = std::env::temp_dir().join(format!("fedrender-tools-{}", std::process::id()));
        let chart = dir.join("my-chart");
        std::fs::create_dir_all(&chart).unwrap();
        let (argv, stdin) = helm_template_argv(&HelmSource::default(), &chart);
        assert_eq!(argv.join(" "), "helm template my-chart . --include-crds");
        assert_eq!(stdin, None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
