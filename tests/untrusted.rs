//! A pull request from a fork controls every file under FLEET_DIR, never the command line. Each
//! test here is one attack such a pull request can try, written as the attacker would, run
//! through the real binary: it must fail with exit 2 and a message at the file and line that
//! asked, having run, read and fetched nothing, and leaving `--out` byte for byte as it was.
//!
//! Helm cannot be installed here, so a stand-in `helm` (a shell script that records that it
//! ran) takes its place; kustomize is the real `kubectl kustomize` where installed.

use std::io::Read;
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::common;
use common::{CONFIG_MAP, Repository, stderr};

/// A repository with a fleet that renders one ConfigMap, already built into `rendered/`, so
/// that every attack can be checked to leave the tree as it was.
fn repository(name: &str) -> Repository {
    Repository::built(&format!("untrusted-{name}"))
}

impl Repository {
    /// A stand-in `helm` in `bin/` (an absolute PATH entry): touches `helm-ran` and runs
    /// `body`, the rest of its script.
    fn stand_in_helm(&self, body: &str) {
        let marker = self.path("helm-ran");
        self.executable(
            "bin/helm",
            &format!("#!/bin/sh\necho \"$$\" > {}\n{body}\n", marker.display()),
        );
    }

    fn helm_ran(&self) -> bool {
        self.path("helm-ran").exists()
    }

    /// Runs a build, a check, a validation, a plan and a diff of the fleet with `flags`; each
    /// must fail with exit 2, say `expected`, never quote the secret, and leave the tree as it
    /// was. Returns the build's standard error.
    fn refused_everywhere(&self, flags: &[&str], expected: &str) -> String {
        let before = self.tree();
        let mut build_error = String::new();
        for command in [
            &[
                "build",
                "fleet",
                "--clusters",
                "fleet/clusters.yaml",
                "--out",
                "rendered",
            ][..],
            &[
                "build",
                "fleet",
                "--clusters",
                "fleet/clusters.yaml",
                "--out",
                "rendered",
                "--check",
            ],
            &["validate", "fleet", "--clusters", "fleet/clusters.yaml"],
            &["plan", "fleet", "--clusters", "fleet/clusters.yaml"],
            &[
                "diff",
                "fleet",
                "--clusters",
                "fleet/clusters.yaml",
                "--against",
                "rendered",
            ],
            &[
                "build",
                "fleet",
                "--clusters",
                "fleet/clusters.yaml",
                "--stdout",
                "--message-format",
                "github",
            ],
        ] {
            let args: Vec<&str> = command.iter().chain(flags).copied().collect();
            let output = self.fedrender(&args);
            let error = stderr(&output);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {error}");
            assert!(
                says(&error, expected),
                "{args:?}: expected {expected:?} in\n{error}"
            );
            for text in [
                &error,
                &String::from_utf8_lossy(&output.stdout).into_owned(),
            ] {
                assert!(
                    !text.contains("hunter2"),
                    "{args:?} leaked the secret: {text}"
                );
            }
            assert_eq!(self.tree(), before, "{args:?} changed the tree");
            if build_error.is_empty() {
                build_error = error;
            }
        }
        build_error
    }
}

/// Whether the process runs: it exists and is not a zombie (a killed process whose parent
/// died too waits for init to reap it, which a container's init may never do).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z')),
        Err(_) => false,
    }
}

/// Whether `error` says `expected`; a `file:line: message` is looked for in the form of the
/// message format (a GitHub workflow command puts file and line in properties).
fn says(error: &str, expected: &str) -> bool {
    if error.contains(expected) {
        return true;
    }
    let located = expected.split_once(": ").and_then(|(place, message)| {
        let (file, line) = place.rsplit_once(':')?;
        line.parse::<u64>().ok().map(|line| (file, line, message))
    });
    match located {
        Some((file, line, message)) => {
            let escape = |text: &str| text.replace('%', "%25").replace('\n', "%0A");
            error.contains(&format!(
                "file={},line={line}",
                escape(file).replace(':', "%3A")
            )) && error.contains(&escape(message))
        }
        None => false,
    }
}

/// Whether kubectl runs here; without it the real `kubectl kustomize` part is reported
/// skipped (a failure under CI) and a stand-in takes its place.
fn kubectl_available() -> bool {
    common::tools::require_for("kubectl", "the real kubectl kustomize part")
}

