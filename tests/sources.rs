//! Sources a tool renders, through the real binary: kustomize directories, Helm charts and
//! declared commands. Helm cannot be installed on the project's machines, so its whole
//! contract (the argv built from a declaration, the output read, errors and exit codes) is
//! tested against a stand-in `helm` put first on PATH; kustomize likewise against a stand-in
//! named with `--kustomize`, and also through the real `kubectl kustomize` where it exists.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use crate::common;
use common::{ONE_CLUSTER_INVENTORY, PLACE_EVERYTHING, command, empty_scratch, stderr};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn executable(path: &Path, script: &str) {
    write(path, script);
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A fleet directory with the inventory and a policy placing every ConfigMap and Deployment.
fn fleet(root: &Path) -> PathBuf {
    let fleet = root.join("fleet");
    write(&fleet.join("clusters.yaml"), ONE_CLUSTER_INVENTORY);
    write(&fleet.join("policy.yaml"), PLACE_EVERYTHING);
    fleet
}

/// Runs the binary with `bin` first on PATH and `SECRET_TOKEN` set, feeding `stdin`.
fn run(args: &[&str], bin: Option<&Path>, stdin: &str) -> Output {
    let mut command = command();
    command
        .args(args)
        .env("SECRET_TOKEN", "hunter2")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(bin) = bin {
        let path = std::env::var("PATH").unwrap_or_default();
        command.env("PATH", format!("{}:{path}", bin.display()));
    }
    let mut child = command.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A stand-in `helm` in `bin`: logs its arguments and standard input to `log`, fails when the
/// chart holds a file named `fail`, and prints a ConfigMap named after the release with the
/// namespace and inline values it was given.
fn stand_in_helm(bin: &Path, log: &Path) {
    executable(
        &bin.join("helm"),
        &format!(
            r#"#!/bin/sh
echo "args: $*" >> {log}
[ "$1" = template ] || {{ echo "stand-in helm: only template" >&2; exit 64; }}
release=$2
namespace=default
values=none
while [ $# -gt 0 ]; do
  case "$1" in
    --namespace) namespace=$2; shift ;;
    --values) [ "$2" = - ] && values=$(cat); shift ;;
  esac
  shift
done
echo "stdin: $values" >> {log}
echo "env: $(env | cut -d= -f1 | sort | tr '\n' ' ')" >> {log}
if [ -f fail ]; then
  echo 'Error: parse error at (web/templates/cm.yaml:3): function "nope" not defined' >&2
  exit 1
fi
cat <<EOF
---
# Source: web/templates/cm.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: $release-settings
  namespace: $namespace
data:
  values: '$values'
EOF
"#,
            log = log.display()
        ),
    );
}

fn chart(dir: &Path) {
    write(
        &dir.join("Chart.yaml"),
        "apiVersion: v2\nname: web\nversion: 1.0.0\n",
    );
    write(&dir.join("values.yaml"), "replicas: 1\n");
    write(&dir.join("values-prod.yaml"), "replicas: 3\n");
}

#[test]
fn a_chart_renders_with_helm_template_as_its_declaration_says() {
    let root = empty_scratch("helm-declared");
    let (bin, log) = (root.join("bin"), root.join("helm.log"));
    stand_in_helm(&bin, &log);
    let fleet = fleet(&root);
    chart(&fleet.join("charts/web"));
    write(
        &fleet.join("charts/web/fedrender-source.yaml"),
        "apiVersion: fedrender.io/v1alpha1\nkind: Source\nspec:\n  helm:\n    releaseName: shop-web\n    \
         namespace: shop\n    valueFiles: [values-prod.yaml]\n    valuesObject: {replicas: 5}\n    \
         kubeVersion: \"1.31.0\"\n    apiVersions: [monitoring.coreos.com/v1]\n    skipTests: true\n",
    );
    let output = run(
        &["build", fleet.to_str().unwrap(), "--stdout"],
        Some(&bin),
        "",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let rendered = stdout(&output);
    assert!(
        rendered.contains("name: shop-web-settings\n  namespace: shop\n"),
        "{rendered}"
    );
    assert!(
        rendered.contains(r#"values: "{\"replicas\":5}""#),
        "{rendered}"
    );
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.contains(
            "args: template shop-web . --namespace shop --values values-prod.yaml --values - \
             --kube-version 1.31.0 --api-versions monitoring.coreos.com/v1 --include-crds --skip-tests\n"
        ),
        "{log}"
    );
    // A clean environment: the CI's secrets stay out of the tool's reach.
    assert!(!log.contains("SECRET_TOKEN"), "{log}");
    assert!(log.contains(" PATH "), "{log}");

    // plan says which source each object came from and what ran.
    let plan = run(&["plan", fleet.to_str().unwrap()], Some(&bin), "");
    assert_eq!(plan.status.code(), Some(0), "{}", stderr(&plan));
    let source = format!("{}/charts/web/", fleet.display());
    assert!(
        stdout(&plan).contains(&format!(
            "sources rendered by a tool:\n  {source} (helm): ran helm template shop-web . --namespace shop"
        )),
        "{}",
        stdout(&plan)
    );
    assert!(
        stdout(&plan).contains(&format!(
            "ConfigMap shop/shop-web-settings ({source} (helm):3)"
        )),
        "{}",
        stdout(&plan)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_chart_without_a_declaration_renders_with_defaults_named_after_its_directory() {
    let root = empty_scratch("helm-default");
    let (bin, log) = (root.join("bin"), root.join("helm.log"));
    stand_in_helm(&bin, &log);
    let fleet = fleet(&root);
    chart(&fleet.join("charts/billing"));
    let output = run(
        &["build", fleet.to_str().unwrap(), "--stdout"],
        Some(&bin),
        "",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("name: billing-settings\n  namespace: default\n"));
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.starts_with("args: template billing . --include-crds\n"),
        "{log}"
    );
    // The chart's own files are the tool's, never read as templates.
    assert!(!stdout(&output).contains("replicas: 3"));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn helm_errors_and_a_missing_helm_fail_with_exit_2_naming_the_chart() {
    let root = empty_scratch("helm-errors");
    let (bin, log) = (root.join("bin"), root.join("helm.log"));
    stand_in_helm(&bin, &log);
    let fleet = fleet(&root);
    let chart_dir = fleet.join("charts/web");
    chart(&chart_dir);
    let out = root.join("out");
    let build = |bin: Option<&Path>| {
        run(
            &[
                "build",
                fleet.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
            bin,
            "",
        )
    };

    write(&chart_dir.join("fail"), "");
    let failed = build(Some(&bin));
    assert_eq!(failed.status.code(), Some(2), "{}", stderr(&failed));
    let message = stderr(&failed);
    assert!(
        message.starts_with(&format!(
            "error: {}/Chart.yaml:1: rendering Helm chart {}/ failed: exit status: 1\n  \
             Error: parse error at (web/templates/cm.yaml:3): function \"nope\" not defined\n",
            chart_dir.display(),
            chart_dir.display()
        )),
        "{message}"
    );
    assert!(!out.exists(), "a failed build writes nothing");
    std::fs::remove_file(chart_dir.join("fail")).unwrap();

    // No helm on PATH at all: an empty directory stands for PATH.
    let empty = root.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let output = command()
        .args(["validate", fleet.to_str().unwrap()])
        .env("PATH", &empty)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(&format!(
            "{}/ is a Helm chart, and rendering it needs helm (Helm 3), which is not on PATH",
            chart_dir.display()
        )),
        "{}",
        stderr(&output)
    );

    // A chart from a repository is out of scope, said at the field's line.
    write(
        &chart_dir.join("fedrender-source.yaml"),
        "apiVersion: fedrender.io/v1alpha1\nkind: Source\nspec:\n  helm:\n    releaseName: web\n    \
         repoURL: https://charts.example.com\n",
    );
    let remote = build(Some(&bin));
    assert_eq!(remote.status.code(), Some(2));
    assert!(
        stderr(&remote).contains(&format!(
            "{}/fedrender-source.yaml:6: spec.helm.repoURL: charts from a repository or OCI \
             registry are out of scope",
            chart_dir.display()
        )),
        "{}",
        stderr(&remote)
    );
    // An unknown field is an error at its line, like in every other input.
    write(
        &chart_dir.join("fedrender-source.yaml"),
        "apiVersion: fedrender.io/v1alpha1\nkind: Source\nspec:\n  helm:\n    valueFile: [a.yaml]\n",
    );
    let unknown = build(Some(&bin));
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("fedrender-source.yaml:5: ")
            && stderr(&unknown).contains("valueFile"),
        "{}",
        stderr(&unknown)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn diff_base_renders_a_source_unchanged_between_revisions_once() {
    let root = empty_scratch("helm-cache");
    let (bin, log) = (root.join("bin"), root.join("helm.log"));
    stand_in_helm(&bin, &log);
    let head = fleet(&root);
    chart(&head.join("charts/web"));
    chart(&head.join("charts/api"));
    let base = root.join("base");
    std::fs::create_dir_all(&base).unwrap();
    for file in ["clusters.yaml", "policy.yaml"] {
        std::fs::copy(head.join(file), base.join(file)).unwrap();
    }
    chart(&base.join("charts/web"));
    chart(&base.join("charts/api"));
    // The api chart changes between the revisions; the web chart does not.
    write(&head.join("charts/api/values.yaml"), "replicas: 2\n");
    let output = run(
        &[
            "diff",
            head.to_str().unwrap(),
            "--base",
            base.to_str().unwrap(),
        ],
        Some(&bin),
        "",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let log = std::fs::read_to_string(&log).unwrap();
    // Sources run in parallel, so the log's order is the scheduler's.
    let mut runs: Vec<&str> = log
        .lines()
        .filter(|line| line.starts_with("args:"))
        .collect();
    runs.sort_unstable();
    assert_eq!(
        runs,
        [
            "args: template api . --include-crds",
            "args: template api . --include-crds",
            "args: template web . --include-crds",
        ],
        "{log}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_declared_command_runs_only_with_allow_exec() {
    let root = empty_scratch("command");
    let fleet = fleet(&root);
    let generator = fleet.join("generated");
    executable(
        &generator.join("gen.sh"),
        "#!/bin/sh\nprintf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: generated\\n  namespace: default\\ndata:\\n  secret: \"%s\"\\n  dir: \"%s\"\\n' \"$SECRET_TOKEN\" \"$(basename \"$PWD\")\"\n",
    );
    write(
        &generator.join("fedrender-source.yaml"),
        "apiVersion: fedrender.io/v1alpha1\nkind: Source\nspec:\n  command: [./gen.sh, --all]\n",
    );
    let refused = run(&["build", fleet.to_str().unwrap(), "--stdout"], None, "");
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(
        stderr(&refused),
        format!(
            "error: {dir}/fedrender-source.yaml:4: {dir}/ asks to run ./gen.sh --all; commands \
             from the fleet run only with --allow-exec (a pull request could otherwise run code \
             in CI)\nfedrender: 1 error; nothing was written\n",
            dir = generator.display()
        )
    );
    let allowed = run(
        &["build", fleet.to_str().unwrap(), "--stdout", "--allow-exec"],
        None,
        "",
    );
    assert_eq!(allowed.status.code(), Some(0), "{}", stderr(&allowed));
    let rendered = stdout(&allowed);
    // Run in its own directory, with none of fedrender's environment but PATH and HOME.
    assert!(
        rendered.contains("  secret: \"\"\n  dir: generated\n"),
        "{rendered}"
    );

    // A kustomize command the fleet's Config names is a command too.
    write(
        &fleet.join("fedrender.yaml"),
        "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  sources:\n    kustomize: [sh, -c, 'echo pwned']\n",
    );
    write(&fleet.join("app/kustomization.yaml"), "resources: []\n");
    let refused = run(
        &["validate", fleet.to_str().unwrap(), "--allow-exec"],
        None,
        "",
    );
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let refused = run(&["validate", fleet.to_str().unwrap()], None, "");
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains(&format!(
            "{}/fedrender.yaml:5: spec.sources.kustomize asks to run sh -c 'echo pwned'; a \
             kustomize command named by the fleet runs only with --allow-exec",
            fleet.display()
        )),
        "{}",
        stderr(&refused)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// A stand-in kustomize: logs the directory it builds and prints a ConfigMap named after it.
fn stand_in_kustomize(bin: &Path, log: &Path) -> PathBuf {
    let path = bin.join("kustomize");
    executable(
        &path,
        &format!(
            "#!/bin/sh\necho \"$* in $(basename \"$PWD\")\" >> {log}\n\
             [ -f broken ] && {{ echo 'Error: accumulating resources: nosuch.yaml: no such file' >&2; exit 1; }}\n\
             printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: built-%s\\n  namespace: default\\n' \"$(basename \"$PWD\")\"\n",
            log = log.display()
        ),
    );
    path
}

#[test]
fn kustomize_builds_each_outermost_directory_once() {
    let root = empty_scratch("kustomize-stand-in");
    let (bin, log) = (root.join("bin"), root.join("kustomize.log"));
    let kustomize = stand_in_kustomize(&bin, &log);
    let fleet = fleet(&root);
    write(
        &fleet.join("web/base/kustomization.yaml"),
        "resources: [deployment.yaml]\n",
    );
    write(&fleet.join("web/base/deployment.yaml"), "not: read\n");
    for overlay in ["eu", "us"] {
        write(
            &fleet.join(format!("web/overlays/{overlay}/kustomization.yaml")),
            "resources: [../../base, ../../../shared/settings.yaml]\n",
        );
    }
    write(
        &fleet.join("shared/settings.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n  namespace: default\n",
    );
    let command = format!("{} build", kustomize.display());
    let output = run(
        &[
            "build",
            fleet.to_str().unwrap(),
            "--stdout",
            "--kustomize",
            &command,
        ],
        None,
        "",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let rendered = stdout(&output);
    assert!(rendered.contains("name: built-eu\n"), "{rendered}");
    assert!(rendered.contains("name: built-us\n"), "{rendered}");
    // The base is built through the overlays only, and the file they name is theirs.
    assert!(!rendered.contains("built-base"), "{rendered}");
    assert!(!rendered.contains("name: shared\n"), "{rendered}");
    // Sources run in parallel, so the log's order is the scheduler's.
    let log = std::fs::read_to_string(&log).unwrap();
    let mut runs: Vec<&str> = log.lines().collect();
    runs.sort_unstable();
    assert_eq!(runs, ["build . in eu", "build . in us"]);

    write(&fleet.join("web/overlays/us/broken"), "");
    let output = run(
        &["validate", fleet.to_str().unwrap(), "--kustomize", &command],
        None,
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    let us = fleet.join("web/overlays/us");
    assert_eq!(
        stderr(&output),
        format!(
            "error: {us}/kustomization.yaml:1: building kustomize directory {us}/ failed: exit \
             status: 1\n  Error: accumulating resources: nosuch.yaml: no such file\n  (ran {} \
             build . in {us})\nfedrender: 1 error; nothing was written\n",
            kustomize.display(),
            us = us.display()
        )
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// Whether kubectl runs here, for the tests of the real `kubectl kustomize`; a test without it
/// is reported skipped (a failure under CI).
fn kubectl_available() -> bool {
    common::tools::require(&["kubectl"])
}

#[test]
fn kubectl_kustomize_builds_overlays_with_images_prefixes_and_generators() {
    if !kubectl_available() {
        return;
    }
    let root = empty_scratch("kubectl-kustomize");
    let fleet = fleet(&root);
    write(
        &fleet.join("web/base/kustomization.yaml"),
        "resources: [deployment.yaml]\nconfigMapGenerator:\n- name: web-config\n  literals: [mode=fast]\n",
    );
    write(
        &fleet.join("web/base/deployment.yaml"),
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  \
         selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    \
         spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n        \
         envFrom: [{configMapRef: {name: web-config}}]\n",
    );
    for (overlay, tag) in [("eu", "1.28"), ("us", "1.27")] {
        write(
            &fleet.join(format!("web/overlays/{overlay}/kustomization.yaml")),
            &format!(
                "namespace: shop\nnamePrefix: {overlay}-\nresources: [../../base]\nimages:\n- name: nginx\n  newTag: \"{tag}\"\n"
            ),
        );
    }
    let output = run(&["build", fleet.to_str().unwrap(), "--stdout"], None, "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let rendered = stdout(&output);
    // The images bump, the name prefix and the generated, hashed ConfigMap, which the
    // Deployment refers to by its generated name.
    assert!(
        rendered.contains("name: eu-web\n  namespace: shop\n"),
        "{rendered}"
    );
    assert!(rendered.contains("image: nginx:1.28\n"), "{rendered}");
    assert!(rendered.contains("image: nginx:1.27\n"), "{rendered}");
    let generated = rendered
        .lines()
        .find_map(|line| line.trim().strip_prefix("name: eu-web-config-"))
        .expect("a generated ConfigMap");
    assert!(
        rendered.contains(&format!(
            "configMapRef:\n            name: eu-web-config-{generated}"
        )),
        "{rendered}"
    );

    write(
        &fleet.join("web/overlays/us/kustomization.yaml"),
        "resources: [../../base]\npatches: [{path: nosuch.yaml}]\n",
    );
    let output = run(&["validate", fleet.to_str().unwrap()], None, "");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(&format!(
            "building kustomize directory {}/ failed",
            fleet.join("web/overlays/us").display()
        )) && stderr(&output).contains("nosuch.yaml"),
        "{}",
        stderr(&output)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// kustomize's `buildMetadata: [originAnnotations]` names the file each object came from
/// (kustomize api/resource/origin.go): a message about an object of the build points at that
/// file, at the field's own line, rather than at a line of kustomize's output.
#[test]
fn messages_about_a_kustomize_build_point_at_the_file_kustomize_names() {
    if !kubectl_available() {
        return;
    }
    let root = empty_scratch("kustomize-origin");
    let fleet = fleet(&root);
    write(
        &fleet.join("web/base/kustomization.yaml"),
        "resources: [all.yaml]\n",
    );
    let base = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: b}\n---\n\
                apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  \
                replicas: \"two\"\n  selector: {matchLabels: {app: web}}\n";
    write(&fleet.join("web/base/all.yaml"), base);
    write(
        &fleet.join("web/eu/kustomization.yaml"),
        "resources: [../base]\nnamePrefix: eu-\nbuildMetadata: [originAnnotations]\n",
    );
    let output = run(&["validate", fleet.to_str().unwrap()], None, "");
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let replicas_line = base
        .lines()
        .position(|line| line.contains("replicas"))
        .unwrap()
        + 1;
    assert!(
        stderr(&output).starts_with(&format!(
            "error: {}:{replicas_line}: Deployment eu-web: spec.replicas is \"two\", not an integer",
            fleet.join("web/base/all.yaml").display()
        )),
        "{}",
        stderr(&output)
    );
    // Without the build metadata, the line is the build output's.
    write(
        &fleet.join("web/eu/kustomization.yaml"),
        "resources: [../base]\nnamePrefix: eu-\n",
    );
    let output = run(&["validate", fleet.to_str().unwrap()], None, "");
    assert!(
        stderr(&output).starts_with(&format!(
            "error: {}/ (kustomize):",
            fleet.join("web/eu").display()
        )),
        "{}",
        stderr(&output)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// The origin a build writes is the pull request's to choose: a path that leads out of the
/// fleet, or names another repository, is not followed, and the message keeps the build
/// output's line.
#[test]
fn a_kustomize_origin_outside_the_fleet_is_not_followed() {
    let root = empty_scratch("kustomize-origin-outside");
    let bin = root.join("bin");
    let kustomize = bin.join("kustomize");
    write(
        &root.join("secret.yaml"),
        "apiVersion: apps/v1\nkind: Deployment\n",
    );
    let build = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  \
                 annotations:\n    config.kubernetes.io/origin: |\n      path: ../../secret.yaml\n\
                 spec:\n  replicas: two\n";
    executable(&kustomize, &format!("#!/bin/sh\nprintf '%s' '{build}'\n"));
    let fleet = fleet(&root);
    write(&fleet.join("web/kustomization.yaml"), "resources: []\n");
    let command = format!("{} build", kustomize.display());
    let output = run(
        &["validate", fleet.to_str().unwrap(), "--kustomize", &command],
        None,
        "",
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).starts_with(&format!(
            "error: {}/ (kustomize):9: Deployment web: spec.replicas is \"two\"",
            fleet.join("web").display()
        )),
        "{}",
        stderr(&output)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn every_command_reads_the_fleet_from_standard_input() {
    let fleet_text = format!(
        "{PLACE_EVERYTHING}---\n{ONE_CLUSTER_INVENTORY}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: piped\n  namespace: default\n"
    );
    let root = empty_scratch("stdin-every-command");
    let rendered = root.join("rendered");
    let commands: [(&[&str], &str); 5] = [
        (&["build", "-", "--stdout"], "name: piped"),
        (&["build", "-", "--out", rendered.to_str().unwrap()], ""),
        (&["plan", "-"], "ConfigMap default/piped (<stdin>:"),
        (&["validate", "-"], ""),
        // Exit 0 and no output: the piped fleet is the tree built from it.
        (&["diff", "-", "--against", rendered.to_str().unwrap()], ""),
    ];
    for (args, expected) in commands {
        let output = run(args, None, &fleet_text);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stdout(&output).contains(expected) || stderr(&output).contains(expected),
            "{args:?}: {}{}",
            stdout(&output),
            stderr(&output)
        );
    }
    assert!(
        rendered
            .join("member1/default/configmap_piped.yaml")
            .exists()
    );
    // Against another input the piped head is placed twice (one fleet in memory at a time):
    // standard input is read once and both passes see it.
    let base = root.join("base");
    write(
        &base.join("fleet.yaml"),
        &format!("{fleet_text}data:\n  greeting: hello\n"),
    );
    let output = run(
        &[
            "diff",
            "-",
            "--base",
            base.to_str().unwrap(),
            "--format",
            "stat",
        ],
        None,
        &fleet_text,
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("~ ConfigMap default/piped on member1")
            && stdout(&output).contains("0 added, 1 changed, 0 removed"),
        "{}",
        stdout(&output)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_platform_example_renders_kustomize_helm_and_plain_yaml_together() {
    if !kubectl_available() {
        return;
    }
    // Helm stands in with the chart's output checked in beside it, which is what
    // `helm template` prints for the example's declaration.
    let root = empty_scratch("platform-example");
    let bin = root.join("bin");
    executable(&bin.join("helm"), "#!/bin/sh\ncat helm-template.yaml\n");
    let output = run(
        &[
            "build",
            "examples/platform",
            "--clusters",
            "examples/platform/clusters.yaml",
            "--stdout",
            "--strict",
        ],
        Some(&bin),
        "",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // Named as when this file was a test binary of its own, the name its snapshot has.
    common::snapshot_settings("tests/snapshots")
        .bind(|| insta::assert_snapshot!("sources__platform_example", stdout(&output)));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_directory_is_one_source_and_a_declaration_says_which() {
    let root = empty_scratch("declarations");
    let fleet = fleet(&root);
    let dir = fleet.join("app");
    let validate = || run(&["validate", fleet.to_str().unwrap()], None, "");
    let declare = |spec: &str| {
        write(
            &dir.join("fedrender-source.yaml"),
            &format!("apiVersion: fedrender.io/v1alpha1\nkind: Source\nspec:\n{spec}"),
        )
    };
    // Each mistake is refused with the declaration's file and line and what to do.
    for (spec, line, message) in [
        (
            "  helm: {}\n  command: [make]\n",
            5,
            "spec: a source is a Helm chart or a command, not both",
        ),
        (
            "  {}\n",
            3,
            "spec: declare helm (for the chart in this directory) or command",
        ),
        (
            "  command: []\n",
            4,
            "spec.command: give the program and its arguments as a list",
        ),
        ("  helm: {releaseName: web}\n", 4, "has no Chart.yaml"),
    ] {
        declare(spec);
        let output = validate();
        assert_eq!(output.status.code(), Some(2), "{spec}");
        let expected = format!("{}/fedrender-source.yaml:{line}: ", dir.display());
        assert!(
            stderr(&output).contains(&expected) && stderr(&output).contains(message),
            "{spec}: {}",
            stderr(&output)
        );
    }
    // A chart and a kustomization with no declaration: which one renders is not guessed.
    std::fs::remove_file(dir.join("fedrender-source.yaml")).unwrap();
    chart(&dir);
    write(&dir.join("kustomization.yaml"), "resources: []\n");
    let output = validate();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("holds both a Chart.yaml and a kustomization.yaml"),
        "{}",
        stderr(&output)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn include_and_exclude_choose_sources_by_their_marker_file() {
    let root = empty_scratch("kustomize-globs");
    let (bin, log) = (root.join("bin"), root.join("kustomize.log"));
    let kustomize = stand_in_kustomize(&bin, &log);
    let fleet = fleet(&root);
    for app in ["eu", "us"] {
        write(
            &fleet.join(format!("{app}/kustomization.yaml")),
            "resources: []\n",
        );
    }
    let command = format!("{} build", kustomize.display());
    let output = run(
        &[
            "build",
            fleet.to_str().unwrap(),
            "--stdout",
            "--kustomize",
            &command,
            "--exclude",
            "us/*",
        ],
        None,
        "",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("name: built-eu\n"));
    assert!(!stdout(&output).contains("built-us"));
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "build . in eu\n");
    std::fs::remove_dir_all(&root).unwrap();
}

/// What a user of Helm with Karmada or Argo CD expects of hooks: a test hook (`helm test`)
/// is never created by `helm install` and Argo CD ignores it, so it is left out unless the
/// declaration keeps tests (`skipTests: false`); any other hook is rendered, as Karmada
/// propagates it, and named in `plan` and a warning.
#[test]
fn helm_test_hooks_are_left_out_and_other_hooks_named() {
    let root = empty_scratch("helm-hooks");
    let bin = root.join("bin");
    executable(
        &bin.join("helm"),
        "#!/bin/sh\ncat <<'EOF'\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  \
         namespace: shop\ndata: {a: b}\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web-test\n  \
         namespace: shop\n  annotations:\n    helm.sh/hook: test\nspec:\n  containers: [{name: t, image: busybox}]\n\
         ---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: web-migrate\n  namespace: shop\n  \
         annotations:\n    helm.sh/hook: pre-install,pre-upgrade\nspec:\n  template:\n    spec:\n      \
         restartPolicy: Never\n      containers: [{name: m, image: busybox}]\nEOF\n",
    );
    let fleet = fleet(&root);
    write(
        &fleet.join("policy.yaml"),
        &PLACE_EVERYTHING.replace(
            "  - {apiVersion: apps/v1, kind: Deployment}\n",
            "  - {apiVersion: apps/v1, kind: Deployment}\n  - {apiVersion: v1, kind: Pod}\n  - {apiVersion: batch/v1, kind: Job}\n",
        ),
    );
    chart(&fleet.join("charts/web"));
    let fleet_arg = fleet.to_str().unwrap();
    let output = run(&["build", fleet_arg, "--stdout"], Some(&bin), "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let rendered = stdout(&output);
    assert!(rendered.contains("name: web\n"), "{rendered}");
    assert!(rendered.contains("name: web-migrate\n"), "{rendered}");
    assert!(!rendered.contains("web-test"), "{rendered}");
    let warnings = stderr(&output);
    assert!(
        warnings.contains("Job shop/web-migrate (pre-install, pre-upgrade) is a Helm hook of")
            && warnings.contains("[not-modelled]"),
        "{warnings}"
    );
    let plan = run(&["plan", fleet_arg], Some(&bin), "");
    let plan_text = stdout(&plan);
    assert!(
        plan_text.contains("Helm hook, rendered as an ordinary object: Job shop/web-migrate (pre-install, pre-upgrade)")
            && plan_text.contains("Helm test hook, left out (skipTests: false keeps it): Pod shop/web-test (test)"),
        "{plan_text}"
    );
    // The declaration keeps the tests.
    write(
        &fleet.join("charts/web/fedrender-source.yaml"),
        "apiVersion: fedrender.io/v1alpha1\nkind: Source\nspec:\n  helm:\n    skipTests: false\n",
    );
    let kept = run(&["build", fleet_arg, "--stdout"], Some(&bin), "");
    assert_eq!(kept.status.code(), Some(0), "{}", stderr(&kept));
    assert!(stdout(&kept).contains("name: web-test\n"));
    assert!(stderr(&kept).contains("Pod shop/web-test (test) is a Helm hook"));
}

/// A policy that names an object as its kustomize base writes it selects nothing once the
/// kustomization's namePrefix has renamed it: the warning names the renamed object.
#[test]
fn a_selector_of_a_renamed_object_suggests_the_new_name() {
    let root = empty_scratch("renamed-selector");
    let (bin, log) = (root.join("bin"), root.join("kustomize.log"));
    let kustomize = stand_in_kustomize(&bin, &log);
    let fleet = fleet(&root);
    write(
        &fleet.join("policy.yaml"),
        "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: app, namespace: default}\nspec:\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: app}]\n  placement:\n    clusterAffinity: {clusterNames: [member1]}\n",
    );
    write(
        &fleet.join("app/kustomization.yaml"),
        "namePrefix: built-\nresources: []\n",
    );
    let output = run(
        &[
            "validate",
            fleet.to_str().unwrap(),
            "--kustomize",
            kustomize.to_str().unwrap(),
        ],
        None,
        "",
    );
    let error = stderr(&output);
    assert!(
        error.contains("spec.resourceSelectors[0].name \"app\" names no template; kustomize's namePrefix or nameSuffix renamed it: did you mean built-app?"),
        "{error}"
    );
}
