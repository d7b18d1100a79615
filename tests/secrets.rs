//! SOPS documents through a real render, checked with the real tools: a PGP key made with
//! GnuPG for the test run alone, a Secret encrypted with sops (Python's, from PyPI), the fleet
//! rendered, and every cluster's copy decrypted by sops again. Nothing secret is committed:
//! the key lives in the run's scratch directory.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{empty_scratch, fedrender, stderr, tools};

const INVENTORY: &str = "\
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: prod-eu-1}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: prod-eu-2}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: staging}
";

const POLICIES: &str = "\
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
      clusterNames: [prod-eu-1, prod-eu-2, staging]
";

/// Swaps the encrypted values of password and username on prod-eu-2: each still a valid
/// ENC[...] string, but the MAC no longer matches.
const SWAPPING_OVERRIDE: &str = "\
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: swap, namespace: shop}
spec:
  resourceSelectors:
  - {apiVersion: v1, kind: Secret, name: db}
  overrideRules:
  - targetCluster:
      clusterNames: [prod-eu-2]
    overriders:
      plaintext:
      - {path: /data/password, operator: replace, value: 'USERNAME'}
";

fn run(program: &str, args: &[&str], gnupg: &Path) -> Output {
    Command::new(program)
        .args(args)
        .env("GNUPGHOME", gnupg)
        .output()
        .unwrap_or_else(|error| panic!("{program} runs: {error}"))
}