// 1. A Config grants nothing only the command line may grant.
#[test]
fn a_config_cannot_let_commands_run() {
    let repository = repository("allow-exec");
    let ran = repository.path("command-ran");
    repository.write(
        "fleet/gen/fedrender-source.yaml",
        &format!(
            "apiVersion: fedrender.io/v1alpha1\nkind: Source\nspec:\n  command: [sh, -c, \"touch {}\"]\n",
            ran.display()
        ),
    );
    repository.write(
        "fleet/fedrender.yaml",
        "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  sources:\n    allowExec: true\n",
    );
    repository.refused_everywhere(&[], "commands from the fleet run only with --allow-exec");
    assert!(!ran.exists(), "the command ran");
    // Without a command to run, the field itself is refused at its line.
    std::fs::remove_dir_all(repository.path("fleet/gen")).unwrap();
    repository.refused_everywhere(
        &[],
        "fleet/fedrender.yaml:5: Config: spec.sources.allowExec: a Config is part of the repository",
    );
    // A kustomize command the Config names is a command too.
    repository.write(
        "fleet/fedrender.yaml",
        &format!(
            "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  sources:\n    kustomize: [sh, -c, \"touch {}\"]\n",
            ran.display()
        ),
    );
    repository.write("fleet/app/kustomization.yaml", "resources: [cm.yaml]\n");
    repository.write("fleet/app/cm.yaml", &CONFIG_MAP.replace("settings", "app"));
    repository.refused_everywhere(&[], "runs only with --allow-exec");
    assert!(!ran.exists(), "the Config's kustomize command ran");
}

// 2. A Config's paths stay inside the repository, and nothing outside is ever quoted.
#[test]
fn a_configs_paths_cannot_leave_the_repository() {
    let repository = repository("config-paths");
    std::os::unix::fs::symlink(
        "/proc/self/environ",
        repository.path("fleet/inventory.yaml"),
    )
    .unwrap();
    for (field, value, expected) in [
        (
            "clusters",
            "/proc/self/environ",
            "spec.clusters \"/proc/self/environ\" is absolute",
        ),
        (
            "clusters",
            "../../../../../../proc/self/environ",
            "leads outside",
        ),
        ("clusters", "inventory.yaml", "through a symbolic link"),
        (
            "output",
            "/tmp/fedrender-attack-output",
            "spec.output \"/tmp/fedrender-attack-output\" is absolute",
        ),
        ("output", "../..", "leads outside"),
    ] {
        repository.write(
            "fleet/fedrender.yaml",
            &format!(
                "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  {field}: {value}\n"
            ),
        );
        for format in ["human", "github"] {
            let output = repository.fedrender(&["build", "fleet", "--message-format", format]);
            let error = stderr(&output);
            assert_eq!(output.status.code(), Some(2), "{field}: {error}");
            assert!(
                error
                    .contains(&expected.replace(':', if format == "github" { "%3A" } else { ":" })),
                "{field} {value}: {error}"
            );
            assert!(
                error.contains("fedrender.yaml") && error.contains('4'),
                "{error}"
            );
            assert!(
                !error.contains("hunter2") && !error.contains("PATH="),
                "{error}"
            );
        }
    }
    assert!(!Path::new("/tmp/fedrender-attack-output").exists());
}

