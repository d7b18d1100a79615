use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::*;
use crate::argocd::api::application::{KustomizePatch, KustomizeReplica, KustomizeSelector};
use crate::argocd::build_env::BuildEnvOf;

const REPO: &str = "https://github.com/example/apps.git";

fn repository(files: &[(&str, &str)]) -> Repository {
    Repository::of_texts(REPO, "repo", files)
}

fn env() -> BuildEnv {
    BuildEnv::new(BuildEnvOf {
        app_name: "web-prod",
        namespace: "shop",
        project: "default",
        repo_url: REPO,
        path: "apps/web",
        target_revision: "main",
    })
}

/// The kustomization `apps/web` holds once `options` are applied.
fn edited(kustomization: &str, options: ApplicationSourceKustomize) -> Value {
    let repository = repository(&[
        ("apps/web/kustomization.yaml", kustomization),
        ("apps/web/deployment.yaml", "kind: Deployment\n"),
        ("components/tls/kustomization.yaml", "kind: Component\n"),
    ]);
    let edited = edit(&repository, "apps/web", &options, &env())
        .unwrap()
        .expect("an option is set");
    assert_eq!(edited.file, "apps/web/kustomization.yaml");
    serde_json::from_str(&edited.text).unwrap()
}

fn refused(kustomization: &str, options: ApplicationSourceKustomize) -> EditProblem {
    let repository = repository(&[("apps/web/kustomization.yaml", kustomization)]);
    edit(&repository, "apps/web", &options, &env()).unwrap_err()
}

fn images(arguments: &[&str]) -> ApplicationSourceKustomize {
    ApplicationSourceKustomize {
        images: arguments.iter().map(|image| image.to_string()).collect(),
        ..Default::default()
    }
}

// kustomize kustomize/commands/edit/set/setimage_test.go TestSetImage: each form of argument,
// a registry's port not read as a tag, an argument replacing the entry of its name whole, and
// `*` keeping the kustomization's field or, with nothing to keep, leaving it out.
#[test]
fn images_are_set_as_kustomize_edit_set_image_sets_them() {
    let digest = "sha256:24a0c4b4a4c0eb97a1aabb8e29f18e917d05abfe1b7a7c07857230879ce7d3d3";
    let cases: Vec<(&str, String, Value)> = vec![
        (
            "",
            "image1=my-image1:my-tag".into(),
            json!([{"name": "image1", "newName": "my-image1", "newTag": "my-tag"}]),
        ),
        (
            "",
            format!("image1=my-image1@{digest}"),
            json!([{"name": "image1", "newName": "my-image1", "digest": digest}]),
        ),
        (
            "",
            "image1:my-tag".into(),
            json!([{"name": "image1", "newTag": "my-tag"}]),
        ),
        (
            "",
            format!("my-image1:my-tag@{digest}"),
            json!([{"name": "my-image1", "newTag": "my-tag", "digest": digest}]),
        ),
        (
            "",
            "ngnix=localhost:5000/my-project/ngnix:dev-01".into(),
            json!([{"name": "ngnix", "newName": "localhost:5000/my-project/ngnix", "newTag": "dev-01"}]),
        ),
        (
            "images:\n- name: image1\n  newName: my-image1\n  newTag: my-tag\n",
            "image1:v1".into(),
            json!([{"name": "image1", "newTag": "v1"}]),
        ),
        (
            "images:\n- name: image1\n  newName: foo.bar.foo:8800/foo/image1\n  newTag: my-tag\n",
            "image1=*:v1".into(),
            json!([{"name": "image1", "newName": "foo.bar.foo:8800/foo/image1", "newTag": "v1"}]),
        ),
        (
            "images:\n- name: image1\n  newTag: my-tag\n",
            "image1=*:v1".into(),
            json!([{"name": "image1", "newTag": "v1"}]),
        ),
        (
            "",
            "image1=my-image1:*".into(),
            json!([{"name": "image1", "newName": "my-image1"}]),
        ),
        (
            "images:\n- name: zeta\n  newTag: '1'\n",
            "alpha:2".into(),
            json!([{"name": "alpha", "newTag": "2"}, {"name": "zeta", "newTag": "1"}]),
        ),
    ];
    for (kustomization, argument, expected) in cases {
        let kustomization = format!("resources: [deployment.yaml]\n{kustomization}");
        let edited = edited(&kustomization, images(&[&argument]));
        assert_eq!(edited["images"], expected, "{argument}");
        assert_eq!(
            edited["resources"],
            json!(["deployment.yaml"]),
            "{argument}"
        );
    }
}

// setimage_test.go "error: invalid args": an argument naming only an image is refused.
#[test]
fn an_image_argument_naming_only_an_image_is_refused() {
    let (field, problem) = refused("resources: []\n", images(&["nginx"]));
    assert_eq!(field, "images");
    assert!(problem.contains("invalid format of image"), "{problem}");
}