fn succeeded(output: &Output, what: &str) -> String {
    assert!(
        output.status.success(),
        "{what} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The encrypted value of `field` under `data:` in a file sops wrote (which folds long values
/// onto the next line).
fn encrypted_value(encrypted: &str, field: &str) -> String {
    let mut lines = encrypted.lines();
    lines
        .by_ref()
        .find(|line| line.trim_start().starts_with(&format!("{field}:")))
        .unwrap();
    lines.next().unwrap().trim().to_string()
}

#[test]
fn every_clusters_copy_of_a_sops_secret_decrypts_and_a_breaking_override_is_refused() {
    if !tools::require(&["gpg", "sops"]) {
        return;
    }
    let dir = empty_scratch("sops-real");
    let gnupg = dir.join("gnupg");
    std::fs::create_dir_all(&gnupg).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&gnupg, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    succeeded(
        &run(
            "gpg",
            &[
                "--batch",
                "--passphrase",
                "",
                "--quick-gen-key",
                "fedrender test run <test@fedrender.invalid>",
                "future-default",
                "default",
                "never",
            ],
            &gnupg,
        ),
        "gpg --quick-gen-key",
    );
    let keys = succeeded(
        &run("gpg", &["--list-keys", "--with-colons"], &gnupg),
        "gpg --list-keys",
    );
    // The encryption subkey's fingerprint: the last fpr line.
    let fingerprint = keys
        .lines()
        .filter(|line| line.starts_with("fpr:"))
        .filter_map(|line| line.split(':').nth(9))
        .next_back()
        .unwrap()
        .to_string();

    // Python's sops encrypts every value, so only data goes through it; the identifying fields
    // are added in the clear afterwards, which its MAC (over ENC[...] values) leaves out.
    let plain = dir.join("data.yaml");
    std::fs::write(
        &plain,
        "data:\n  password: aHVudGVyMg==\n  username: YWRtaW4=\n",
    )
    .unwrap();
    let encrypted = succeeded(
        &run(
            "sops",
            &["-e", "-p", &fingerprint, plain.to_str().unwrap()],
            &gnupg,
        ),
        "sops -e",
    );
    let input = dir.join("input");
    std::fs::create_dir_all(&input).unwrap();
    let secret = format!(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\ntype: Opaque\n{encrypted}"
    );
    std::fs::write(input.join("db.yaml"), &secret).unwrap();
    std::fs::write(input.join("policies.yaml"), POLICIES).unwrap();
    let inventory = dir.join("clusters.yaml");
    std::fs::write(&inventory, INVENTORY).unwrap();
    let source = input.join("db.yaml");
    let expected = succeeded(
        &run("sops", &["-d", source.to_str().unwrap()], &gnupg),
        "sops -d of the source",
    );
    assert!(expected.contains("aHVudGVyMg=="), "{expected}");

    let out = dir.join("out");
    let output = fedrender(&[
        "build",
        input.to_str().unwrap(),
        "--clusters",
        inventory.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        !stderr(&output).contains("warning"),
        "the default lints raise nothing: {}",
        stderr(&output)
    );
    for cluster in ["prod-eu-1", "prod-eu-2", "staging"] {
        let copy = out.join(cluster).join("shop").join("secret_db.yaml");
        let decrypted = succeeded(
            &run("sops", &["-d", copy.to_str().unwrap()], &gnupg),
            &format!("sops -d of {cluster}'s copy"),
        );
        // sops keeps comments, so fedrender's header line comes through; the rest is equal.
        let header = fedrender_engine::manifest::HEADER;
        assert_eq!(
            decrypted.strip_prefix(header),
            Some(expected.as_str()),
            "{cluster}"
        );
    }

    // An override that changes an encrypted value: sops itself fails on such a copy, and
    // fedrender refuses to write one, naming the rule.
    let username = encrypted_value(&encrypted, "username");
    let tampered = dir.join("tampered.yaml");
    let password = encrypted_value(&encrypted, "password");
    std::fs::write(&tampered, secret.replace(&password, &username)).unwrap();
    let broken = run("sops", &["-d", tampered.to_str().unwrap()], &gnupg);
    assert!(
        !broken.status.success(),
        "sops decrypts a copy whose encrypted values were changed"
    );
    std::fs::write(
        input.join("swap.yaml"),
        SWAPPING_OVERRIDE.replace("USERNAME", &username),
    )
    .unwrap();
    let refused = fedrender(&[
        "build",
        input.to_str().unwrap(),
        "--clusters",
        inventory.to_str().unwrap(),
        "-o",
        dir.join("refused").to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let message = stderr(&refused);
    assert!(
        message.contains("sops-modified: OverridePolicy shop/swap spec.overrideRules[0] would change data.password of Secret shop/db")
            && message.contains("on cluster prod-eu-2"),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `plan` opens with the secrets, how each is protected and the clusters it reaches, from the
/// plaintext-secret fixture: a SOPS Secret, one in the clear, a SealedSecret and an
/// ExternalSecret on all three clusters; the token Secret (no values) and the unplaced one are
/// not listed.
#[test]
fn plan_says_which_secrets_reach_which_clusters_and_how_each_is_protected() {
    let output = fedrender(&[
        "plan",
        "testdata/lint-plaintext-secret/input",
        "--clusters",
        "testdata/lint-plaintext-secret/clusters.yaml",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    let section: Vec<&str> = text
        .lines()
        .skip_while(|line| !line.starts_with("secrets "))
        .take_while(|line| !line.is_empty())
        .collect();
    let all = "prod-eu-1, prod-eu-2, staging";
    assert_eq!(
        section,
        [
            "secrets (how each is protected, and where it goes):".to_string(),
            format!("  Secret shop/db: SOPS-encrypted -> {all}"),
            format!("  Secret shop/smtp: in the clear (plaintext-secret) -> {all}"),
            format!("  SealedSecret.bitnami.com shop/registry: SealedSecret, strict scope -> {all}"),
            format!(
                "  ExternalSecret.external-secrets.io shop/stripe: external secret store reference -> {all}"
            ),
        ]
    );
    assert!(text.contains("Secret shop/smtp (testdata/lint-plaintext-secret/input/secrets.yaml:7)\n  policy ClusterPropagationPolicy shop (priority 0, matched by name): won\n  placed by ClusterPropagationPolicy shop\n  secret: in the clear (plaintext-secret)\n"), "{text}");
    assert!(!text.contains("hunter2"), "a value is shown: {text}");

    let json = fedrender(&[
        "plan",
        "testdata/lint-plaintext-secret/input",
        "--clusters",
        "testdata/lint-plaintext-secret/clusters.yaml",
        "--format",
        "json",
    ]);
    assert!(json.status.success(), "{}", stderr(&json));
    let entries: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let secret_of = |name: &str| {
        entries
            .as_array()
            .unwrap()
            .iter()
            .find(|entry| entry["name"] == name)
            .map(|entry| entry["secret"].clone())
    };
    assert_eq!(secret_of("db"), Some(serde_json::json!("SOPS-encrypted")));
    assert_eq!(secret_of("robot-token"), Some(serde_json::Value::Null));
}