// 2b. The paths the command line names are the job's, but the links along them are the pull
// request's: a committed `fleet -> /` or `clusters.yaml -> /proc/self/environ` leads nowhere.
#[test]
fn links_the_repository_holds_cannot_lead_command_line_paths_out() {
    let repository = repository("command-line-links");
    std::os::unix::fs::symlink("/", repository.path("root")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", repository.path("environ.yaml")).unwrap();
    std::os::unix::fs::symlink("/tmp", repository.path("elsewhere")).unwrap();
    for (args, expected) in [
        (
            &["validate", "root", "--clusters", "fleet/clusters.yaml"][..],
            "FLEET_DIR root",
        ),
        (
            &["validate", "fleet", "--clusters", "environ.yaml"],
            "--clusters environ.yaml",
        ),
        (
            &[
                "build",
                "fleet",
                "--clusters",
                "fleet/clusters.yaml",
                "--out",
                "elsewhere/x",
            ],
            "--out elsewhere/x",
        ),
        (
            &[
                "diff",
                "fleet",
                "--clusters",
                "fleet/clusters.yaml",
                "--against",
                "root",
            ],
            "--against root",
        ),
    ] {
        let output = repository.fedrender(args);
        let error = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {error}");
        assert!(
            error.contains(expected) && error.contains("symbolic link"),
            "{error}"
        );
        assert!(!error.contains("hunter2"), "{error}");
    }
    assert!(!Path::new("/tmp/x").exists());
}

// 3. What Helm reads is inside the fleet, or Helm never runs.
#[test]
fn helm_gets_no_value_file_from_outside_the_fleet() {
    let repository = repository("helm-values");
    repository.stand_in_helm("exit 1");
    repository.write("secret.yaml", "token: hunter2\n");
    repository.write(
        "fleet/chart/Chart.yaml",
        "apiVersion: v2\nname: web\nversion: 1.0.0\n",
    );
    for value_file in [
        "/etc/passwd",
        "../../secret.yaml",
        "https://example.com/values.yaml",
    ] {
        repository.write(
            "fleet/chart/fedrender-source.yaml",
            &format!(
                "apiVersion: fedrender.io/v1alpha1\nkind: Source\nspec:\n  helm:\n    valueFiles: [values.yaml, {value_file:?}]\n"
            ),
        );
        repository.refused_everywhere(
            &[],
            "fleet/chart/fedrender-source.yaml:5: spec.helm.valueFiles[1]",
        );
        assert!(!repository.helm_ran(), "helm ran with {value_file}");
    }
    // A link in the chart that leads out refuses the chart too.
    std::fs::remove_file(repository.path("fleet/chart/fedrender-source.yaml")).unwrap();
    std::os::unix::fs::symlink(
        repository.path("secret.yaml"),
        repository.path("fleet/chart/values.yaml"),
    )
    .unwrap();
    std::fs::remove_file(repository.path("fleet/chart/values.yaml")).unwrap();
    std::os::unix::fs::symlink("/etc", repository.path("fleet/chart/templates")).unwrap();
    repository.refused_everywhere(&[], "is a symbolic link leading outside");
    assert!(!repository.helm_ran());
    // A release name is not a flag: `--post-renderer=…` would make helm run a program.
    std::fs::remove_file(repository.path("fleet/chart/templates")).unwrap();
    repository.write(
        "fleet/chart/fedrender-source.yaml",
        "apiVersion: fedrender.io/v1alpha1\nkind: Source\nspec:\n  helm:\n    releaseName: --post-renderer=./evil.sh\n",
    );
    repository.refused_everywhere(
        &[],
        "spec.helm.releaseName \"--post-renderer=./evil.sh\" is not a Helm release name",
    );
    std::fs::remove_file(repository.path("fleet/chart/fedrender-source.yaml")).unwrap();
    std::fs::rename(
        repository.path("fleet/chart"),
        repository.path("fleet/--post-renderer=evil"),
    )
    .unwrap();
    repository.refused_everywhere(&[], "release name is its directory's");
    assert!(!repository.helm_ran());
}

/// A customization of a Widget whose GetReplicas is `body`, and a Widget.
fn widget_script(repository: &Repository, body: &str) {
    repository.write(
        "fleet/widgets.yaml",
        &format!(
            "apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {{name: widgets}}
spec:
  target: {{apiVersion: example.io/v1, kind: Widget}}
  customizations:
    replicaResource:
      luaScript: |
        function GetReplicas(obj)
          {body}
        end
---
apiVersion: example.io/v1
kind: Widget
metadata: {{name: w, namespace: default}}
spec: {{replicas: 2, text: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa}}
"
        ),
    );
}

// 4. A pattern that backtracks for hours inside one library call is stopped by the budget.
#[test]
fn a_lua_pattern_cannot_hang_the_build() {
    let repository = repository("lua-pattern");
    widget_script(
        &repository,
        "local s = obj.spec.text .. obj.spec.text .. obj.spec.text .. obj.spec.text return #{string.find(s, '(.-)(.-)(.-)(.-)(.-)x')}, nil",
    );
    let mut command =
        repository.command(&["validate", "fleet", "--clusters", "fleet/clusters.yaml"]);
    // The budget is counted, not timed: the message says it ran out, and the run ends.
    let output = command.output().unwrap();
    let error = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{error}");
    assert!(
        error.contains("did not finish within 50000000 Lua instructions"),
        "{error}"
    );
    repository.refused_everywhere(&[], "did not finish");
}

// 5. A result that reuses its tables cannot take the machine's memory.
#[test]
fn a_lua_result_cannot_exhaust_memory() {
    let repository = repository("lua-result");
    widget_script(
        &repository,
        "local t = {'leaf'} for i = 1, 40 do t = {a = t, b = t} end return 1, t",
    );
    repository.refused_everywhere(&[], "the result is larger than 16 MiB once converted");
}

// 6. Tools are found through absolute PATH entries only.
#[test]
fn relative_path_entries_never_find_the_pull_requests_programs() {
    let repository = repository("relative-path");
    let ran = repository.path("planted-ran");
    for planted in ["fleet/chart/helm", "fleet/chart/bin/helm", "helm"] {
        repository.executable(planted, &format!("#!/bin/sh\ntouch {}\n", ran.display()));
    }
    repository.write(
        "fleet/chart/Chart.yaml",
        "apiVersion: v2\nname: web\nversion: 1.0.0\n",
    );
    let system: Vec<String> = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .filter(|dir| dir.is_absolute() && !dir.join("helm").exists())
        .map(|dir| dir.display().to_string())
        .collect();
    for path in [
        format!(".:bin:{}", system.join(":")),
        format!("{}::", system.join(":")),
    ] {
        let output = repository
            .command(&["validate", "fleet", "--clusters", "fleet/clusters.yaml"])
            .env("PATH", &path)
            .output()
            .unwrap();
        let error = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{error}");
        assert!(
            error.contains("needs helm (Helm 3), which is not on PATH"),
            "{error}"
        );
        assert!(!ran.exists(), "a planted helm ran with PATH={path}");
    }
}

// 7. Rendering is offline: a kustomization naming a URL fetches nothing.
#[test]
fn a_kustomization_cannot_reach_the_network() {
    let repository = repository("network");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let ran = repository.path("kustomize-ran");
    repository.executable(
        "bin/stand-in-kustomize",
        &format!("#!/bin/sh\ntouch {}\n", ran.display()),
    );
    let kubectl = kubectl_available();
    for resource in [
        format!("http://127.0.0.1:{port}/configmap.yaml"),
        format!("git::http://127.0.0.1:{port}/repo.git"),
        "github.com/example/fleet//base?ref=main".to_string(),
    ] {
        repository.write(
            "fleet/app/kustomization.yaml",
            &format!("resources:\n- cm.yaml\n- {resource}\n"),
        );
        repository.write("fleet/app/cm.yaml", &CONFIG_MAP.replace("settings", "app"));
        let mut flags: Vec<&str> = Vec::new();
        let stand_in = repository
            .path("bin/stand-in-kustomize")
            .display()
            .to_string();
        if !kubectl {
            flags.extend(["--kustomize", &stand_in]);
        }
        let error =
            repository.refused_everywhere(&flags, "fleet/app/kustomization.yaml:3: resources[1]");
        assert!(error.contains("fedrender renders offline"), "{error}");
        assert!(!ran.exists());
    }
    match listener.accept() {
        Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {}
        Ok((mut stream, peer)) => {
            let mut request = String::new();
            let _ = stream.read_to_string(&mut request);
            panic!("a connection arrived from {peer}: {request}");
        }
        Err(error) => panic!("{error}"),
    }
}

// 8. Nothing outside the fleet is read, not even to decide whether a rebuild is needed.
#[test]
fn a_kustomization_cannot_make_fedrender_read_outside_the_fleet() {
    let repository = repository("kustomize-outside");
    // Opening a FIFO waits for a writer for ever: a writer waits at this one, and its opens
    // are watched (on Linux), so that reading it fails the test instead of hanging it.
    let fifo = repository.path("outside/fifo.yaml");
    std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    #[cfg(target_os = "linux")]
    let watch = common::fifo::FifoWatch::new(&[&fifo]);
    for (reference, expected) in [
        ("/usr/share", "resources[0] \"/usr/share\" is absolute"),
        (
            "../../outside",
            "resources[0] \"../../outside\" leads outside",
        ),
        ("../../outside/fifo.yaml", "leads outside"),
        ("../../../../../../..", "leads outside"),
    ] {
        repository.write(
            "fleet/app/kustomization.yaml",
            &format!("resources: [{reference:?}]\n"),
        );
        repository.refused_everywhere(&["--kustomize", "false"], expected);
    }
    repository.write("fleet/app/kustomization.yaml", "resources: [cm.yaml]\nconfigMapGenerator:\n- name: x\n  files: [../../outside/fifo.yaml]\n");
    repository.refused_everywhere(&["--kustomize", "false"], "configMapGenerator[0].files[0]");
    #[cfg(target_os = "linux")]
    assert_eq!(
        watch.opened(),
        Vec::<std::path::PathBuf>::new(),
        "the FIFO was opened"
    );
}

// 9. What a tool prints is capped.
#[test]
fn a_tool_cannot_print_without_bound() {
    let repository = repository("output-cap");
    repository.stand_in_helm("while :; do echo '# aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'; done");
    repository.write(
        "fleet/chart/Chart.yaml",
        "apiVersion: v2\nname: web\nversion: 1.0.0\n",
    );
    // The tool prints for ever: only the cap ends the run, which the message says.
    repository.refused_everywhere(
        &["--max-tool-output", "1Mi"],
        "printed more than 1 MiB; it was stopped (--max-tool-output sets the limit)",
    );
}

// 10. A tool that never exits is stopped, with everything it started, and so is one that is
// running when fedrender is told to stop.
#[test]
fn a_tool_cannot_outlive_its_time_or_fedrender() {
    let repository = repository("timeout");
    let child_pid = repository.path("child-pid");
    // What the tool starts marks the repository if it outlives its sleep: killed with the
    // tool, it never does.
    let lived = repository.path("tool-child-lived");
    repository.stand_in_helm(&format!(
        "(sleep 60; touch {}) &\necho $! > {}\nwait",
        lived.display(),
        child_pid.display()
    ));
    repository.write(
        "fleet/chart/Chart.yaml",
        "apiVersion: v2\nname: web\nversion: 1.0.0\n",
    );
    repository.refused_everywhere(
        &["--tool-timeout", "1s"],
        "did not finish within 1 s; it and everything it started were stopped",
    );
    let pid: i32 = std::fs::read_to_string(&child_pid)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(!alive(pid), "the tool's child {pid} outlived it");
    assert!(!lived.exists(), "the tool's child outlived it");

    // SIGTERM while the tool runs: the tool's group is killed, fedrender dies by the signal.
    std::fs::remove_file(repository.path("helm-ran")).unwrap();
    std::fs::remove_file(&child_pid).unwrap();
    let before = repository.tree();
    let child = repository
        .command(&[
            "build",
            "fleet",
            "--clusters",
            "fleet/clusters.yaml",
            "--out",
            "rendered",
        ])
        .spawn()
        .unwrap();
    // Once the tool has started (its child's pid written), fedrender is told to stop.
    let mut child = child;
    while !child_pid.exists()
        || std::fs::read_to_string(&child_pid)
            .unwrap()
            .trim()
            .is_empty()
    {
        assert!(
            child.try_wait().unwrap().is_none(),
            "fedrender ended before the tool started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let helm: i32 = std::fs::read_to_string(repository.path("helm-ran"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let sleeper: i32 = std::fs::read_to_string(&child_pid)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // SAFETY: kill(2) sends SIGTERM to the fedrender this test started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let output = child.wait_with_output().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        output.status.signal(),
        Some(libc::SIGTERM),
        "{}",
        stderr(&output)
    );
    assert!(
        stderr(&output).contains("interrupted by SIGTERM"),
        "{}",
        stderr(&output)
    );
    // Killed, they go at once; left alive, they go after the sleep, leaving the mark.
    while alive(helm) || alive(sleeper) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!lived.exists(), "the tool outlived fedrender");
    assert_eq!(repository.tree(), before);
}

// 11. A GitOps path is normalised before it is judged.
#[test]
fn gitops_paths_cannot_climb_out_through_the_middle() {
    let repository = repository("gitops-path");
    for path in ["a/../../x", "rendered/../..", "/srv/rendered"] {
        let output = repository.fedrender(&[
            "build",
            "fleet",
            "--clusters",
            "fleet/clusters.yaml",
            "--out",
            "rendered",
            "--gitops",
            "argocd",
            "--gitops-repo",
            "https://git.example.com/fleet.git",
            "--gitops-path",
            path,
        ]);
        let error = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{path}: {error}");
        assert!(error.contains(&format!("--gitops-path {path}")), "{error}");
        repository.write(
            "fleet/fedrender.yaml",
            &format!(
                "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  gitops:\n    tool: argocd\n    repoURL: https://git.example.com/fleet.git\n    path: {path}\n"
            ),
        );
        repository.refused_everywhere(&[], "fleet/fedrender.yaml:7: Config: spec.gitops.path");
        std::fs::remove_file(repository.path("fleet/fedrender.yaml")).unwrap();
    }
}

// 12. The same input fails with the same words on every run.
#[test]
fn lua_errors_read_the_same_on_every_run() {
    let repository = repository("lua-error-table");
    widget_script(&repository, "error({reason = tostring({})})");
    let first =
        repository.refused_everywhere(&[], "the script raised a table as its error, not a message");
    let second =
        repository.refused_everywhere(&[], "the script raised a table as its error, not a message");
    assert_eq!(first, second);
    assert!(!first.contains("0x"), "{first}");
}
