//! No value of a Secret in any message (issue 50): a Secret's `data` and `stringData` values,
//! and their copy in the `kubectl.kubernetes.io/last-applied-configuration` annotation, reach
//! the clusters' trees but never standard error, a plan, a diff, a GitHub annotation or JSON.
//! Each test is the leak as it was: a message that quoted the value.

use crate::common;

use std::path::Path;
use std::process::Output;

use common::{empty_scratch, fedrender};

const INVENTORY: &str = "\
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: prod-eu-1}
";

const PLACEMENT: &str = "\
apiVersion: v1
kind: Namespace
metadata: {name: shop}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: shop}
spec:
  resourceSelectors:
  - {apiVersion: v1, kind: Namespace, name: shop}
  - {apiVersion: v1, kind: Secret, namespace: shop, name: db}
  placement:
    clusterAffinity:
      clusterNames: [prod-eu-1]
";

/// What must never be printed: a value not in base64 where base64 is due, a number where a
/// string is due, and the annotation's copy of another value.
const VALUES: [&str; 3] = ["hunter2-not-base64!", "918273645", "swordfish-copy"];

const INVALID_SECRET: &str = r#"apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: shop
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"v1","kind":"Secret","data":{"password":"swordfish-copy"}}'
data:
  password: "hunter2-not-base64!"
stringData:
  pin: 918273645
"#;

const FORMATS: [&str; 3] = ["human", "github", "json"];

fn fleet(name: &str, secret: &str) -> std::path::PathBuf {
    let dir = empty_scratch(name);
    std::fs::create_dir_all(dir.join("fleet")).unwrap();
    std::fs::write(dir.join("fleet/placement.yaml"), PLACEMENT).unwrap();
    std::fs::write(dir.join("fleet/secret.yaml"), secret).unwrap();
    std::fs::write(dir.join("clusters.yaml"), INVENTORY).unwrap();
    dir
}

fn everything_printed(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn assert_no_value(printed: &str, what: &str) {
    for value in VALUES.iter().chain(&["aHVudGVyMw==", "hunter3"]) {
        assert!(
            !printed.contains(value),
            "{what} shows the Secret's value {value}:\n{printed}"
        );
    }
}

fn run_in(dir: &Path, command: &str, format: &str) -> Output {
    let fleet = dir.join("fleet");
    let clusters = dir.join("clusters.yaml");
    let out = dir.join("out");
    let mut args = vec![
        command,
        fleet.to_str().unwrap(),
        "--clusters",
        clusters.to_str().unwrap(),
        "--message-format",
        format,
    ];
    if command == "build" {
        args.extend(["-o", out.to_str().unwrap()]);
    }
    fedrender(&args)
}

#[test]
fn schema_messages_about_a_secrets_values_quote_none_of_them() {
    let dir = fleet("secret-messages-schema", INVALID_SECRET);
    for command in ["build", "plan", "validate"] {
        for format in FORMATS {
            let output = run_in(&dir, command, format);
            let printed = everything_printed(&output);
            let what = format!("{command} --message-format {format}");
            assert_eq!(output.status.code(), Some(2), "{what}:\n{printed}");
            assert_no_value(&printed, &what);
            // Still said, at the field, with the value's place marked.
            assert!(
                printed.contains("data.password") && printed.contains("stringData.pin"),
                "{what} names the fields:\n{printed}"
            );
            assert!(
                printed.contains("<redacted> is not base64")
                    && printed.contains("<redacted> is an integer"),
                "{what} says what is wrong:\n{printed}"
            );
        }
    }
}

#[test]
fn a_yaml_errors_source_lines_mask_a_secrets_values() {
    // The quote left open on `token` makes the parser quote the lines around it.
    let broken = "apiVersion: v1\nkind: Secret\nmetadata: {name: db, namespace: shop}\n\
                  stringData:\n  user: hunter2-not-base64!\n  token: \"swordfish-copy\n  \
                  pin: 918273645\n";
    let dir = fleet("secret-messages-yaml", broken);
    for format in FORMATS {
        let output = run_in(&dir, "build", format);
        let printed = everything_printed(&output);
        let what = format!("build --message-format {format} of a broken Secret");
        assert_eq!(output.status.code(), Some(2), "{what}:\n{printed}");
        assert_no_value(&printed, &what);
        assert!(
            printed.contains("quote opened on this line is not closed")
                && printed.contains("user: <redacted>"),
            "{what} still shows the error and its lines:\n{printed}"
        );
    }
}

#[test]
fn the_diff_redacts_the_copy_in_the_last_applied_annotation() {
    let secret = |value: &str, encoded: &str| {
        format!(
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\n  \
             annotations:\n    kubectl.kubernetes.io/last-applied-configuration: \
             '{{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"stringData\":{{\"password\":\"{value}\"}}}}'\n\
             data:\n  password: {encoded}\n"
        )
    };
    let base = fleet(
        "secret-messages-diff-base",
        &secret("swordfish-copy", "aHVudGVyMg=="),
    );
    let head = fleet(
        "secret-messages-diff-head",
        &secret("hunter3", "aHVudGVyMw=="),
    );
    for format in ["unified", "markdown", "json"] {
        let output = fedrender(&[
            "diff",
            head.join("fleet").to_str().unwrap(),
            "--clusters",
            head.join("clusters.yaml").to_str().unwrap(),
            "--base",
            base.join("fleet").to_str().unwrap(),
            "--format",
            format,
        ]);
        let printed = everything_printed(&output);
        let what = format!("diff --format {format}");
        assert_no_value(&printed, &what);
        assert!(!printed.contains("aHVudGVyMg=="), "{what}:\n{printed}");
        // The change is still told: both the Secret's value and the annotation's copy changed.
        assert!(
            printed.matches("<redacted, changed>").count() >= 2,
            "{what} says which values changed:\n{printed}"
        );
    }
}

/// A SOPS file whose `stringData` was written in the clear beside its metadata: its values
/// sit readable in the tree, so it is a plaintext Secret, not "SOPS-encrypted".
#[test]
fn a_half_encrypted_sops_secret_is_a_plaintext_secret() {
    let half = "apiVersion: v1\nkind: Secret\nmetadata: {name: db, namespace: shop}\ndata:\n  \
                password: ENC[AES256_GCM,data:cGFzcw==,iv:aXY=,tag:dGFn,type:str]\nstringData:\n  \
                token: swordfish-copy\nsops:\n  mac: ENC[AES256_GCM,data:bWFj,iv:aXY=,tag:dGFn,type:str]\n  \
                lastmodified: \"2024-01-01T00:00:00Z\"\n  version: 3.9.0\n";
    let dir = fleet("secret-messages-half-sops", half);
    let output = run_in(&dir, "plan", "human");
    let printed = everything_printed(&output);
    assert_eq!(output.status.code(), Some(0), "{printed}");
    assert!(
        printed.contains("Secret shop/db: in the clear (plaintext-secret) -> prod-eu-1")
            && !printed.contains("SOPS-encrypted ->"),
        "{printed}"
    );
    assert!(
        printed.contains("holds stringData.token in the clear beside its sops metadata")
            && printed.contains("[plaintext-secret]"),
        "{printed}"
    );
    assert_no_value(&printed, "plan of a half-encrypted Secret");
    // Denied, it stops the build as any Secret in the clear does.
    let output = fedrender(&[
        "build",
        dir.join("fleet").to_str().unwrap(),
        "--clusters",
        dir.join("clusters.yaml").to_str().unwrap(),
        "-o",
        dir.join("out").to_str().unwrap(),
        "--deny",
        "plaintext-secret",
    ]);
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        everything_printed(&output)
    );
}