// argo-cd util/kustomize/kustomize.go Build: images pass through Envsubst first (so
// `$ARGOCD_APP_NAME` is the Application's), and the revision, which only a clone knows, is
// refused by name.
#[test]
fn images_are_expanded_with_the_build_environment() {
    let edited = edited(
        "",
        images(&["web=registry.example.com/$ARGOCD_APP_NAME:1.2"]),
    );
    assert_eq!(
        edited["images"],
        json!([{"name": "web", "newName": "registry.example.com/web-prod", "newTag": "1.2"}])
    );
    let (_, problem) = refused("", images(&["web:${ARGOCD_APP_REVISION}"]));
    assert!(problem.contains("$ARGOCD_APP_REVISION"), "{problem}");
}

// kustomize kustomize/commands/edit/set/setreplicas_test.go and argo-cd
// KustomizeReplica.GetIntCount: a count is an integer or a string holding one; an entry of the
// same name is replaced, the rest kept.
#[test]
fn replicas_replace_the_entry_of_their_name() {
    let options = ApplicationSourceKustomize {
        replicas: vec![
            KustomizeReplica {
                name: "web".into(),
                count: json!(3),
            },
            KustomizeReplica {
                name: "api".into(),
                count: json!("5"),
            },
        ],
        ..Default::default()
    };
    let edited = edited(
        "replicas:\n- name: web\n  count: 1\n- name: worker\n  count: 2\n",
        options,
    );
    assert_eq!(
        edited["replicas"],
        json!([
            {"name": "api", "count": 5},
            {"name": "web", "count": 3},
            {"name": "worker", "count": 2},
        ])
    );
    let options = ApplicationSourceKustomize {
        replicas: vec![KustomizeReplica {
            name: "web".into(),
            count: json!("three"),
        }],
        ..Default::default()
    };
    let (field, problem) = refused("", options);
    assert_eq!(field, "replicas");
    assert!(
        problem.contains("expected integer value for count. Received: three"),
        "{problem}"
    );
}

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
}

// kustomize kustomize/commands/edit/add/addmetadata_test.go: a label or annotation already in
// the kustomization is refused without --force (Argo CD's forceCommonLabels,
// forceCommonAnnotations) and replaced with it; values are expanded (labels always,
// annotations with commonAnnotationsEnvsubst) and a quoted value loses its quotes.
#[test]
fn labels_and_annotations_are_added_as_kustomize_edit_add_adds_them() {
    let options = ApplicationSourceKustomize {
        common_labels: labels(&[("team", "shop"), ("app", "$ARGOCD_APP_NAME")]),
        common_annotations: labels(&[("owner", "\"$ARGOCD_APP_NAMESPACE\"")]),
        ..Default::default()
    };
    let added = edited("commonLabels:\n  tier: web\n", options);
    assert_eq!(
        added["commonLabels"],
        json!({"tier": "web", "team": "shop", "app": "web-prod"})
    );
    assert_eq!(
        added["commonAnnotations"],
        json!({"owner": "$ARGOCD_APP_NAMESPACE"})
    );

    let options = ApplicationSourceKustomize {
        common_annotations: labels(&[("owner", "$ARGOCD_APP_NAMESPACE")]),
        common_annotations_envsubst: true,
        ..Default::default()
    };
    assert_eq!(
        edited("", options)["commonAnnotations"],
        json!({"owner": "shop"})
    );

    let taken = ApplicationSourceKustomize {
        common_labels: labels(&[("tier", "api")]),
        ..Default::default()
    };
    let (field, problem) = refused("commonLabels:\n  tier: web\n", taken.clone());
    assert_eq!(field, "commonLabels");
    assert!(
        problem.contains("label tier already in kustomization file. Use --force to override."),
        "{problem}"
    );
    let forced = ApplicationSourceKustomize {
        force_common_labels: true,
        ..taken
    };
    assert_eq!(
        edited("commonLabels:\n  tier: web\n", forced)["commonLabels"],
        json!({"tier": "api"})
    );
}

// addmetadata_test.go TestAddLabelWithoutSelector / TestAddLabelIncludeTemplates: without
// selectors the pairs go to a `labels` entry of the same settings, else to a new one; asking
// to include templates needs labelWithoutSelector.
#[test]
fn labels_without_selector_go_to_a_labels_entry_of_their_settings() {
    let options = ApplicationSourceKustomize {
        common_labels: labels(&[("team", "shop")]),
        label_without_selector: true,
        label_include_templates: true,
        ..Default::default()
    };
    let edited = edited(
        "labels:\n- pairs: {a: b}\n- pairs: {c: d}\n  includeTemplates: true\n",
        options,
    );
    assert_eq!(
        edited["labels"],
        json!([
            {"pairs": {"a": "b"}},
            {"pairs": {"c": "d", "team": "shop"}, "includeTemplates": true},
        ])
    );
    let options = ApplicationSourceKustomize {
        common_labels: labels(&[("team", "shop")]),
        label_include_templates: true,
        ..Default::default()
    };
    let (_, problem) = refused("", options);
    assert!(problem.contains("--without-selector"), "{problem}");
}

