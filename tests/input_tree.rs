//! How the real binary reads an input directory: line endings, symbolic links and special
//! files, and a rendered tree inside the input. Fixtures are built at run time, because links
//! and FIFOs cannot be committed portably.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common;
use common::{command, empty_scratch, fedrender, files_under, stderr};

const CLUSTERS: &str = "examples/nginx/clusters.yaml";

fn nginx() -> String {
    std::fs::read_to_string("examples/nginx/nginx.yaml").unwrap()
}

/// `build --stdout` of `input` against the nginx example's clusters: the whole render as text.
fn render(input: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "build",
        input.to_str().unwrap(),
        "--clusters",
        CLUSTERS,
        "--stdout",
    ];
    args.extend_from_slice(extra);
    fedrender(&args)
}

fn rendered_text(input: &Path) -> String {
    let output = render(input, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn cr_only_and_mixed_line_endings_render_as_their_lf_twin() {
    let root = empty_scratch("line-endings");
    let lf = nginx();
    assert!(
        lf.starts_with('#'),
        "the file opens with a comment line, which hid the whole of a CR-only file"
    );
    let mixed = lf.replacen('\n', "\r", 5).replacen('\n', "\r\n", 5);
    let mut renders = Vec::new();
    for (name, text) in [
        ("lf", lf.clone()),
        ("cr", lf.replace('\n', "\r")),
        ("mixed", mixed),
    ] {
        let input = root.join(name);
        std::fs::create_dir(&input).unwrap();
        std::fs::write(input.join("nginx.yaml"), text).unwrap();
        renders.push((name, rendered_text(&input)));
    }
    assert!(
        renders[0].1.contains("kind: Deployment"),
        "{}",
        renders[0].1
    );
    for (name, text) in &renders[1..] {
        assert_eq!(text, &renders[0].1, "{name}");
    }

    let bad = root.join("bad");
    std::fs::create_dir(&bad).unwrap();
    std::fs::write(
        bad.join("bad.yaml"),
        "# line 1\rapiVersion: v1\r\nkind: ConfigMap\rmetadata:\r  name: [x\r\ndata: {}\r",
    )
    .unwrap();
    let output = render(&bad, &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let expected = format!("error: {}:6: ", bad.join("bad.yaml").display());
    assert!(
        stderr(&output).starts_with(&expected),
        "{}",
        stderr(&output)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// `build FLEET --out FLEET/rendered`, as a repository that commits its rendered tree beside
/// its templates runs it: every command reads the templates and never the rendered files,
/// before and after they exist, and all of them agree.
#[test]
fn a_rendered_tree_inside_the_input_is_never_read_as_templates() {
    let input = empty_scratch("rendered-inside");
    std::fs::write(input.join("nginx.yaml"), nginx()).unwrap();
    let input_arg = input.to_str().unwrap();
    let out = input.join("rendered");
    let out_arg = out.to_str().unwrap();
    let run = |args: &[&str]| {
        let mut all = vec![args[0], input_arg, "--clusters", CLUSTERS];
        all.extend_from_slice(&args[1..]);
        fedrender(&all)
    };
    let succeeds = |args: &[&str]| {
        let output = run(args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        output
    };
    let stream_before = rendered_text(&input);
    let plan_before = succeeds(&["plan"]).stdout;
    let validate_before = stderr(&succeeds(&["validate", "--strict"]));

    succeeds(&["build", "--out", out_arg, "--strict"]);
    assert!(out.join("cluster1/kustomization.yaml").exists());
    assert_eq!(rendered_text(&input), stream_before);
    assert_eq!(succeeds(&["plan"]).stdout, plan_before);
    assert_eq!(
        stderr(&succeeds(&["validate", "--strict"])),
        validate_before
    );
    let diff = succeeds(&["diff", "--against", out_arg]);
    assert!(
        diff.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&diff.stdout)
    );
    succeeds(&["build", "--out", out_arg, "--check", "--strict"]);
    let again = stderr(&succeeds(&["build", "--out", out_arg, "--strict"]));
    assert!(
        again.contains(" 0 written, 5 unchanged, 0 removed"),
        "{again}"
    );

    // A hand-written file in the output directory is input, to build and validate alike.
    std::fs::write(
        out.join("notes.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\n",
    )
    .unwrap();
    let expected = format!(
        "warning: {}:1: ConfigMap default/notes",
        out.join("notes.yaml").display()
    );
    for args in [&["validate"][..], &["build", "--out", out_arg]] {
        let output = succeeds(args);
        assert!(
            stderr(&output).contains(&expected),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    std::fs::remove_dir_all(&input).unwrap();
}

#[test]
fn build_refuses_an_output_directory_that_is_the_input_or_contains_it() {
    let root = empty_scratch("out-over-input");
    let input = root.join("fleet");
    std::fs::create_dir(&input).unwrap();
    std::fs::write(input.join("nginx.yaml"), nginx()).unwrap();
    let before = files_under(&root);
    let input_arg = input.to_str().unwrap();
    let same = format!("{input_arg}/.");
    for out in [input_arg, &same, root.to_str().unwrap()] {
        for check in [false, true] {
            let mut args = vec!["build", input_arg, "--clusters", CLUSTERS, "--out", out];
            if check {
                args.push("--check");
            }
            let output = fedrender(&args);
            assert_eq!(
                output.status.code(),
                Some(2),
                "{args:?}: {}",
                stderr(&output)
            );
            let message = stderr(&output);
            let expected = format!("error: --out {out} ");
            assert!(message.starts_with(&expected), "{args:?}: {message}");
            assert!(
                message.contains(&format!(" the input directory {input_arg}: "))
                    && message.contains(&format!("--out {input_arg}/rendered")),
                "{args:?}: {message}"
            );
            assert_eq!(files_under(&root), before, "{args:?} wrote");
        }
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// Runs the binary, failing the test if it opened one of `fifos`, which it must only look at.
/// Each has a writer waiting (on Linux), so that an open reads nothing instead of hanging.
#[cfg(unix)]
fn fedrender_leaving_fifos(args: &[&str], fifos: &[&Path]) -> Output {
    #[cfg(target_os = "linux")]
    let watch = common::fifo::FifoWatch::new(fifos);
    let output = command()
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary runs");
    #[cfg(target_os = "linux")]
    assert_eq!(
        watch.opened(),
        Vec::<PathBuf>::new(),
        "{args:?} opened a FIFO"
    );
    #[cfg(not(target_os = "linux"))]
    let _ = fifos;
    output
}

#[cfg(unix)]
#[test]
fn symbolic_links_inside_the_input_are_read_like_what_they_point_to() {
    use std::os::unix::fs::symlink;
    let root = empty_scratch("links-inside");
    let plain = root.join("plain");
    std::fs::create_dir(&plain).unwrap();
    std::fs::write(plain.join("nginx.yaml"), nginx()).unwrap();
    let expected = rendered_text(&plain);

    // A file link and a directory link, both to a hidden directory that is not read itself.
    for (name, link, target) in [
        ("file-link", "nginx.yaml", ".store/nginx.yaml"),
        ("directory-link", "apps", ".store"),
    ] {
        let input = root.join(name);
        std::fs::create_dir_all(input.join(".store")).unwrap();
        std::fs::write(input.join(".store/nginx.yaml"), nginx()).unwrap();
        symlink(target, input.join(link)).unwrap();
        let output = render(&input, &["--strict"]);
        assert_eq!(output.status.code(), Some(0), "{name}: {}", stderr(&output));
        assert_eq!(
            String::from_utf8(output.stdout).unwrap(),
            expected,
            "{name}"
        );
    }

    // Messages name the link, the path the user sees.
    let bad = root.join("bad");
    std::fs::create_dir_all(bad.join(".store")).unwrap();
    std::fs::write(
        bad.join(".store/bad.yaml"),
        "kind: ConfigMap\nmetadata: [x\n",
    )
    .unwrap();
    symlink(".store/bad.yaml", bad.join("bad.yaml")).unwrap();
    let output = render(&bad, &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let expected = format!("error: {}:", bad.join("bad.yaml").display());
    assert!(
        stderr(&output).starts_with(&expected),
        "{}",
        stderr(&output)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[cfg(unix)]
#[test]
fn entries_that_cannot_be_read_as_files_are_named_in_a_warning_and_never_opened() {
    use std::os::unix::fs::symlink;
    let root = empty_scratch("unreadable-entries");
    let elsewhere = root.join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::write(
        elsewhere.join("configmap.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: elsewhere\n",
    )
    .unwrap();
    let input = root.join("fleet");
    std::fs::create_dir(&input).unwrap();
    std::fs::write(input.join("nginx.yaml"), nginx()).unwrap();
    symlink(elsewhere.join("configmap.yaml"), input.join("outside.yaml")).unwrap();
    symlink("../elsewhere", input.join("shared")).unwrap();
    symlink("missing.yaml", input.join("dangling.yaml")).unwrap();
    // It may have been a directory: a name without an extension is reported too.
    symlink("missing", input.join("dangling-directory")).unwrap();
    symlink("loop.yaml", input.join("loop.yaml")).unwrap();
    symlink(".", input.join("cycle")).unwrap();
    let fifo = |name: &str| {
        let path = std::ffi::CString::new(input.join(name).to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
        input.join(name)
    };
    let pipe_yaml = fifo("pipe.yaml");
    // Not input by name, hidden or excluded: ignored as before, without a word.
    let pipe_txt = fifo("pipe.txt");
    let fifos = [pipe_yaml.as_path(), pipe_txt.as_path()];
    symlink("missing", input.join("notes.txt")).unwrap();
    symlink("missing.yaml", input.join(".hidden.yaml")).unwrap();
    symlink("missing.yaml", input.join("excluded.yaml")).unwrap();

    let path = |name: &str| input.join(name).display().to_string();
    let warnings = [
        format!(
            "{} is a symbolic link to {}, a directory that contains it (a loop); it is not walked",
            path("cycle"),
            input.display()
        ),
        format!(
            "{} is a dangling symbolic link: its target missing does not exist; it is not read",
            path("dangling-directory")
        ),
        format!(
            "{} is a dangling symbolic link: its target missing.yaml does not exist; it is not read",
            path("dangling.yaml")
        ),
        format!(
            "{} is a symbolic link loop: following it leads back to a link already followed; it is not read",
            path("loop.yaml")
        ),
        format!(
            "{} is a symbolic link to {}, outside the input directory {}; it is not read",
            path("outside.yaml"),
            elsewhere.join("configmap.yaml").display(),
            input.display()
        ),
        format!(
            "{} is a named pipe (FIFO), not a regular file; it is not read",
            path("pipe.yaml")
        ),
        format!(
            "{} is a symbolic link to the directory {}, outside the input directory {}; it is not walked",
            path("shared"),
            elsewhere.display(),
            input.display()
        ),
    ];
    let input_arg = input.to_str().unwrap();
    let args = |command: &'static str, strict: bool| {
        // Verbose: every warning, not the first five of each lint.
        let mut args = vec![command, input_arg, "--clusters", CLUSTERS, "--verbose"];
        args.extend(["--exclude", "excluded.yaml"]);
        if command == "build" {
            args.push("--stdout");
        }
        if strict {
            args.push("--strict");
        }
        args
    };
    for command in ["build", "validate"] {
        let output = fedrender_leaving_fifos(&args(command, false), &fifos);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{command}: {}",
            stderr(&output)
        );
        let text = stderr(&output);
        let reported: Vec<&str> = text
            .lines()
            .filter_map(|line| line.strip_prefix("warning: "))
            .filter_map(|line| line.strip_suffix(" [skipped-input]"))
            .collect();
        assert_eq!(reported, warnings, "{command}");

        let strict = fedrender_leaving_fifos(&args(command, true), &fifos);
        assert_eq!(
            strict.status.code(),
            Some(2),
            "{command}: {}",
            stderr(&strict)
        );
        for warning in &warnings {
            let error = format!("error: {warning} (a warning; --strict makes it an error)");
            assert!(
                stderr(&strict).contains(&error),
                "{command}: {}",
                stderr(&strict)
            );
        }
    }
    let plain = root.join("plain");
    std::fs::create_dir(&plain).unwrap();
    std::fs::write(plain.join("nginx.yaml"), nginx()).unwrap();
    let output = fedrender_leaving_fifos(&args("build", false), &fifos);
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        rendered_text(&plain),
        "nothing else was read"
    );
    std::fs::remove_dir_all(&root).unwrap();
}
