//! Argo CD fleets (issue 54): a fleet whose Config has `spec.argocd` deploys its Applications
//! from the checkouts the Config maps, to the clusters of the inventory's Argo CD cluster
//! Secrets. Each refusal names the Application and points at its field's line; nothing is
//! fetched. Fleets are written under a scratch directory, one per test.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common;
use common::{empty_scratch, fedrender, stderr};

const CONFIG: &str = "apiVersion: fedrender.io/v1alpha1\nkind: Config\nmetadata: {name: argocd}\nspec:\n  argocd:\n    repositories:\n    - url: https://github.com/example/apps.git\n      path: repo\n";

const SECRETS: &str = "\
apiVersion: v1\nkind: Secret\nmetadata:\n  name: c1\n  labels: {argocd.argoproj.io/secret-type: cluster, env: prod}\nstringData: {name: prod, server: https://prod.example.com}\n---
apiVersion: v1\nkind: Secret\nmetadata:\n  name: c2\n  labels: {argocd.argoproj.io/secret-type: cluster, env: dev}\nstringData: {name: dev, server: https://dev.example.com}\n";

const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: nginx:1.27}]}\n";

fn application(name: &str, destination: &str, path: &str) -> String {
    format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {{name: {name}, namespace: argocd}}\nspec:\n  project: default\n  source:\n    repoURL: https://github.com/example/apps\n    path: {path}\n  destination: {{{destination}, namespace: web}}\n"
    )
}

/// A fleet of `applications` (one YAML stream) over a checkout holding `web/deployment.yaml`.
fn fleet(name: &str, applications: &str) -> PathBuf {
    let dir = empty_scratch(name);
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("input/fedrender.yaml", CONFIG);
    write("input/apps.yaml", applications);
    write("input/repo/web/deployment.yaml", DEPLOYMENT);
    write("clusters.yaml", SECRETS);
    dir
}