// argo-cd util/kustomize/kustomize.go Build: prefix, suffix and namespace are set (kustomize
// `edit set nameprefix|namesuffix|namespace`), the namespace checked as a DNS label; patches are
// appended to the kustomization's own, as Argo CD appends them.
#[test]
fn names_namespace_and_patches_are_set_as_argo_cd_sets_them() {
    let options = ApplicationSourceKustomize {
        name_prefix: "prod-".into(),
        name_suffix: "-v2".into(),
        namespace: "shop".into(),
        patches: vec![KustomizePatch {
            patch: "- op: replace\n  path: /spec/replicas\n  value: 3\n".into(),
            target: Some(KustomizeSelector {
                kind: "Deployment".into(),
                name: "web".into(),
                ..Default::default()
            }),
            ..Default::default()
        }],
        ..Default::default()
    };
    let edited = edited(
        "namePrefix: old-\npatches:\n- path: mine.yaml\n",
        options.clone(),
    );
    assert_eq!(edited["namePrefix"], "prod-");
    assert_eq!(edited["nameSuffix"], "-v2");
    assert_eq!(edited["namespace"], "shop");
    assert_eq!(
        edited["patches"],
        json!([
            {"path": "mine.yaml"},
            {
                "patch": "- op: replace\n  path: /spec/replicas\n  value: 3\n",
                "target": {"kind": "Deployment", "name": "web"},
            },
        ])
    );
    let (field, problem) = refused(
        "patches: mine.yaml\n",
        ApplicationSourceKustomize {
            patches: options.patches.clone(),
            ..Default::default()
        },
    );
    assert_eq!(field, "patches");
    assert!(problem.contains("a string, not a list"), "{problem}");
    let (field, problem) = refused(
        "",
        ApplicationSourceKustomize {
            namespace: "Shop_1".into(),
            ..Default::default()
        },
    );
    assert_eq!(field, "namespace");
    assert!(
        problem.contains("\"Shop_1\" is not a valid namespace name"),
        "{problem}"
    );
}

// argo-cd util/kustomize/kustomize.go Build (components, ignoreMissingComponents) over
// kustomize edit add component: a component is appended once, one missing from the repository
// refused, or left out when Argo CD is told to ignore it.
#[test]
fn components_are_added_once_and_a_missing_one_is_refused_or_left_out() {
    let options = |components: &[&str], ignore: bool| ApplicationSourceKustomize {
        components: components.iter().map(|c| c.to_string()).collect(),
        ignore_missing_components: ignore,
        ..Default::default()
    };
    let edited_components = edited(
        "components: [../../components/tls]\n",
        options(&["../../components/tls", "../../components/gone"], true),
    );
    assert_eq!(
        edited_components["components"],
        json!(["../../components/tls"])
    );
    let repository = repository(&[
        ("apps/web/kustomization.yaml", ""),
        ("components/tls/kustomization.yaml", "kind: Component\n"),
    ]);
    let (field, problem) = edit(
        &repository,
        "apps/web",
        &options(&["../../components/gone"], false),
        &env(),
    )
    .unwrap_err();
    assert_eq!(field, "components");
    assert!(
        problem.contains("\"../../components/gone\" is not a directory"),
        "{problem}"
    );
    let added = edit(
        &repository,
        "apps/web",
        &options(&["../../components/tls"], false),
        &env(),
    )
    .unwrap()
    .unwrap();
    assert_eq!(added.applied, ["components"]);
    assert!(
        added.text.contains("../../components/tls"),
        "{}",
        added.text
    );
}

// kustomize api/konfig RecognizedKustomizationFileNames and kustfile.NewKustomizationFile: the
// edits need exactly one kustomization file in the source's directory.
#[test]
fn the_edits_need_exactly_one_kustomization_file() {
    let options = ApplicationSourceKustomize {
        name_prefix: "prod-".into(),
        ..Default::default()
    };
    let none = repository(&[("apps/web/deployment.yaml", "kind: Deployment\n")]);
    let (_, problem) = edit(&none, "apps/web", &options, &env()).unwrap_err();
    assert!(problem.contains("Missing kustomization file"), "{problem}");
    let two = repository(&[
        ("apps/web/kustomization.yaml", ""),
        ("apps/web/kustomization.yml", ""),
    ]);
    let (_, problem) = edit(&two, "apps/web", &options, &env()).unwrap_err();
    assert!(
        problem.contains("more than one kustomization file"),
        "{problem}"
    );
    let unset = edit(
        &two,
        "apps/web",
        &ApplicationSourceKustomize::default(),
        &env(),
    );
    assert_eq!(unset, Ok(None), "without options nothing is edited");
}
