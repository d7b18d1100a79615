//! How the real binary reads an input directory: line endings, symbolic links and special
//! files, and a rendered tree inside the input. Fixtures are built at run time, because links
//! and FIFOs cannot be committed portably.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CLUSTERS: &str = "examples/nginx/clusters.yaml";

fn fedrender(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fedrender"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A fresh, empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fedrender-input-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

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
    let root = scratch("line-endings");
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
