//! End-to-end: the real binary on the bundled examples and test scenarios, with its exit codes,
//! messages and effect on the output directory.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common;
use common::{command, fedrender, files_in, scratch, stderr};

/// The README's first command, as a user runs it: a relative `--out` that does not exist yet,
/// nested two levels deep, from the working directory; a failed build removes both levels.
#[test]
fn a_new_relative_output_directory_is_created_and_removed_again_on_failure() {
    let work = scratch("relative");
    std::fs::create_dir_all(&work).unwrap();
    let repository = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = |input: &str, clusters: &str| {
        command()
            .current_dir(&work)
            .args(["build"])
            .arg(repository.join(input))
            .arg("--clusters")
            .arg(repository.join(clusters))
            .args(["--out", "out/rendered"])
            .output()
            .expect("the binary runs")
    };
    let good = run("examples/fleet", "examples/clusters.yaml");
    assert_eq!(good.status.code(), Some(0), "{}", stderr(&good));
    assert!(
        work.join("out/rendered/prod-eu-1/kustomization.yaml")
            .exists()
    );
    std::fs::remove_dir_all(work.join("out")).unwrap();

    let failing = "testdata/error-override-remove-missing";
    let bad = run(
        &format!("{failing}/input"),
        &format!("{failing}/clusters.yaml"),
    );
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(!work.join("out").exists(), "{}", stderr(&bad));
    std::fs::remove_dir_all(&work).unwrap();
}