fn build(dir: &Path, extra: &[&str]) -> Output {
    let input = dir.join("input");
    let clusters = dir.join("clusters.yaml");
    let out = dir.join("out");
    let mut args = vec![
        "build",
        input.to_str().unwrap(),
        "--clusters",
        clusters.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    fedrender(&args)
}

/// Builds the fleet of `applications` (named `name`): exit 2, `expected` in the message, the
/// output directory untouched.
fn assert_refused(name: &str, applications: &str, expected: &str) {
    let dir = fleet(name, applications);
    let output = build(&dir, &[]);
    assert_eq!(output.status.code(), Some(2), "{name}: {}", stderr(&output));
    assert!(
        stderr(&output).contains(expected),
        "{name}: {}",
        stderr(&output)
    );
    assert!(!dir.join("out").exists(), "{name}: the output was touched");
}

#[test]
fn each_application_deploys_its_directory_to_its_destination_and_no_checkout_file_is_a_template() {
    let dir = fleet(
        "argocd-deploys",
        &[
            application("web-prod", "name: prod", "web"),
            application("web-dev", "server: https://dev.example.com", "web"),
        ]
        .join("---\n"),
    );
    let output = build(&dir, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let prod = std::fs::read_to_string(dir.join("out/prod/web/deployment.apps_web.yaml")).unwrap();
    assert!(prod.contains("namespace: web"), "{prod}");
    assert!(dir.join("out/dev/web/deployment.apps_web.yaml").is_file());
    // The checkout's manifest is deployed by the Applications only: no tree holds it twice,
    // and in-cluster, which no Application targets, gets no tree.
    assert!(!dir.join("out/in-cluster").exists());
    let files = common::files_under(&dir.join("out"));
    assert_eq!(files.len(), 4, "{:?}", files.keys().collect::<Vec<_>>());
}

#[test]
fn the_placement_at_a_glance_has_one_row_an_object_whatever_the_applications_that_deploy_it() {
    let dir = fleet(
        "argocd-plan-rows",
        &[
            application("web-prod", "name: prod", "web"),
            application("web-dev", "name: dev", "web"),
        ]
        .join("---\n"),
    );
    for (format, row) in [
        ("table", "Deployment.apps web/web"),
        ("markdown", "| Deployment.apps web/web |"),
    ] {
        let output = fedrender(&[
            "plan",
            dir.join("input").to_str().unwrap(),
            "--clusters",
            dir.join("clusters.yaml").to_str().unwrap(),
            "--format",
            format,
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let plan = String::from_utf8_lossy(&output.stdout);
        let rows: Vec<&str> = plan.lines().filter(|line| line.contains(row)).collect();
        // One row, the object on both clusters of the two Applications (two rows of one `✓`
        // and one `·` each before).
        assert_eq!(rows.len(), 1, "{format}: {plan}");
        let cells: Vec<&str> = rows[0]
            .trim_start_matches(row)
            .split(|c: char| c.is_whitespace() || c == '|')
            .filter(|cell| !cell.is_empty())
            .collect();
        assert_eq!(cells, ["✓", "✓"], "{format}: {plan}");
    }
}

#[test]
fn what_argo_cd_cannot_deploy_offline_is_refused_at_its_line_naming_the_application() {
    let cases: [(&str, String, &str); 7] = [
        (
            "argocd-unmapped",
            application("a", "name: prod", "web").replace(
                "https://github.com/example/apps",
                "https://github.com/example/elsewhere",
            ),
            "apps.yaml:7: Application argocd/a: spec.source.repoURL https://github.com/example/elsewhere is not mapped to a checkout",
        ),
        (
            "argocd-unknown-cluster",
            application("b", "name: staging", "web"),
            "apps.yaml:1: Application argocd/b: application destination spec is invalid: there are no clusters with this name: staging; Argo CD does not deploy it",
        ),
        (
            "argocd-both",
            application("c", "name: prod, server: https://prod.example.com", "web"),
            "Application argocd/c: application destination spec is invalid: application destination can't have both name and server defined",
        ),
        (
            "argocd-unknown-field",
            application("d", "name: prod", "web").replace(
                "  project: default\n",
                "  project: default\n  projects: x\n",
            ),
            "apps.yaml:6: unknown field `projects`",
        ),
        (
            "argocd-escape",
            application("e", "name: prod", "../web"),
            "Application argocd/e: spec.source.path \"../web\" leads outside the repository",
        ),
        // The repo server's util/app/path `Path`: a path the checkout lacks, or a file, is
        // refused ("app path does not exist"), never an Application deploying nothing.
        (
            "argocd-missing-path",
            application("f", "name: prod", "webb"),
            "Application argocd/f: spec.source.path \"webb\": app path does not exist in https://github.com/example/apps.git",
        ),
        (
            "argocd-path-is-a-file",
            application("g", "name: prod", "./web//deployment.yaml"),
            "Application argocd/g: spec.source.path \"./web//deployment.yaml\": app path is not a directory",
        ),
    ];
    for (name, applications, expected) in cases {
        assert_refused(name, &applications, expected);
    }
}

#[test]
fn two_applications_deploying_one_object_to_one_cluster_is_an_error_unless_allowed() {
    let dir = fleet(
        "argocd-shared",
        &[
            application("first", "name: prod", "web"),
            application("second", "server: https://prod.example.com", "web"),
        ]
        .join("---\n"),
    );
    let output = build(&dir, &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("[shared-resource]")
            && stderr(&output).contains(
                "Application argocd/second deploys Deployment.apps web/web to cluster prod, which Application argocd/first"
            ),
        "{}",
        stderr(&output)
    );
    let output = build(&dir, &["--warn", "shared-resource"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("the tree keeps Application argocd/first's"));
}

/// Makes `path` an executable script.
/// [`build`] with the stand-in tools in `bin` first on `PATH`.
fn build_with_stand_ins(dir: &Path, bin: &Path, extra: &[&str]) -> Output {
    let input = dir.join("input");
    let clusters = dir.join("clusters.yaml");
    let out = dir.join("out");
    let mut args = vec![
        "build",
        input.to_str().unwrap(),
        "--clusters",
        clusters.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    common::command()
        .env("PATH", path)
        .args(args)
        .output()
        .unwrap()
}

fn executable(path: &Path, script: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, script).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn kustomize_and_helm_sources_run_as_the_fleets_own_with_the_applications_release_and_namespace() {
    let dir = fleet(
        "argocd-tools",
        &[
            application("k", "name: prod", "web"),
            application("chart-app", "name: dev", "chart"),
        ]
        .join("---\n"),
    );
    std::fs::write(
        dir.join("input/repo/web/kustomization.yaml"),
        "resources: [deployment.yaml]\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("input/repo/chart")).unwrap();
    std::fs::write(
        dir.join("input/repo/chart/Chart.yaml"),
        "apiVersion: v2\nname: web\nversion: 1.0.0\n",
    )
    .unwrap();
    let (bin, log) = (dir.join("bin"), dir.join("tools.log"));
    // Stand-ins: kustomize prints a ConfigMap named after the directory it builds; helm one
    // named after the release, in the namespace it is given.
    executable(
        &bin.join("kustomize"),
        &format!(
            "#!/bin/sh\necho \"kustomize $* in $(basename \"$PWD\")\" >> {log}\n\
             printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: built-%s\\n' \"$(basename \"$PWD\")\"\n",
            log = log.display()
        ),
    );
    executable(
        &bin.join("helm"),
        &format!(
            "#!/bin/sh\necho \"helm $*\" >> {log}\nrelease=$2; namespace=default\n\
             while [ $# -gt 0 ]; do [ \"$1\" = --namespace ] && namespace=$2; shift; done\n\
             printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: %s-settings\\n  namespace: %s\\n' \"$release\" \"$namespace\"\n",
            log = log.display()
        ),
    );
    let out = dir.join("out");
    let kustomize = format!("{} build", bin.join("kustomize").display());
    let output = build_with_stand_ins(&dir, &bin, &["--kustomize", &kustomize]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // The kustomization's objects take the destination's namespace; the chart's are rendered
    // in it, with the Application's name as the release.
    assert!(
        out.join("prod/web/configmap_built-web.yaml").is_file(),
        "{:?}",
        common::files_under(&out).keys().collect::<Vec<_>>()
    );
    assert!(
        out.join("dev/web/configmap_chart-app-settings.yaml")
            .is_file()
    );
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.contains("kustomize build . in web"), "{log}");
    assert!(
        log.contains("helm template chart-app . --namespace web"),
        "{log}"
    );
}

/// An ApplicationSet over the two clusters of the inventory, with `generators` and `template`
/// spliced in.
fn application_set(generators: &str, name: &str, project: &str) -> String {
    format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {{name: web, namespace: argocd}}\nspec:\n  generators:\n{generators}  template:\n    metadata: {{name: '{name}'}}\n    spec:\n      project: {project}\n      source: {{repoURL: https://github.com/example/apps.git, path: web}}\n      destination: {{server: '{{{{server}}}}', namespace: web}}\n"
    )
}

#[test]
fn an_application_set_generates_an_application_per_cluster_and_what_argo_cd_refuses_is_refused() {
    let clusters = "  - clusters: {selector: {matchLabels: {env: prod}}}\n";
    let dir = fleet(
        "argocd-set",
        &application_set(clusters, "web-{{name}}", "default"),
    );
    let output = build(&dir, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(dir.join("out/prod/web/deployment.apps_web.yaml").is_file());
    assert!(
        !dir.join("out/dev/web").exists(),
        "the selector leaves dev out"
    );

    let project = "---\napiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata: {name: team, namespace: argocd}\nspec:\n  sourceRepos: ['*']\n  destinations: [{server: '*', namespace: 'team-*'}]\n";
    let cases: [(&str, String, &str); 4] = [
        (
            "argocd-set-project",
            application_set(clusters, "web-{{name}}", "team") + project,
            "Application argocd/web-prod: application destination server 'https://prod.example.com' and namespace 'web' do not match any of the allowed destinations in project 'team'",
        ),
        (
            "argocd-set-unknown-project",
            application_set(clusters, "web-{{name}}", "nosuch"),
            "application references project nosuch which does not exist",
        ),
        (
            "argocd-set-scm",
            application_set(
                "  - scmProvider: {github: {organization: example}}\n",
                "web-{{repository}}",
                "default",
            ),
            "apps.yaml:6: spec.generators[0].scmProvider: the scmProvider generator lists repositories through an SCM provider's API",
        ),
        (
            "argocd-set-same-name",
            application_set("  - clusters: {}\n", "web", "default"),
            "ApplicationSet web contains applications with duplicate name: web (made by generator 0 with parameters {\"name\":\"dev\"",
        ),
    ];
    for (name, fleet_text, expected) in cases {
        assert_refused(name, &fleet_text, expected);
    }
}

#[test]
fn an_application_set_template_that_would_exhaust_the_job_is_refused_at_its_line() {
    // Argo CD would render both (for hours, or until the memory ran out).
    for (name, work) in [
        (
            "argocd-set-bound-time",
            "{{ range until 3000 }}{{ range until 3000 }}{{ end }}{{ end }}",
        ),
        ("argocd-set-bound-memory", "{{ len (until 3000000000) }}"),
    ] {
        let set = format!(
            "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {{name: web, namespace: argocd}}\nspec:\n  goTemplate: true\n  generators:\n  - clusters: {{}}\n  template:\n    metadata: {{name: 'web-{{{{ .name }}}}{work}'}}\n    spec:\n      project: default\n      source: {{repoURL: https://github.com/example/apps.git, path: web}}\n      destination: {{server: '{{{{ .server }}}}', namespace: web}}\n"
        );
        assert_refused(name, &set, "apps.yaml:8: ApplicationSet web");
        assert_refused(name, &set, "fedrender's bound of 4194304");
    }
}

#[test]
fn the_trees_are_the_same_bytes_whatever_the_order_of_the_application_sets_and_the_threads() {
    let original = Path::new("testdata/argocd-applicationset");
    let dir = empty_scratch("argocd-determinism");
    common::copy_tree(&original.join("input"), &dir.join("input"));
    // The ApplicationSets' files swap names, so they are read in the other order.
    let (guestbook, platform) = (
        dir.join("input/guestbook.yaml"),
        dir.join("input/platform.yaml"),
    );
    let swapped = dir.join("input/swap.yaml");
    std::fs::rename(&guestbook, &swapped).unwrap();
    std::fs::rename(&platform, &guestbook).unwrap();
    std::fs::rename(&swapped, &platform).unwrap();
    let clusters = original.join("clusters.yaml");
    let render = |input: &Path, out: &Path, jobs: &str| {
        let output = fedrender(&[
            "build",
            input.to_str().unwrap(),
            "--clusters",
            clusters.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            jobs,
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        common::files_in(out)
    };
    let first = render(&original.join("input"), &dir.join("out-1"), "1");
    let second = render(&dir.join("input"), &dir.join("out-2"), "3");
    assert_eq!(first, second);
    assert!(first.len() > 5, "{:?}", first.keys().collect::<Vec<_>>());
}

#[test]
fn a_pull_request_changing_an_application_sets_selector_is_reviewed_per_cluster() {
    let dir = empty_scratch("argocd-review");
    for side in ["base", "head"] {
        common::copy_tree(Path::new("examples/argocd/fleet"), &dir.join(side));
    }
    // The head moves guestbook from the prod clusters to those labelled tier: web (staging).
    let guestbook = dir.join("head/guestbook.yaml");
    let text = std::fs::read_to_string(&guestbook).unwrap();
    std::fs::write(
        &guestbook,
        text.replace("            env: prod", "            tier: web"),
    )
    .unwrap();
    let clusters = std::fs::read_to_string("examples/argocd/clusters.yaml")
        .unwrap()
        .replace("    env: staging\n", "    env: staging\n    tier: web\n");
    std::fs::write(dir.join("clusters.yaml"), clusters).unwrap();
    let diff = |format: &str| {
        fedrender(&[
            "diff",
            dir.join("head").to_str().unwrap(),
            "--base",
            dir.join("base").to_str().unwrap(),
            "--clusters",
            dir.join("clusters.yaml").to_str().unwrap(),
            "--format",
            format,
        ])
    };
    let output = diff("stat");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let stat = String::from_utf8_lossy(&output.stdout);
    // The platform ApplicationSet, unchanged, deploys one object to two clusters from two
    // Applications: neither shows as changed.
    assert_eq!(
        stat.lines()
            .filter(|line| !line.starts_with('#'))
            .collect::<Vec<_>>(),
        [
            "- Deployment.apps guestbook/guestbook-ui on prod-eu, prod-us (2 clusters)",
            "+ Deployment.apps guestbook/guestbook-ui on staging",
            "3 clusters changed: 1 added, 0 changed, 2 removed",
        ],
        "{stat}"
    );
    assert!(
        stderr(&output).contains(
            "replicas move between clusters: prod-eu 1 → 0, prod-us 1 → 0, staging 0 → 1"
        ) && stderr(&output).contains("[replica-shift]"),
        "{}",
        stderr(&output)
    );
    // plan says which ApplicationSet, generator and parameters made each Application.
    let plan = fedrender(&[
        "plan",
        dir.join("head").to_str().unwrap(),
        "--clusters",
        dir.join("clusters.yaml").to_str().unwrap(),
        "--kind",
        "Deployment",
    ]);
    let plan = String::from_utf8_lossy(&plan.stdout);
    assert!(
        plan.contains("placed by Application argocd/guestbook-staging")
            && plan.contains("note: generated by ApplicationSet argocd/guestbook, spec.generators[0], with {\"name\":\"staging\"")
            && plan.contains("note: destination: cluster staging (https://staging.example.com), namespace guestbook")
            && plan.contains("note: source: https://github.com/example/platform-apps.git, path guestbook (directory)"),
        "{plan}"
    );
}

#[test]
fn an_applications_several_sources_are_deployed_together_and_a_ref_only_source_renders_nothing() {
    let application = "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: multi, namespace: argocd}\nspec:\n  project: default\n  sources:\n  - {repoURL: https://github.com/example/apps.git, path: web}\n  - {repoURL: https://github.com/example/apps.git, path: extra}\n  - {repoURL: https://github.com/example/apps.git, ref: values}\n  destination: {name: prod, namespace: web}\n";
    let dir = fleet("argocd-sources", application);
    std::fs::create_dir_all(dir.join("input/repo/extra")).unwrap();
    std::fs::write(
        dir.join("input/repo/extra/settings.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: b}\n",
    )
    .unwrap();
    let output = build(&dir, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let files = common::files_in(&dir.join("out/prod"));
    assert!(
        files.contains_key("web/deployment.apps_web.yaml")
            && files.contains_key("web/configmap_settings.yaml")
            && files.len() == 3,
        "{:?}",
        files.keys().collect::<Vec<_>>()
    );
}

/// An Application of `path` in the apps checkout with `source_options` (YAML flow mapping
/// entries, such as `kustomize: {…}`) under its source.
fn application_with(name: &str, path: &str, source_options: &str) -> String {
    format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {{name: {name}, namespace: argocd}}\nspec:\n  project: default\n  source: {{repoURL: https://github.com/example/apps, path: {path}, {source_options}}}\n  destination: {{name: prod, namespace: web}}\n"
    )
}

#[test]
fn an_applications_kustomize_options_and_the_repositorys_overrides_are_built_as_argo_cd_edits_them()
{
    if !common::tools::require(&["kubectl"]) {
        return;
    }
    let dir = fleet(
        "argocd-kustomize-options",
        &application_with(
            "web-prod",
            "web",
            "kustomize: {namePrefix: prod-, images: ['nginx=registry.example.com/nginx:1.28'], \
             commonLabels: {team: shop}, replicas: [{name: web, count: 3}]}",
        ),
    );
    let kustomization = "resources: [deployment.yaml]\n";
    std::fs::write(dir.join("input/repo/web/kustomization.yaml"), kustomization).unwrap();
    // As Argo CD Image Updater writes them: the shared file first, the Application's own last.
    std::fs::write(
        dir.join("input/repo/web/.argocd-source.yaml"),
        "kustomize:\n  nameSuffix: -v2\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("input/repo/web/.argocd-source-web-prod.yaml"),
        "kustomize:\n  images: ['nginx=registry.example.com/nginx:1.29']\n",
    )
    .unwrap();
    let output = build(&dir, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let files = common::files_in(&dir.join("out/prod"));
    let deployment = files
        .get("web/deployment.apps_prod-web-v2.yaml")
        .map(|bytes| String::from_utf8_lossy(bytes).into_owned())
        .unwrap_or_else(|| panic!("{:?}", files.keys().collect::<Vec<_>>()));
    for expected in [
        "image: registry.example.com/nginx:1.29",
        "replicas: 3",
        "team: shop",
        "namespace: web",
    ] {
        assert!(deployment.contains(expected), "{expected}:\n{deployment}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("input/repo/web/kustomization.yaml")).unwrap(),
        kustomization,
        "the fleet's kustomization is never written"
    );
    let plan = fedrender(&[
        "plan",
        dir.join("input").to_str().unwrap(),
        "--clusters",
        dir.join("clusters.yaml").to_str().unwrap(),
    ]);
    assert_eq!(plan.status.code(), Some(0), "{}", stderr(&plan));
    let plan = String::from_utf8_lossy(&plan.stdout);
    assert!(
        plan.contains("kustomize, with namePrefix, nameSuffix, images, replicas, commonLabels, overridden by web/.argocd-source.yaml and web/.argocd-source-web-prod.yaml"),
        "{plan}"
    );
}

#[test]
fn kustomize_options_overrides_and_source_types_argo_cd_refuses_are_refused_by_name() {
    for (name, options, expected) in [
        (
            "argocd-refused-image",
            "kustomize: {images: [nginx]}",
            "spec.source.kustomize.images: \"nginx\": invalid format of image",
        ),
        (
            "argocd-refused-two-types",
            "kustomize: {namePrefix: a-}, directory: {recurse: true}",
            "spec.source: multiple application sources defined: Kustomize,Directory",
        ),
        (
            "argocd-refused-revision",
            "kustomize: {images: ['nginx:$ARGOCD_APP_REVISION']}",
            "$ARGOCD_APP_REVISION is the commit Argo CD renders",
        ),
    ] {
        let dir = fleet(name, &application_with("web", "web", options));
        std::fs::write(
            dir.join("input/repo/web/kustomization.yaml"),
            "resources: [deployment.yaml]\n",
        )
        .unwrap();
        let output = build(&dir, &[]);
        assert_eq!(output.status.code(), Some(2), "{name}: {}", stderr(&output));
        assert!(
            stderr(&output).contains(expected),
            "{name}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains("Application argocd/web"),
            "{name}: {}",
            stderr(&output)
        );
    }
    let dir = fleet(
        "argocd-refused-override",
        &application("web", "name: prod", "web"),
    );
    std::fs::write(
        dir.join("input/repo/web/.argocd-source.yaml"),
        "kustomise:\n  namePrefix: a-\n",
    )
    .unwrap();
    let output = build(&dir, &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("web/.argocd-source.yaml in https://github.com/example/apps.git")
            && stderr(&output).contains("kustomise"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_charts_parameters_and_value_files_of_another_source_reach_helm_template() {
    let application = "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: web, namespace: argocd}\nspec:\n  project: default\n  sources:\n  - repoURL: https://github.com/example/apps.git\n    path: chart\n    helm:\n      valueFiles: [values-prod.yaml, $values/env/prod.yaml, missing.yaml]\n      ignoreMissingValueFiles: true\n      parameters: [{name: image.tag, value: '1.2'}, {name: hosts, value: 'a,b', forceString: true}]\n      fileParameters: [{name: config, path: /files/config.txt}]\n  - {repoURL: https://github.com/example/values.git, ref: values}\n  destination: {name: prod, namespace: web}\n";
    let dir = fleet("argocd-helm-options", application);
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "input/fedrender.yaml",
        &format!("{CONFIG}    - url: https://github.com/example/values.git\n      path: values\n"),
    );
    write(
        "input/repo/chart/Chart.yaml",
        "apiVersion: v2\nname: web\nversion: 1.0.0\n",
    );
    write("input/repo/chart/values-prod.yaml", "replicas: 2\n");
    write("input/repo/files/config.txt", "a=b\n");
    write("input/values/env/prod.yaml", "replicas: 3\n");
    let (bin, log) = (dir.join("bin"), dir.join("helm.log"));
    executable(
        &bin.join("helm"),
        &format!(
            "#!/bin/sh\necho \"helm $*\" >> {log}\n\
             printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: settings\\n'\n",
            log = log.display()
        ),
    );
    let output = build_with_stand_ins(&dir, &bin, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.contains(
            "helm template web . --namespace web --values values-prod.yaml \
             --values ../../values/env/prod.yaml --set image.tag=1.2 --set-string hosts=a\\,b \
             --set-file config=../files/config.txt --include-crds"
        ),
        "{log}"
    );
}

// Argo CD's applicationset/examples/merge/merge-clusters-and-list.yaml (the scenario
// testdata/argocd-example-merge-clusters-and-list, which runs without helm): each merged
// parameter set reaches `helm template` as the Application's `--set` flags. The list element's
// `values.redis: 'true'` is, with `goTemplate: true`, a key of its own beside the clusters
// generator's `values` map (applicationset/generators/merge.go merges the maps with mergo,
// and list.go keeps an element's keys as written), so `{{.values.redis}}` stays `false` for
// some-specific-cluster, as Argo CD renders it.
#[test]
fn the_merge_examples_parameters_reach_helm_as_each_clusters_set_flags() {
    let dir = empty_scratch("argocd-merge-helm");
    common::copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/argocd-example-merge-clusters-and-list"),
        &dir,
    );
    let (bin, log) = (dir.join("bin"), dir.join("helm.log"));
    executable(
        &bin.join("helm"),
        &format!(
            "#!/bin/sh\necho \"helm $*\" >> {log}\n\
             printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: %s\\n' \"$2\"\n",
            log = log.display()
        ),
    );
    let output = build_with_stand_ins(&dir, &bin, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let log = std::fs::read_to_string(&log).unwrap();
    for (release, flags) in [
        ("in-cluster", "--set kafka=true --set redis=false"),
        ("kafka-off", "--set kafka=false --set redis=false"),
        (
            "some-specific-cluster",
            "--set kafka=true --set redis=false",
        ),
    ] {
        assert!(
            log.lines().any(|line| line
                .starts_with(&format!("helm template {release} . --namespace default"))
                && line.contains(flags)),
            "{release}: {log}"
        );
        assert!(
            common::files_in(&dir.join("out").join(release))
                .contains_key(&format!("default/configmap_{release}.yaml")),
            "{release}"
        );
    }
}
