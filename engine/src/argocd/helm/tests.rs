use serde_json::json;

use super::*;
use crate::argocd::build_env::BuildEnvOf;

const APPS: &str = "https://github.com/example/apps.git";
const VALUES: &str = "https://github.com/example/values.git";

fn repositories() -> Repositories {
    let repository = |url: &str, path: &str, files: &[&str]| {
        let files: Vec<(&str, &str)> = files.iter().map(|file| (*file, "a: 1\n")).collect();
        Repository::of_texts(url, path, &files)
    };
    Repositories::new(vec![
        repository(
            APPS,
            "fleet/apps",
            &[
                "charts/web/Chart.yaml",
                "charts/web/values-prod.yaml",
                "values/common.yaml",
                "files/config.txt",
            ],
        ),
        repository(VALUES, "fleet/values", &["env/prod/web.yaml"]),
    ])
}

fn env() -> BuildEnv {
    BuildEnv::new(BuildEnvOf {
        app_name: "web",
        namespace: "shop",
        project: "default",
        repo_url: APPS,
        path: "charts/web",
        target_revision: "HEAD",
    })
}

fn values_source() -> ApplicationSource {
    serde_json::from_value(json!({"repoURL": VALUES, "ref": "values"})).unwrap()
}

/// `helm template`'s options for `options` on the chart `charts/web` of the apps repository.
fn options_for(options: serde_json::Value) -> Result<HelmSource, HelmProblem> {
    let repositories = repositories();
    let env = env();
    let values = values_source();
    let chart = Chart {
        repository: repositories.find(APPS).unwrap(),
        dir: "charts/web",
        repositories: &repositories,
        references: vec![("$values".to_string(), &values)],
        env: &env,
    };
    let options: ApplicationSourceHelm = serde_json::from_value(options).unwrap();
    helm_options("web", Some("shop"), Some(&options), &chart)
}

// argo-cd reposerver/repository/repository.go helmTemplate: the release is the Application's
// name and the namespace the destination's, unless releaseName and namespace say otherwise.
#[test]
fn the_release_and_namespace_are_the_applications_unless_the_options_say() {
    let helm = options_for(json!({})).unwrap();
    assert_eq!(helm.release_name.as_deref(), Some("web"));
    assert_eq!(helm.namespace.as_deref(), Some("shop"));
    let helm = options_for(json!({"releaseName": "shop-web", "namespace": "other"})).unwrap();
    assert_eq!(helm.release_name.as_deref(), Some("shop-web"));
    assert_eq!(helm.namespace.as_deref(), Some("other"));
}

// argo-cd reposerver getResolvedValueFiles, getResolvedRefValueFile and util/io/path
// ResolveValueFilePathOrUrl (repository_test.go TestGenerateHelmWithValuesDirectoryTraversal,
// TestResolveValueFiles*): a relative file is the chart directory's and may climb within the
// repository, an absolute one is the root's, `$values/…` is the referenced source's root's; a
// file listed twice is passed once.
#[test]
fn value_files_resolve_within_their_repository() {
    let helm = options_for(json!({"valueFiles": [
        "values-prod.yaml",
        "../../values/common.yaml",
        "/values/common.yaml",
        "$values/env/prod/web.yaml",
    ]}))
    .unwrap();
    assert_eq!(
        helm.value_files,
        [
            "values-prod.yaml",
            "../../values/common.yaml",
            "../../../values/env/prod/web.yaml",
        ]
    );
}

// The same functions' refusals: out of the repository (TestGenerateHelmWithValuesDirectoryTraversal
// "outside repository root"), a URL (fedrender never fetches), a glob, a missing file unless
// ignoreMissingValueFiles (TestGenerateHelmWithMissingValueFiles… ignoreMissingValueFiles).
#[test]
fn value_files_outside_their_repository_remote_or_missing_are_refused_by_name() {
    for (file, expected) in [
        ("../../../secrets.yaml", "resolves outside the repository"),
        ("https://example.com/values.yaml", "is a https URL"),
        ("values-*.yaml", "is a glob"),
        (
            "values-dev.yaml",
            "is not a file of https://github.com/example/apps.git",
        ),
        (
            "$values/env/dev/web.yaml",
            "is not a file of https://github.com/example/values.git",
        ),
    ] {
        let (field, problem) = options_for(json!({"valueFiles": [file]})).unwrap_err();
        assert_eq!(field, "spec.source.helm.valueFiles");
        assert!(problem.contains(expected), "{file}: {problem}");
    }
    let helm = options_for(json!({
        "valueFiles": ["values-dev.yaml", "values-prod.yaml"],
        "ignoreMissingValueFiles": true,
    }))
    .unwrap();
    assert_eq!(helm.value_files, ["values-prod.yaml"]);
}

// helmTemplate and util/helm cmd.go template, cleanSetParameters (cmd_test.go
// TestCleanSetParameters): parameters are `--set` or, forced, `--set-string`, expanded with the
// build environment and with their commas escaped unless a `{…}` list; a file parameter is
// `--set-file` with its path resolved as a value file's.
#[test]
fn parameters_become_set_flags_expanded_and_escaped() {
    let helm = options_for(json!({
        "parameters": [
            {"name": "image.tag", "value": "1.2"},
            {"name": "hosts", "value": "a,b\\,c"},
            {"name": "list", "value": "{a,b}"},
            {"name": "app", "value": "$ARGOCD_APP_NAME", "forceString": true},
            {"name": "image.tag", "value": "1.3"},
        ],
        "fileParameters": [{"name": "config", "path": "../../files/config.txt"}],
        "skipSchemaValidation": true,
    }))
    .unwrap();
    let set: Vec<(HelmSetKind, &str, &str)> = helm
        .argo_cd
        .set
        .iter()
        .map(|set| (set.kind, set.name.as_str(), set.value.as_str()))
        .collect();
    assert_eq!(
        set,
        [
            (HelmSetKind::Value, "hosts", "a\\,b\\,c"),
            (HelmSetKind::Value, "image.tag", "1.3"),
            (HelmSetKind::Value, "list", "{a,b}"),
            (HelmSetKind::String, "app", "web"),
            (HelmSetKind::File, "config", "../../files/config.txt"),
        ]
    );
    assert!(helm.argo_cd.skip_schema_validation);
    let (field, problem) = options_for(json!({
        "parameters": [{"name": "rev", "value": "$ARGOCD_APP_REVISION"}],
    }))
    .unwrap_err();
    assert_eq!(field, "spec.source.helm.parameters");
    assert!(problem.contains("$ARGOCD_APP_REVISION"), "{problem}");
}

#[test]
fn only_helm_3_renders() {
    assert!(options_for(json!({"version": "v3"})).is_ok());
    let (field, problem) = options_for(json!({"version": "v2"})).unwrap_err();
    assert_eq!(field, "spec.source.helm.version");
    assert!(problem.contains("Helm 3 only"), "{problem}");
}

#[test]
fn relative_paths_are_lexical() {
    assert_eq!(relative_path("a/b/c", "a/d/e.yaml"), "../../d/e.yaml");
    assert_eq!(relative_path("a/b", "a/b/v.yaml"), "v.yaml");
    assert_eq!(relative_path("./a/./b/", "a/x/../b/v.yaml"), "v.yaml");
}