#[test]
fn the_seed_example_renders_nginx_to_two_of_three_clusters() {
    let out = scratch("nginx");
    let output = fedrender(&[
        "build",
        "examples/nginx",
        "--clusters",
        "examples/nginx/clusters.yaml",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let files: Vec<String> = files_in(&out).into_keys().collect();
    assert_eq!(
        files,
        vec![
            "cluster1/default/deployment.apps_nginx.yaml",
            "cluster1/kustomization.yaml",
            "cluster2/default/deployment.apps_nginx.yaml",
            "cluster2/kustomization.yaml",
            "cluster3/kustomization.yaml",
        ]
    );
    assert!(stderr(&output).contains("2 written") || stderr(&output).contains("5 written"));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_federated_resource_quota_becomes_a_resource_quota_in_each_assigned_cluster() {
    let out = scratch("federated-quota");
    let scenario = "testdata/federated-resource-quota";
    let build = |strict: bool| {
        let mut args = vec![
            "build".to_string(),
            format!("{scenario}/input"),
            "--clusters".to_string(),
            format!("{scenario}/clusters.yaml"),
            "--out".to_string(),
            out.to_str().unwrap().to_string(),
        ];
        if strict {
            args.push("--strict".to_string());
        }
        fedrender(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    // The assignment naming a cluster the inventory lacks is a warning, an error with --strict.
    let strict = build(true);
    assert_eq!(strict.status.code(), Some(2), "{}", stderr(&strict));
    assert!(
        stderr(&strict)
            .contains("cluster \"membr2\" is not in the inventory (did you mean \"member2\"?)")
    );
    let output = build(false);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let files = files_in(&out);
    let quotas: Vec<&String> = files
        .keys()
        .filter(|path| path.ends_with("resourcequota_team-quota.yaml"))
        .collect();
    assert_eq!(
        quotas,
        [
            "member1/shop/resourcequota_team-quota.yaml",
            "member2/shop/resourcequota_team-quota.yaml",
            "member3/shop/resourcequota_team-quota.yaml",
        ]
    );
    let member1 = String::from_utf8_lossy(&files["member1/shop/resourcequota_team-quota.yaml"]);
    assert!(
        member1.contains("kind: ResourceQuota\n")
            && member1.contains("  hard:\n    count/deployments.apps: \"5\"\n    cpu: 1500m\n    memory: 1Gi\n    pods: \"10\"\n"),
        "{member1}"
    );
    assert!(!files.keys().any(|path| path.contains("accounting-only")));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_rebuild_with_nothing_changed_writes_nothing() {
    let out = scratch("rebuild");
    let args = [
        "build",
        "examples/fleet",
        "--clusters",
        "examples/clusters.yaml",
        "--out",
        out.to_str().unwrap(),
    ];
    assert_eq!(fedrender(&args).status.code(), Some(0));
    let before = files_in(&out);
    let modified: Vec<_> = walkdir::WalkDir::new(&out)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().to_path_buf(),
                e.metadata().unwrap().modified().unwrap(),
            )
        })
        .collect();
    let again = fedrender(&args);
    assert_eq!(again.status.code(), Some(0));
    assert!(stderr(&again).contains(" 0 written"), "{}", stderr(&again));
    assert_eq!(files_in(&out), before);
    for (path, time) in modified {
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            time,
            "{path:?} was rewritten"
        );
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn bad_input_exits_2_and_leaves_the_output_exactly_as_it_was() {
    let out = scratch("bad");
    let good = fedrender(&[
        "build",
        "examples/nginx",
        "--clusters",
        "examples/nginx/clusters.yaml",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(good.status.code(), Some(0));
    std::fs::write(out.join("notes.txt"), "not ours").unwrap();
    let before = files_in(&out);
    for scenario in std::fs::read_dir("testdata").unwrap() {
        let dir = scenario.unwrap().path();
        if !dir
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("error-")
        {
            continue;
        }
        let input = dir.join("input");
        let clusters = dir.join("clusters.yaml");
        let output = fedrender(&[
            "build",
            input.to_str().unwrap(),
            "--clusters",
            clusters.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{dir:?}: {}",
            stderr(&output)
        );
        let message = stderr(&output);
        assert!(
            message.lines().any(|line| line.starts_with("error: ")),
            "{dir:?}: {message}"
        );
        assert!(message.contains("was left unchanged"), "{dir:?}: {message}");
        assert_eq!(
            files_in(&out),
            before,
            "{dir:?} changed the output directory"
        );
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn errors_name_the_file_and_line() {
    let output = fedrender(&[
        "build",
        "testdata/error-unknown-policy-field/input",
        "--clusters",
        "testdata/error-unknown-policy-field/clusters.yaml",
        "--out",
        scratch("unknown-field").to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    let first = message.lines().next().unwrap();
    assert!(
        first.starts_with("error: testdata/error-unknown-policy-field/input/"),
        "{message}"
    );
    assert!(first.contains("unknown field"), "{message}");
    assert!(first.contains("did you mean"), "{message}");
}

#[test]
fn strict_turns_warnings_into_errors() {
    let out = scratch("strict");
    let args = |strict: bool| {
        let mut args = vec![
            "build",
            "testdata/strict-warnings/input",
            "--clusters",
            "testdata/strict-warnings/clusters.yaml",
            "--out",
            out.to_str().unwrap(),
        ];
        if strict {
            args.push("--strict");
        }
        args.into_iter().map(str::to_string).collect::<Vec<_>>()
    };
    let lenient = fedrender(&args(false).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(lenient.status.code(), Some(0));
    assert!(
        stderr(&lenient).contains("warning: "),
        "{}",
        stderr(&lenient)
    );
    std::fs::remove_dir_all(&out).unwrap();
    let strict = fedrender(&args(true).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(strict.status.code(), Some(2));
    assert!(stderr(&strict).contains("error: "), "{}", stderr(&strict));
    assert!(!out.exists(), "nothing is written under --strict failures");
}

/// `validate` on the strict-warnings scenario (one unplaced-template and one unknown-cluster
/// warning) with extra arguments.
fn validate_strict_warnings(input: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "validate",
        input,
        "--clusters",
        "testdata/strict-warnings/clusters.yaml",
    ];
    args.extend_from_slice(extra);
    fedrender(&args)
}

#[test]
fn lint_levels_are_chosen_by_name_on_the_command_line_and_in_the_config() {
    let input = "testdata/strict-warnings/input";
    let denied = validate_strict_warnings(input, &["--deny", "unknown-cluster"]);
    assert_eq!(denied.status.code(), Some(2), "{}", stderr(&denied));
    assert!(stderr(&denied).contains(
        "cluster \"member3\" is not in the inventory (denied by the unknown-cluster lint level)"
    ));
    assert!(
        stderr(&denied).contains("selects it [unplaced-template]"),
        "{}",
        stderr(&denied)
    );

    let allowed = validate_strict_warnings(
        input,
        &["--allow", "unplaced-template", "--allow", "unknown-cluster"],
    );
    assert_eq!(allowed.status.code(), Some(0), "{}", stderr(&allowed));
    assert!(
        !stderr(&allowed).contains("warning:") && stderr(&allowed).contains(", 0 warnings"),
        "{}",
        stderr(&allowed)
    );

    let strict_but_one =
        validate_strict_warnings(input, &["--strict", "--warn", "unknown-cluster"]);
    assert_eq!(strict_but_one.status.code(), Some(2));
    let text = stderr(&strict_but_one);
    assert!(
        text.contains("selects it (a warning; --strict makes it an error)"),
        "{text}"
    );
    assert!(
        text.contains("not in the inventory [unknown-cluster]"),
        "{text}"
    );

    let unknown = validate_strict_warnings(input, &["--deny", "unknown-clusters"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("unknown-cluster"),
        "{}",
        stderr(&unknown)
    );
    let twice = validate_strict_warnings(
        input,
        &["--deny", "unknown-cluster", "--allow", "unknown-cluster"],
    );
    assert_eq!(twice.status.code(), Some(2));
    assert!(
        stderr(&twice).contains("give each lint one level"),
        "{}",
        stderr(&twice)
    );

    // The fleet's Config sets levels too; the command line wins.
    let fleet = scratch("lint-config");
    std::fs::create_dir_all(&fleet).unwrap();
    std::fs::copy(format!("{input}/app.yaml"), fleet.join("app.yaml")).unwrap();
    let config = "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  lints:\n    unknown-cluster: deny\n    unplaced-template: allow\n";
    std::fs::write(fleet.join("fedrender.yaml"), config).unwrap();
    let fleet_input = fleet.to_str().unwrap();
    let from_config = validate_strict_warnings(fleet_input, &[]);
    assert_eq!(from_config.status.code(), Some(2));
    let text = stderr(&from_config);
    assert!(
        text.contains("(denied by the unknown-cluster lint level)"),
        "{text}"
    );
    assert!(!text.contains("unplaced-template"), "{text}");
    let overruled = validate_strict_warnings(fleet_input, &["--warn", "unknown-cluster"]);
    assert_eq!(overruled.status.code(), Some(0), "{}", stderr(&overruled));
    std::fs::write(
        fleet.join("fedrender.yaml"),
        config.replace("unknown-cluster: deny", "unknown-clustr: deny"),
    )
    .unwrap();
    let misspelt = validate_strict_warnings(fleet_input, &[]);
    assert_eq!(misspelt.status.code(), Some(2));
    assert!(
        stderr(&misspelt)
            .contains("fedrender.yaml:5: Config: spec.lints: unknown lint \"unknown-clustr\"; did you mean unknown-cluster?"),
        "{}",
        stderr(&misspelt)
    );
    std::fs::remove_dir_all(&fleet).unwrap();
}

#[test]
fn messages_come_as_json_lines_or_github_workflow_commands() {
    let input = "testdata/strict-warnings/input";
    let json = validate_strict_warnings(input, &["--message-format", "json"]);
    assert_eq!(json.status.code(), Some(0));
    let objects: Vec<serde_json::Value> = stderr(&json)
        .lines()
        .filter(|line| line.starts_with('{'))
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(objects.len(), 3, "{}", stderr(&json));
    assert_eq!(objects[2]["level"], "summary");
    assert_eq!(objects[0]["level"], "warning");
    assert_eq!(objects[0]["name"], "unplaced-template");
    assert_eq!(
        objects[0]["file"],
        "testdata/strict-warnings/input/app.yaml"
    );
    assert_eq!(objects[0]["line"], 29);
    assert_eq!(objects[1]["name"], "unknown-cluster");

    let github = validate_strict_warnings(input, &["--message-format", "github", "--strict"]);
    assert_eq!(github.status.code(), Some(2));
    let text = stderr(&github);
    assert!(
        text.lines().any(|line| line
            == "::error file=testdata/strict-warnings/input/app.yaml,line=47,title=fedrender unknown-cluster::PropagationPolicy default/web: spec.placement.clusterAffinity.clusterNames[1]: cluster \"member3\" is not in the inventory (a warning; --strict makes it an error)"),
        "{text}"
    );
}

#[test]
fn a_plan_filter_that_matches_nothing_is_an_error_with_the_nearest_value() {
    let plan = |extra: &[&str]| {
        let mut args = vec![
            "plan",
            "examples/nginx",
            "--clusters",
            "examples/nginx/clusters.yaml",
        ];
        args.extend_from_slice(extra);
        fedrender(&args)
    };
    for (extra, message) in [
        (
            ["--cluster", "clustr1"],
            "error: --cluster clustr1: the inventory has no such cluster; did you mean cluster1?",
        ),
        (
            ["--kind", "Deploymnet"],
            "error: --kind Deploymnet: no template is of this kind; did you mean Deployment?",
        ),
        (
            ["--name", "ngnix"],
            "error: --name ngnix: no template has this name; did you mean nginx?",
        ),
    ] {
        let output = plan(&extra);
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
        assert!(output.stdout.is_empty(), "{extra:?}");
        assert!(stderr(&output).contains(message), "{}", stderr(&output));
    }
    // A cluster that receives nothing is still a cluster of the inventory; kinds ignore case.
    let output = plan(&["--cluster", "cluster3", "--kind", "deployment"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains("cluster3: filtered out"));
}

#[test]
fn the_fleet_can_be_one_file_or_standard_input() {
    let render = |fleet: &str, stdin: Option<&str>| {
        let mut child = command()
            .args([
                "build",
                fleet,
                "--clusters",
                "examples/nginx/clusters.yaml",
                "--stdout",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let text = stdin
            .map(|path| std::fs::read(path).unwrap())
            .unwrap_or_default();
        child.stdin.take().unwrap().write_all(&text).unwrap();
        child.wait_with_output().unwrap()
    };
    let from_directory = render("examples/nginx", None);
    assert_eq!(
        from_directory.status.code(),
        Some(0),
        "{}",
        stderr(&from_directory)
    );
    assert!(String::from_utf8_lossy(&from_directory.stdout).contains("kind: Deployment"));
    let from_file = render("examples/nginx/nginx.yaml", None);
    assert_eq!(from_file.status.code(), Some(0), "{}", stderr(&from_file));
    assert_eq!(from_file.stdout, from_directory.stdout);
    let from_stdin = render("-", Some("examples/nginx/nginx.yaml"));
    assert_eq!(from_stdin.status.code(), Some(0), "{}", stderr(&from_stdin));
    assert_eq!(from_stdin.stdout, from_directory.stdout);

    let both = fedrender(&["validate", "-", "--clusters", "-"]);
    assert_eq!(both.status.code(), Some(2));
    assert!(stderr(&both).contains("cannot both come from standard input"));
    let filtered = fedrender(&[
        "validate",
        "examples/nginx/nginx.yaml",
        "--clusters",
        "examples/nginx/clusters.yaml",
        "--exclude",
        "x.yaml",
    ]);
    assert_eq!(filtered.status.code(), Some(2));
    assert!(
        stderr(&filtered).contains("is one file"),
        "{}",
        stderr(&filtered)
    );
}

#[test]
fn the_inventory_can_come_from_standard_input() {
    let out = scratch("stdin");
    let mut child = command()
        .args([
            "build",
            "examples/nginx",
            "--exclude",
            "clusters.yaml",
            "--clusters",
            "-",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&std::fs::read("examples/nginx/clusters.yaml").unwrap())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(out.join("cluster3/kustomization.yaml").exists());
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn include_and_exclude_globs_choose_the_files_read() {
    let out = scratch("globs");
    let output = fedrender(&[
        "build",
        "examples/nginx",
        "--clusters",
        "examples/nginx/clusters.yaml",
        "--exclude",
        "nginx.yaml",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!out.join("cluster1/default").exists());
    let include = |glob: &str| {
        fedrender(&[
            "build",
            "examples/nginx",
            "--clusters",
            "examples/nginx/clusters.yaml",
            "--include",
            glob,
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let output = include("*.yaml");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(out.join("cluster1/default").exists());
    // A glob that matches no input file is a mistake, not an empty fleet.
    let output = include("ngnix.yaml");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(
            "error: --include ngnix.yaml: matches no input file under examples/nginx; did you mean nginx.yaml?"
        ),
        "{}",
        stderr(&output)
    );
    assert!(
        out.join("cluster1/default").exists(),
        "the output is left as it was"
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn kustomize_builds_every_rendered_cluster_when_kubectl_is_installed() {
    if !common::tools::require(&["kubectl"]) {
        return;
    }
    let out = scratch("kustomize");
    let output = fedrender(&[
        "build",
        "examples/fleet",
        "--clusters",
        "examples/clusters.yaml",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    for cluster in std::fs::read_dir(&out).unwrap() {
        let cluster = cluster.unwrap().path();
        let built = Command::new("kubectl")
            .arg("kustomize")
            .arg(&cluster)
            .output()
            .unwrap();
        assert!(built.status.success(), "{cluster:?}: {}", stderr(&built));
        let files = files_in(&cluster).len() - 1;
        let documents = String::from_utf8_lossy(&built.stdout)
            .matches("\nkind: ")
            .count()
            + usize::from(String::from_utf8_lossy(&built.stdout).starts_with("kind: "));
        assert!(
            documents >= files,
            "{cluster:?}: {documents} objects built from {files} files"
        );
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// The committed completion scripts are what the binary generates; regenerate with
/// `cargo run -- completions <shell> > completions/<file>`.
#[test]
fn committed_completions_are_up_to_date() {
    for (shell, file) in [
        ("bash", "fedrender.bash"),
        ("zsh", "_fedrender"),
        ("fish", "fedrender.fish"),
        ("powershell", "_fedrender.ps1"),
        ("elvish", "fedrender.elv"),
    ] {
        let output = fedrender(&["completions", shell]);
        assert_eq!(output.status.code(), Some(0));
        let committed = std::fs::read(Path::new("completions").join(file)).unwrap();
        assert!(
            output.stdout == committed,
            "completions/{file} is stale: run `cargo run -- completions {shell} > completions/{file}`"
        );
    }
}

/// The committed manual pages are what the binary generates, one per command; regenerate with
/// `cargo run -- man > completions/man/fedrender.1` and `cargo run -- man COMMAND >
/// completions/man/fedrender-COMMAND.1`.
#[test]
fn committed_manual_pages_are_up_to_date() {
    let mut pages = vec![("fedrender.1".to_string(), vec!["man"])];
    for command in [
        "build",
        "diff",
        "plan",
        "validate",
        "config",
        "completions",
        "man",
    ] {
        pages.push((format!("fedrender-{command}.1"), vec!["man", command]));
    }
    for (file, args) in pages {
        let output = fedrender(&args);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let page = String::from_utf8(output.stdout).expect("UTF-8");
        let name = file.trim_end_matches(".1");
        assert!(page.contains(&format!(".TH {name} 1 ")), "{page}");
        assert!(page.contains(".SH OPTIONS"), "{page}");
        let committed =
            std::fs::read_to_string(Path::new("completions/man").join(&file)).unwrap_or_default();
        assert!(
            page == committed,
            "completions/man/{file} is stale: run `cargo run -- {} > completions/man/{file}`",
            args.join(" ")
        );
    }
}

#[test]
fn build_check_passes_on_fresh_output_and_lists_stale_missing_and_extra_files() {
    let out = scratch("check");
    let out_arg = out.to_str().unwrap();
    let base = [
        "build",
        "testdata/diff/base/input",
        "--clusters",
        "testdata/diff/base/clusters.yaml",
        "--out",
        out_arg,
    ];
    assert_eq!(fedrender(&base).status.code(), Some(0));
    let mut check = base.to_vec();
    check.push("--check");
    let fresh = fedrender(&check);
    assert_eq!(fresh.status.code(), Some(0), "{}", stderr(&fresh));
    assert!(
        stderr(&fresh).contains("is up to date"),
        "{}",
        stderr(&fresh)
    );

    let before = files_in(&out);
    let head = [
        "build",
        "testdata/diff/head/input",
        "--clusters",
        "testdata/diff/head/clusters.yaml",
        "--out",
        out_arg,
        "--check",
    ];
    let stale = fedrender(&head);
    assert_eq!(stale.status.code(), Some(1), "{}", stderr(&stale));
    let listing = String::from_utf8_lossy(&stale.stdout).into_owned();
    assert!(
        listing.contains(&format!(
            "stale: {}",
            out.join("member1/shop/deployment.apps_web.yaml").display()
        )),
        "{listing}"
    );
    assert!(
        listing.contains(&format!(
            "missing: {}",
            out.join("member2/shop/configmap_web-settings.yaml")
                .display()
        )),
        "{listing}"
    );
    assert!(
        listing.contains(&format!(
            "extra: {}",
            out.join("member1/shop/configmap_web-settings.yaml")
                .display()
        )),
        "{listing}"
    );
    assert!(
        stderr(&stale).contains("run fedrender build"),
        "{}",
        stderr(&stale)
    );
    assert_eq!(files_in(&out), before, "--check changed the output");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn build_stdout_streams_every_object_with_its_cluster_and_path() {
    let output = fedrender(&[
        "build",
        "examples/nginx",
        "--clusters",
        "examples/nginx/clusters.yaml",
        "--stdout",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("---\n# cluster: cluster1, file: default/deployment.apps_nginx.yaml\napiVersion: apps/v1\n"), "{text}");
    assert_eq!(text.matches("\n---\n# cluster: ").count() + 1, 2, "{text}");
    assert!(!text.contains("kind: Kustomization"));
}

#[test]
fn a_closed_pipe_on_stdout_exits_0() {
    let mut child = command()
        .args([
            "build",
            "examples/fleet",
            "--clusters",
            "examples/clusters.yaml",
            "--stdout",
            "--quiet",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn diff_exit_codes_and_formats() {
    let out = scratch("diff-against");
    let out_arg = out.to_str().unwrap();
    fedrender(&[
        "build",
        "testdata/diff/base/input",
        "--clusters",
        "testdata/diff/base/clusters.yaml",
        "--out",
        out_arg,
    ]);
    let same = fedrender(&[
        "diff",
        "testdata/diff/base/input",
        "--clusters",
        "testdata/diff/base/clusters.yaml",
        "--against",
        out_arg,
    ]);
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    assert!(same.stdout.is_empty());
    let changed = fedrender(&[
        "diff",
        "testdata/diff/head/input",
        "--clusters",
        "testdata/diff/head/clusters.yaml",
        "--against",
        out_arg,
        "--format",
        "stat",
    ]);
    assert_eq!(changed.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&changed.stdout)
            .ends_with("3 clusters changed: 2 added, 4 changed, 1 removed\n")
    );
    let unified = fedrender(&[
        "diff",
        "testdata/diff/head/input",
        "--clusters",
        "testdata/diff/head/clusters.yaml",
        "--against",
        out_arg,
        "--color",
        "never",
    ]);
    let text = String::from_utf8_lossy(&unified.stdout);
    assert!(
        text.contains(
            "--- a/Deployment.apps shop/web on member2\n+++ b/Deployment.apps shop/web on member2\n"
        ),
        "{text}"
    );
    assert!(!text.contains('\x1b'));
    let coloured = fedrender(&[
        "diff",
        "testdata/diff/head/input",
        "--clusters",
        "testdata/diff/head/clusters.yaml",
        "--against",
        out_arg,
        "--color",
        "always",
    ]);
    assert!(String::from_utf8_lossy(&coloured.stdout).contains("\x1b[32m+"));
    // `--color auto` (the default) on a pipe: colour only when the environment forces it, and
    // never when NO_COLOR says no, as every tool reading https://no-color.org agrees.
    let auto = |variables: &[(&str, &str)]| {
        let output = command()
            .args([
                "diff",
                "testdata/diff/head/input",
                "--clusters",
                "testdata/diff/head/clusters.yaml",
                "--against",
                out_arg,
            ])
            .envs(variables.iter().copied())
            .output()
            .expect("the binary runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    assert!(!auto(&[]).contains('\x1b'));
    assert!(auto(&[("CLICOLOR_FORCE", "1")]).contains("\x1b[32m+"));
    assert!(!auto(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains('\x1b'));
    let secrets = fedrender(&[
        "diff",
        "testdata/diff/head/input",
        "--clusters",
        "testdata/diff/head/clusters.yaml",
        "--against",
        out_arg,
        "--show-secrets",
    ]);
    assert!(String::from_utf8_lossy(&secrets.stdout).contains("+  password: bmV3LXBhc3N3b3Jk"));
    let bad = fedrender(&[
        "diff",
        "testdata/error-missing-kind/input",
        "--clusters",
        "testdata/error-missing-kind/clusters.yaml",
        "--against",
        out_arg,
    ]);
    assert_eq!(bad.status.code(), Some(2));
    let neither = fedrender(&["diff", "testdata/diff/head/input"]);
    assert_eq!(neither.status.code(), Some(2));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn plan_explains_policy_choice_filtering_replicas_and_overrides() {
    let output = fedrender(&[
        "plan",
        "testdata/diff/head/input",
        "--clusters",
        "testdata/diff/head/clusters.yaml",
        "--kind",
        "deployment",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        text,
        "schemas checked against:\n\
         \x20 Kubernetes 1.37 (assumed: the newest known): member1, member2, member3\n\
         \n\
         Deployment.apps shop/web (testdata/diff/head/input/shop.yaml:8)\n\
         \x20 policy PropagationPolicy shop/web (priority 0, matched by name): won\n\
         \x20 placed by PropagationPolicy shop/web\n\
         \x20 replicas, revision and dependencies from Karmada's native interpreter\n\
         \x20 - member3: filtered out, not in the cluster affinity\n\
         \x20 + member1: 4 replicas\n\
         \x20 + member2: 4 replicas\n\
         \x20     override OverridePolicy shop/web-canary: spec.overrideRules[0]\n\n"
    );
    let json = fedrender(&[
        "plan",
        "testdata/diff/head/input",
        "--clusters",
        "testdata/diff/head/clusters.yaml",
        "--format",
        "json",
        "--cluster",
        "member3",
    ]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let names: Vec<&str> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["web-settings", "shop", "web-db", "web"]);
}

#[test]
fn validate_reports_without_writing_and_strict_fails_on_warnings() {
    // The diff fixture's Secret is in the clear on purpose (diff redacts its values), so its
    // plaintext-secret warning is allowed here.
    let ok = fedrender(&[
        "validate",
        "testdata/diff/head/input",
        "--clusters",
        "testdata/diff/head/clusters.yaml",
        "--allow",
        "plaintext-secret",
    ]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert!(
        stderr(&ok).starts_with("valid: 8 objects for 3 clusters, 0 warnings"),
        "{}",
        stderr(&ok)
    );
    let warned = fedrender(&[
        "validate",
        "testdata/strict-warnings/input",
        "--clusters",
        "testdata/strict-warnings/clusters.yaml",
    ]);
    assert_eq!(warned.status.code(), Some(0));
    assert!(stderr(&warned).contains("warning: "));
    let strict = fedrender(&[
        "validate",
        "testdata/strict-warnings/input",
        "--clusters",
        "testdata/strict-warnings/clusters.yaml",
        "--strict",
    ]);
    assert_eq!(strict.status.code(), Some(2));
    let bad = fedrender(&[
        "validate",
        "testdata/error-duplicate-object/input",
        "--clusters",
        "testdata/error-duplicate-object/clusters.yaml",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn validate_warns_about_policies_tied_on_priority() {
    let dir = scratch("tie");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy("examples/nginx/nginx.yaml", dir.join("nginx.yaml")).unwrap();
    std::fs::write(dir.join("tie.yaml"), "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: another\nspec:\n  resourceSelectors:\n  - {apiVersion: apps/v1, kind: Deployment, name: nginx}\n").unwrap();
    let output = fedrender(&[
        "validate",
        dir.to_str().unwrap(),
        "--clusters",
        "examples/nginx/clusters.yaml",
    ]);
    assert!(stderr(&output).contains("PropagationPolicy default/another and PropagationPolicy default/nginx-propagation tie on priority for Deployment.apps default/nginx; PropagationPolicy default/another wins by name [priority-tie]"), "{}", stderr(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn quiet_prints_nothing_and_verbose_says_what_it_does() {
    let out = scratch("quiet");
    let out_arg = out.to_str().unwrap();
    let quiet = fedrender(&[
        "build",
        "testdata/strict-warnings/input",
        "--clusters",
        "testdata/strict-warnings/clusters.yaml",
        "--out",
        out_arg,
        "--quiet",
    ]);
    assert_eq!(quiet.status.code(), Some(0));
    assert!(quiet.stderr.is_empty(), "{}", stderr(&quiet));
    let verbose = fedrender(&[
        "build",
        "testdata/strict-warnings/input",
        "--clusters",
        "testdata/strict-warnings/clusters.yaml",
        "--out",
        out_arg,
        "--verbose",
    ]);
    let text = stderr(&verbose);
    assert!(text.starts_with("fedrender: rendering…\n"), "{text}");
    assert!(text.contains("warning: "), "{text}");
    assert!(text.contains(" 0 written, "), "{text}");
    let both = fedrender(&[
        "build",
        "examples/nginx",
        "--out",
        out_arg,
        "--quiet",
        "--verbose",
    ]);
    assert_eq!(
        both.status.code(),
        Some(2),
        "clap rejects --quiet with --verbose"
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["build", "examples/nginx"],
        vec![
            "build",
            "examples/nginx",
            "--out",
            "/tmp/x",
            "--include",
            "[unclosed",
        ],
        vec![
            "diff",
            "examples/nginx",
            "--clusters",
            "-",
            "--base",
            "examples/nginx",
        ],
        vec!["frobnicate"],
    ] {
        let output = fedrender(&args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(!stderr(&output).is_empty());
    }
}

#[test]
fn every_cluster_a_policy_names_is_checked_against_the_inventory() {
    let dir = scratch("named-clusters");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy("examples/nginx/nginx.yaml", dir.join("nginx.yaml")).unwrap();
    std::fs::write(
        dir.join("divided.yaml"),
        "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata:\n  name: divided\nspec:\n  \
         resourceSelectors:\n  - {apiVersion: v1, kind: ConfigMap}\n  suspension:\n    dispatchingOnClusters:\n      clusterNames: [ghost-a]\n  \
         placement:\n    clusterAffinities:\n    - affinityName: first\n      clusterNames: [ghost-b]\n    \
         replicaScheduling:\n      replicaSchedulingType: Divided\n      weightPreference:\n        staticWeightList:\n        \
         - targetCluster: {clusterNames: [ghost-c]}\n          weight: 1\n",
    )
    .unwrap();
    let output = fedrender(&[
        "validate",
        dir.to_str().unwrap(),
        "--clusters",
        "examples/nginx/clusters.yaml",
    ]);
    let text = stderr(&output);
    // Each warning points at the line of the name.
    for expected in [
        "divided.yaml:10: ClusterPropagationPolicy divided: spec.suspension.dispatchingOnClusters.clusterNames[0]: cluster \"ghost-a\" is not in the inventory",
        "divided.yaml:14: ClusterPropagationPolicy divided: spec.placement.clusterAffinities[0].clusterNames[0]: cluster \"ghost-b\" is not in the inventory",
        "divided.yaml:19: ClusterPropagationPolicy divided: spec.placement.replicaScheduling.weightPreference.staticWeightList[0].targetCluster.clusterNames[0]: cluster \"ghost-c\" is not in the inventory",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_build_ends_with_what_changed_in_each_cluster() {
    let out = scratch("closing-summary");
    let build = || {
        fedrender(&[
            "build",
            "examples/nginx",
            "--clusters",
            "examples/nginx/clusters.yaml",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let first = build();
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let lines: Vec<String> = stderr(&first)
        .lines()
        .filter(|line| line.starts_with("  "))
        .map(String::from)
        .collect();
    assert_eq!(
        lines,
        [
            "  cluster1: 2 written, 0 removed",
            "  cluster2: 2 written, 0 removed",
            "  cluster3: 1 written, 0 removed"
        ],
        "{}",
        stderr(&first)
    );
    // Nothing changed: no cluster is listed.
    let again = build();
    assert!(!stderr(&again).contains("\n  "), "{}", stderr(&again));
    std::fs::remove_dir_all(&out).unwrap();
}

/// A failover drill (Karmada's failover guides): `plan` says which ClusterTaintPolicy tainted
/// which cluster, and that the primary was dropped by the taint under its own affinity term,
/// not merely left out of the term that scheduled.
#[test]
fn plan_names_the_taint_and_the_terms_of_a_failover_drill() {
    let output = fedrender(&[
        "plan",
        "testdata/failover-cluster-taint-policy/input",
        "--clusters",
        "testdata/failover-cluster-taint-policy/clusters.yaml",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("member1: tainted cluster.karmada.io/not-ready=:NoSchedule by ClusterTaintPolicy not-ready"),
        "{text}"
    );
    assert!(
        text.contains("- member1: filtered out, taint cluster.karmada.io/not-ready=:NoSchedule not tolerated under affinity primary, which then scheduled nothing; not in affinity backup, which scheduled"),
        "{text}"
    );
}

/// `plan` says what the trees cannot show of a template's life on the members
/// (testdata/lifecycle-fields): kept on deletion, by its own policy or through the dependant
/// that takes it along, and a Lazy policy's changes applied only when the template changes.
#[test]
fn plan_notes_preserved_and_lazily_activated_templates() {
    let output = fedrender(&[
        "plan",
        "testdata/lifecycle-fields/input",
        "--clusters",
        "testdata/lifecycle-fields/clusters.yaml",
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let entries: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let notes = |name: &str| -> Vec<String> {
        let entry = entries
            .as_array()
            .unwrap()
            .iter()
            .find(|entry| entry["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {entries}"));
        serde_json::from_value(entry["notes"].clone()).unwrap()
    };
    assert_eq!(
        notes("web"),
        [
            "kept on the members when its template is deleted (preserveResourcesOnDeletion of PropagationPolicy shop/keep); build --gitops exempts it from pruning"
        ]
    );
    assert!(
        notes("web-config")[0].contains(
            "PropagationPolicy shop/keep, through propagateDeps of Deployment.apps shop/web"
        ),
        "{:?}",
        notes("web-config")
    );
    assert_eq!(
        notes("batch"),
        [
            "PropagationPolicy shop/lazy is Lazy: Karmada applies a change of that policy to this template only when the template next changes"
        ]
    );
    assert!(notes("shop").is_empty());
}

/// Diagnostics are coloured as cargo colours them, on a terminal that wants colour only: a pipe
/// gets plain text, `CLICOLOR_FORCE` colours it anyway, `NO_COLOR` wins over both.
#[test]
fn message_levels_are_coloured_only_where_colour_is_wanted() {
    let validate = |variables: &[(&str, &str)]| {
        let output = command()
            .args([
                "validate",
                "testdata/estimator-node-claim/input",
                "--clusters",
                "testdata/estimator-node-claim/clusters.yaml",
            ])
            .envs(variables.iter().copied())
            .output()
            .expect("the binary runs");
        assert_eq!(output.status.code(), Some(0));
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let plain = validate(&[]);
    assert!(plain.starts_with("warning: testdata/"), "{plain}");
    assert!(!plain.contains('\x1b'), "{plain}");
    let forced = validate(&[("CLICOLOR_FORCE", "1")]);
    assert!(
        forced.starts_with("\x1b[1m\x1b[33mwarning\x1b[0m: testdata/"),
        "{forced}"
    );
    assert_eq!(
        validate(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]),
        plain
    );
}

/// `plan --format table` and `markdown`: the example's Deployments × clusters. `shop/frontend`
/// is placed by `storefront` (Duplicated, 3 replicas, examples/fleet/shop/frontend.yaml) on every
/// cluster but the tainted edge-ap-1, and `fraud-check` on prod-eu-1 alone.
#[test]
fn plan_shows_the_placement_as_a_matrix() {
    let plan = |format: &str| {
        let output = fedrender(&[
            "plan",
            "examples/fleet",
            "--clusters",
            "examples/clusters.yaml",
            "--kind",
            "Deployment",
            "--format",
            format,
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    let table = plan("table");
    let row = |text: &str, name: &str| -> Vec<String> {
        let line = text
            .lines()
            .find(|line| line.contains(name))
            .unwrap_or_else(|| panic!("no row for {name}:\n{text}"));
        let cells: Vec<String> = line
            .split(['|', ' '])
            .filter(|cell| !cell.is_empty())
            .map(str::to_string)
            .collect();
        // Five clusters and the total, after the object's name.
        cells[cells.len() - 6..].to_vec()
    };
    assert_eq!(
        row(&table, "object"),
        [
            "edge-ap-1",
            "prod-eu-1",
            "prod-eu-2",
            "prod-us-1",
            "staging-eu-1",
            "total"
        ]
    );
    assert_eq!(
        row(&table, "shop/frontend "),
        ["·", "3", "3", "3", "3", "12"]
    );
    assert_eq!(row(&table, "fraud-check"), ["·", "2", "·", "·", "·", "2"]);
    let markdown = plan("markdown");
    assert!(markdown.starts_with("| object | edge-ap-1 |"), "{markdown}");
    assert!(
        markdown.contains("\n|---|---:|---:|---:|---:|---:|---:|\n"),
        "{markdown}"
    );
    assert_eq!(
        row(&markdown, "shop/frontend |"),
        ["·", "3", "3", "3", "3", "12"]
    );
}

/// A `--clusters` path that is not there names the inventories near where it was looked for,
/// nearest in spelling first: by file name, or by content for one named otherwise.
#[test]
fn a_missing_inventory_names_the_inventories_nearby() {
    let dir = common::empty_scratch("inventory-nearby");
    std::fs::create_dir_all(dir.join("fleet")).unwrap();
    std::fs::create_dir_all(dir.join("envs/prod")).unwrap();
    std::fs::write(
        dir.join("fleet/cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("envs/prod/clusters.yaml"),
        common::ONE_CLUSTER_INVENTORY,
    )
    .unwrap();
    std::fs::write(
        dir.join("envs/prod/members.yaml"),
        common::ONE_CLUSTER_INVENTORY,
    )
    .unwrap();
    std::fs::write(dir.join("envs/prod/notes.yaml"), "kind: ConfigMap\n").unwrap();
    let output = common::fedrender_in(
        &dir,
        &["validate", "fleet", "--clusters", "envs/prod/cluster.yaml"],
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output).lines().next().unwrap(),
        "error: cannot read envs/prod/cluster.yaml: No such file or directory (os error 2); \
         inventories nearby: envs/prod/clusters.yaml, envs/prod/members.yaml"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
/// `kubefedctl federate` leaves the live object beside the Federated<Kind> it made, and KubeFed
/// reads only the federated object: plan names the plain one as the host's copy (text and JSON).
#[test]
fn plan_names_the_host_copy_beside_a_federated_object() {
    let args = [
        "plan",
        "testdata/kubefed-host-copy/input",
        "--clusters",
        "testdata/kubefed-host-copy/clusters.yaml",
    ];
    let output = fedrender(&args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("  placed by FederatedDeployment shop/web\n  host's copy at testdata/kubefed-host-copy/input/shop.yaml:23: the plain Deployment beside it, which KubeFed does not read"),
        "{text}"
    );
    assert!(
        text.contains(
            "host's copy at testdata/kubefed-host-copy/input/shop.yaml:58: the plain ConfigMap"
        ),
        "{text}"
    );
    let output = fedrender(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let entries: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
    let web = entries
        .iter()
        .find(|entry| entry["kind"] == "Deployment")
        .unwrap();
    assert_eq!(
        web["hostCopy"],
        "testdata/kubefed-host-copy/input/shop.yaml:23"
    );
}

/// Each Divided workload's plan says how its replicas were divided, from the scheduler's own
/// numbers: docs/placement.md reasons the example's divisions (shop/web by static weights eu 3,
/// us 2, ap 1 exactly; report-builder Aggregated over us-1 17 and eu-1 12 available, 20 as
/// 11.7 + 8.3, so Webster's one left over goes to us-1), and a Duplicated one has no division.
#[test]
fn plan_explains_each_division() {
    let plan = |format: &str| {
        let output = fedrender(&[
            "plan",
            "examples/regions",
            "--clusters",
            "examples/regions/clusters.yaml",
            "--kind",
            "Deployment",
            "--format",
            format,
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    let text = plan("text");
    let divisions: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("  division: "))
        .collect();
    assert_eq!(divisions.len(), 3, "{text}");
    assert!(
        divisions.contains(
            &"  division: 12 replicas by static weight us-1:2 eu-1:3 ap-1:1 us-2:2 eu-2:3 ap-2:1 \
              → us-1 2, eu-1 3, ap-1 1, us-2 2, eu-2 3, ap-2 1"
        ),
        "{text}"
    );
    let builder = divisions
        .iter()
        .find(|line| line.contains("20 replicas aggregated"))
        .unwrap_or_else(|| panic!("no division of report-builder:\n{text}"));
    assert!(
        builder.contains("(estimator: us-1 17, eu-1 12, ")
            && builder.contains("→ us-1 12, eu-1 8; not needed: ")
            && builder.contains("; remainder 1 to us-1 ("),
        "{builder}"
    );
    let json: serde_json::Value = serde_json::from_str(&plan("json")).expect("JSON");
    let entry = |name: &str| {
        json.as_array()
            .unwrap()
            .iter()
            .find(|entry| entry["name"] == name)
            .unwrap_or_else(|| panic!("no {name}"))
            .clone()
    };
    assert!(entry("edge-proxy")["division"].is_null());
    let division = &entry("report-builder")["division"];
    assert_eq!(division["strategy"], "aggregated");
    assert_eq!(division["replicas"], 20);
    assert_eq!(division["ties"], "smallerNameFirst");
    let us1 = &division["clusters"][0];
    assert_eq!(
        (
            &us1["cluster"],
            &us1["available"],
            &us1["replicas"],
            &us1["remainder"]
        ),
        (&"us-1".into(), &17.into(), &12.into(), &1.into())
    );
    assert_eq!(
        division["explanation"].as_str(),
        builder.strip_prefix("  division: ")
    );
    let web = &entry("web")["division"];
    assert_eq!(
        (&web["strategy"], &web["weightsListed"]),
        (&"staticWeight".into(), &true.into())
    );
    let eu1 = web["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|cluster| cluster["cluster"] == "eu-1")
        .unwrap();
    assert_eq!((&eu1["weight"], &eu1["replicas"]), (&3.into(), &3.into()));
}

/// `--karmada-version` beats the Config's `spec.karmada.version`: the fixture that Karmada 1.19
/// refuses (testdata/error-karmada-1.19-purge-modes) is admitted as Karmada 1.18 with a
/// deprecated-field warning per old spelling; a release fedrender does not know is a usage
/// error naming the ones it knows.
#[test]
fn the_karmada_version_flag_beats_the_config() {
    let validate = |version: &str| {
        fedrender(&[
            "validate",
            "testdata/error-karmada-1.19-purge-modes/input",
            "--clusters",
            "testdata/error-karmada-1.19-purge-modes/clusters.yaml",
            "--karmada-version",
            version,
        ])
    };
    let older = validate("1.18");
    assert_eq!(older.status.code(), Some(0), "{}", stderr(&older));
    assert_eq!(
        stderr(&older).matches("[deprecated-field]").count(),
        2,
        "{}",
        stderr(&older)
    );
    let unknown = validate("1.8");
    assert_eq!(unknown.status.code(), Some(2), "{}", stderr(&unknown));
    assert!(
        stderr(&unknown).contains("--karmada-version: fedrender knows Karmada 1.12, 1.13, 1.14, 1.15, 1.16, 1.17, 1.18, 1.19, not 1.8"),
        "{}",
        stderr(&unknown)
    );
}

/// `plan` tells a MultiClusterService's story (testdata/multi-cluster-service; karmada
/// pkg/controllers/multiclusterservice/mcs_controller.go `handleMultiClusterServiceCreateOrUpdate`):
/// which Service it claims, the providers and consumers, that EndpointSlices move at run time,
/// and that the Service's own policy lost to it.
#[test]
fn plan_says_what_a_multi_cluster_service_claims() {
    let output = fedrender(&[
        "plan",
        "testdata/multi-cluster-service/input",
        "--clusters",
        "testdata/multi-cluster-service/clusters.yaml",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("  note: claims Service demo/tutorial; providers: member1; consumers: member2; the providers' EndpointSlices are dispatched to the consumers at run time\n"),
        "{text}"
    );
    assert!(
        text.contains("  note: claims Service demo/all-providers; providers: every cluster (member1, member2, member3); consumers: member2;"),
        "{text}"
    );
    assert!(
        text.contains("  policy PropagationPolicy demo/services (priority 0, matched by apiVersion and kind): lost: MultiClusterService demo/tutorial claims the Service\n"),
        "{text}"
    );
    assert!(
        text.contains("  note: kept on Karmada's control plane: no member ever receives a MultiClusterService\n"),
        "{text}"
    );
    assert!(
        !text.contains(
            "MultiClusterService.networking.karmada.io demo/tutorial is rendered nowhere"
        ),
        "{text}"
    );
}

/// The README's container command on Linux: the image runs as uid 65532, the mounted checkout
/// belongs to the host's user. Run as another uid (what the image does without `--user`), the
/// build is refused with a message that names both uids and the `--user` flag, and writes
/// nothing; run as the checkout's owner (what `--user "$(id -u):$(id -g)"` does), it builds.
/// Needs root and setpriv to change uid; skipped elsewhere.
#[test]
fn the_containers_documented_command_as_another_uid_and_as_the_checkouts_owner() {
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|id| id.stdout == b"0\n");
    if !is_root || Command::new("setpriv").arg("--version").output().is_err() {
        eprintln!("skipped: changing uid needs root and setpriv");
        return;
    }
    let checkout = scratch("container-uid");
    let _ = std::fs::remove_dir_all(&checkout);
    let repository = Path::new(env!("CARGO_MANIFEST_DIR"));
    common::copy_tree(&repository.join("examples"), &checkout.join("examples"));
    let owned = Command::new("chown")
        .args(["-R", "1000:1000"])
        .arg(&checkout)
        .status()
        .unwrap();
    assert!(owned.success());
    let binary = env!("CARGO_BIN_EXE_fedrender");
    let run_as = |uid: &str| {
        Command::new("setpriv")
            .args([
                &format!("--reuid={uid}"),
                &format!("--regid={uid}"),
                "--clear-groups",
            ])
            .args([
                binary,
                "build",
                "examples/fleet",
                "--clusters",
                "examples/clusters.yaml",
            ])
            .args(["--out", "rendered"])
            .current_dir(&checkout)
            .output()
            .unwrap()
    };
    let refused = run_as("65532");
    let message = stderr(&refused);
    assert_eq!(refused.status.code(), Some(2), "{message}");
    assert!(message.contains("rendered: Permission denied"), "{message}");
    assert!(
        message.contains("fedrender runs as uid 65532 and")
            && message.contains("belongs to uid 1000")
            && message.contains(r#"docker run --user "$(id -u):$(id -g)""#),
        "{message}"
    );
    assert!(!checkout.join("rendered").exists());

    let built = run_as("1000");
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    assert!(
        checkout
            .join("rendered/prod-eu-1/kustomization.yaml")
            .is_file()
    );
}

/// `-h` is a summary: no lint is named in it (with --deny, --warn and --allow each listing all
/// of them, `build -h` printed the list three times); `--help` lists each lint once; every flag
/// has a description; each manual page has EXIT STATUS and EXAMPLES.
#[test]
fn help_names_each_lint_once_and_every_page_has_exit_status_and_examples() {
    for subcommand in ["build", "diff", "plan", "validate"] {
        let short = String::from_utf8(fedrender(&[subcommand, "-h"]).stdout).unwrap();
        let long = String::from_utf8(fedrender(&[subcommand, "--help"]).stdout).unwrap();
        for lint in ["unknown-cluster", "quota-exceeded", "hpa-owns-replicas"] {
            assert!(
                !short.contains(lint),
                "{subcommand} -h names {lint}:\n{short}"
            );
            assert_eq!(
                long.matches(lint).count(),
                1,
                "{subcommand} --help:\n{long}"
            );
        }
        // An option without a description shows its defaults where the description goes.
        let lines: Vec<&str> = short.lines().collect();
        let undescribed: Vec<&str> = lines
            .windows(2)
            .filter(|pair| pair[0].trim_start().starts_with('-'))
            .filter(|pair| pair[1].trim_start().starts_with('['))
            .map(|pair| pair[0])
            .collect();
        assert!(undescribed.is_empty(), "{subcommand}: {undescribed:?}");
        let page = String::from_utf8(fedrender(&["man", subcommand]).stdout).unwrap();
        for section in [".SH \"EXIT STATUS\"", ".SH EXAMPLES"] {
            assert!(
                page.contains(section),
                "fedrender-{subcommand}(1) has no {section}"
            );
        }
    }
}

/// `--message-format json` makes standard error a JSON stream and nothing else: every line one
/// object, the last the run's summary (`"level": "summary"`) with its counts, whether the run
/// succeeded or failed.
#[test]
fn the_json_message_format_is_json_to_the_last_line() {
    let out = scratch("json-summary");
    let failing = "testdata/error-override-remove-missing";
    let runs: [(Vec<String>, i32, u64); 3] = [
        (
            [
                "validate",
                "examples/fleet",
                "--clusters",
                "examples/clusters.yaml",
                "--include",
                "shop/**",
            ]
            .map(String::from)
            .to_vec(),
            0,
            0,
        ),
        (
            vec![
                "build".into(),
                "examples/fleet".into(),
                "--clusters".into(),
                "examples/clusters.yaml".into(),
                "--out".into(),
                out.to_string_lossy().into_owned(),
            ],
            0,
            0,
        ),
        (
            vec![
                "build".into(),
                format!("{failing}/input"),
                "--clusters".into(),
                format!("{failing}/clusters.yaml"),
                "--out".into(),
                out.to_string_lossy().into_owned(),
            ],
            2,
            1,
        ),
    ];
    for (args, code, errors) in runs {
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.extend(["--message-format", "json"]);
        let run = fedrender(&args);
        assert_eq!(run.status.code(), Some(code), "{args:?}: {}", stderr(&run));
        let text = stderr(&run);
        let objects: Vec<serde_json::Value> = text
            .lines()
            .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}")))
            .collect();
        let last = objects.last().expect("a summary");
        assert_eq!(last["level"], "summary", "{args:?}: {text}");
        assert_eq!(last["errors"], errors, "{text}");
        let warnings = objects
            .iter()
            .filter(|object| object["level"] == "warning")
            .count();
        assert_eq!(last["warnings"], warnings as u64, "{text}");
    }
}

/// Typos get the nearest right word: a fleet directory, a template field, `--cluster FILE`
/// meant for `--clusters`, and a cluster of a series the inventory does not have.
#[test]
fn typos_get_the_nearest_right_word() {
    let fleet = scratch("typos");
    let _ = std::fs::remove_dir_all(&fleet);
    std::fs::create_dir_all(&fleet).unwrap();
    std::fs::write(
        fleet.join("web.yaml"),
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: default}\n\
         spec:\n  replica: 3\n  selector: {matchLabels: {app: web}}\n  template:\n    \
         metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: nginx}]}\n\
         ---\napiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\n\
         metadata: {name: web, namespace: default}\nspec:\n  resourceSelectors: \
         [{apiVersion: apps/v1, kind: Deployment, name: web}]\n  placement: {clusterAffinity: \
         {clusterNames: [prod-eu-1]}}\n",
    )
    .unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "validate",
                "examples/flet",
                "--clusters",
                "examples/clusters.yaml",
            ],
            "input directory examples/flet does not exist or is not a directory; did you mean \
             examples/fleet?",
        ),
        (
            &[
                "validate",
                fleet.to_str().unwrap(),
                "--clusters",
                "examples/clusters.yaml",
            ],
            "web.yaml:5: Deployment.apps default/web: spec.replica: is not a field of this kind; \
             did you mean `replicas`?",
        ),
        (
            &[
                "plan",
                "examples/fleet",
                "--clusters",
                "examples/clusters.yaml",
                "--cluster",
                "examples/clusters.yaml",
            ],
            "--cluster examples/clusters.yaml: the inventory has no such cluster; \
             examples/clusters.yaml looks like a file: --clusters FILE names the inventory, \
             --cluster NAME one of its clusters",
        ),
        (
            &[
                "plan",
                "examples/fleet",
                "--clusters",
                "examples/clusters.yaml",
                "--cluster",
                "prod-eu-3",
            ],
            "--cluster prod-eu-3: the inventory has no such cluster; the inventory has \
             edge-ap-1, prod-eu-1, prod-eu-2, prod-us-1, staging-eu-1",
        ),
    ];
    for (args, expected) in cases {
        let run = fedrender(args);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&run).contains(expected),
            "{args:?}:\n{}",
            stderr(&run)
        );
    }
}

/// `plan --format json` is written entry by entry, not as one value: its bytes must still be
/// the pretty JSON of the whole array, for a plan of many entries and for an empty one.
#[test]
fn the_streamed_json_plan_is_the_pretty_json_of_the_whole_array() {
    for kind in [None, Some("Deployment")] {
        let mut args = vec![
            "plan",
            "examples/fleet",
            "--clusters",
            "examples/clusters.yaml",
        ];
        args.extend(["--format", "json"]);
        if let Some(kind) = kind {
            args.extend(["--kind", kind]);
        }
        let run = fedrender(&args);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let text = String::from_utf8(run.stdout).unwrap();
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(
            parsed.as_array().is_some_and(|entries| entries.len() > 2),
            "{text}"
        );
        assert_eq!(text, serde_json::to_string_pretty(&parsed).unwrap() + "\n");
    }
}
