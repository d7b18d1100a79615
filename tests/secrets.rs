//! SOPS documents through a real render, checked with the real tools: a PGP key made with
//! GnuPG for the test run alone, a Secret encrypted with sops (Python's, from PyPI), the fleet
//! rendered, and every cluster's copy decrypted by sops again. Nothing secret is committed:
//! the key lives in the run's scratch directory.

use crate::common;

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

/// `fedrender build INPUT --clusters INVENTORY -o OUT` with `flags`.
fn build_into(input: &Path, inventory: &Path, out: &Path, flags: &[&str]) -> Output {
    let mut args = vec![
        "build",
        input.to_str().unwrap(),
        "--clusters",
        inventory.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(flags);
    fedrender(&args)
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
    let (gnupg, fingerprint) = gnupg_home(&dir, "gnupg");

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
    let output = build_into(&input, &inventory, &out, &[]);
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
    let refused = build_into(&input, &inventory, &dir.join("refused"), &[]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let message = stderr(&refused);
    assert!(
        message.contains("sops-modified: OverridePolicy shop/swap spec.overrideRules[0] would change data.password of Secret shop/db")
            && message.contains("on cluster prod-eu-2"),
        "{message}"
    );

    // The same data in a Secret that names no namespace: placing it would write `namespace:
    // default` into it. Go's sops (Flux's) authenticates every value unless the metadata says
    // mac_only_encrypted, so it fails on such a copy; this Python sops authenticates only the
    // ENC[...] values and cannot show it, but fedrender never changes an encrypted document
    // either way: it refuses the document at its line, writes nothing, and says how to fix it.
    let without = dir.join("without-namespace");
    std::fs::create_dir_all(&without).unwrap();
    let unnamespaced =
        format!("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\n{encrypted}");
    std::fs::write(without.join("db.yaml"), &unnamespaced).unwrap();
    std::fs::write(
        without.join("policies.yaml"),
        "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\n\
         metadata: {name: db}\nspec:\n  resourceSelectors:\n  \
         - {apiVersion: v1, kind: Secret, name: db}\n  placement:\n    clusterAffinity:\n      \
         clusterNames: [prod-eu-1]\n",
    )
    .unwrap();
    let out = dir.join("refused-namespace");
    let refused = build_into(&without, &inventory, &out, &[]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(!out.exists(), "nothing is written");
    let message = stderr(&refused);
    assert!(
        message.contains("db.yaml:3: Secret db is SOPS-encrypted and names no metadata.namespace")
            && message.contains("Write metadata.namespace into the file before encrypting it"),
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
            format!(
                "  SealedSecret.bitnami.com shop/registry: SealedSecret, strict scope -> {all}"
            ),
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

/// A GnuPG home of its own with one key made for the test run; the fingerprint sops records
/// for it (the encryption subkey's, the last `fpr` line).
fn gnupg_home(dir: &Path, name: &str) -> (std::path::PathBuf, String) {
    let home = dir.join(name);
    std::fs::create_dir_all(&home).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let user = format!("fedrender {name} <{name}@fedrender.invalid>");
    succeeded(
        &run(
            "gpg",
            &[
                "--batch",
                "--passphrase",
                "",
                "--quick-gen-key",
                &user,
                "future-default",
                "default",
                "never",
            ],
            &home,
        ),
        "gpg --quick-gen-key",
    );
    let keys = succeeded(
        &run("gpg", &["--list-keys", "--with-colons"], &home),
        "gpg --list-keys",
    );
    let fingerprint = keys
        .lines()
        .filter(|line| line.starts_with("fpr:"))
        .filter_map(|line| line.split(':').nth(9))
        .next_back()
        .unwrap()
        .to_string();
    (home, fingerprint)
}

/// Two clusters, each with its own GnuPG key (prod-eu-1's written as its 16-digit key ID, the
/// form `gpg --list-keys --keyid-format long` shows): a Secret encrypted by sops to prod-eu-1's
/// key alone is refused as sops-no-recipient naming prod-eu-2 only, and sops itself confirms
/// it: prod-eu-1's copy decrypts with its key, prod-eu-2's does not. Encrypted to both keys,
/// the fleet builds without a word and each cluster's key decrypts its own copy.
#[test]
fn each_clusters_own_pgp_key_decrypts_its_copy_and_a_cluster_left_out_is_named() {
    if !tools::require(&["gpg", "sops"]) {
        return;
    }
    let dir = empty_scratch("sops-recipients-real");
    let (first, first_key) = gnupg_home(&dir, "prod-eu-1");
    let (second, second_key) = gnupg_home(&dir, "prod-eu-2");
    // The key that encrypts holds both public keys, trusted as a .sops.yaml's keys are.
    let public = run("gpg", &["--export", "--armor"], &second);
    let exported = dir.join("prod-eu-2.asc");
    std::fs::write(&exported, &public.stdout).unwrap();
    succeeded(
        &run(
            "gpg",
            &["--batch", "--import", exported.to_str().unwrap()],
            &first,
        ),
        "gpg --import",
    );
    std::fs::write(first.join("gpg.conf"), "trust-model always\n").unwrap();

    let inventory = dir.join("clusters.yaml");
    std::fs::write(
        &inventory,
        format!(
            "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: prod-eu-1\n  \
             annotations: {{fedrender.io/sops-recipients: \"{}\"}}\n---\n\
             apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: prod-eu-2\n  \
             annotations: {{fedrender.io/sops-recipients: \"{second_key}\"}}\n",
            &first_key[first_key.len() - 16..]
        ),
    )
    .unwrap();
    let plain = dir.join("data.yaml");
    std::fs::write(&plain, "data:\n  password: aHVudGVyMg==\n").unwrap();
    let input = dir.join("input");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(
        input.join("policies.yaml"),
        POLICIES.replace("prod-eu-1, prod-eu-2, staging", "prod-eu-1, prod-eu-2"),
    )
    .unwrap();
    let encrypt_to = |keys: &str| {
        let encrypted = succeeded(
            &run("sops", &["-e", "-p", keys, plain.to_str().unwrap()], &first),
            "sops -e",
        );
        std::fs::write(
            input.join("db.yaml"),
            format!(
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\n{encrypted}"
            ),
        )
        .unwrap();
    };
    let build = |out: &str, extra: &[&str]| {
        let out = dir.join(out);
        let mut args = vec![
            "build",
            input.to_str().unwrap(),
            "--clusters",
            inventory.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        (fedrender(&args), out)
    };
    let decrypts = |out: &Path, cluster: &str, home: &Path| {
        let copy = out.join(cluster).join("shop").join("secret_db.yaml");
        run("sops", &["-d", copy.to_str().unwrap()], home)
            .status
            .success()
    };

    encrypt_to(&first_key);
    let (refused, _) = build("refused", &[]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let message = stderr(&refused);
    assert!(
        message.contains(&format!(
            "Secret shop/db reaches prod-eu-2, whose key {second_key} is not a recipient of"
        )) && message.contains("[sops-no-recipient]")
            && !message.contains("reaches prod-eu-1"),
        "{message}"
    );
    let (built, out) = build("one-key", &["--warn", "sops-no-recipient"]);
    assert!(built.status.success(), "{}", stderr(&built));
    assert!(decrypts(&out, "prod-eu-1", &first), "prod-eu-1's own key");
    assert!(
        !decrypts(&out, "prod-eu-2", &second),
        "sops decrypts with a key that is no recipient: the lint would be wrong"
    );

    encrypt_to(&format!("{first_key},{second_key}"));
    let (built, out) = build("both-keys", &[]);
    assert!(built.status.success(), "{}", stderr(&built));
    assert!(!stderr(&built).contains("warning"), "{}", stderr(&built));
    assert!(decrypts(&out, "prod-eu-1", &first), "prod-eu-1's own key");
    assert!(decrypts(&out, "prod-eu-2", &second), "prod-eu-2's own key");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `program` with `args`, without a GnuPG home.
fn run_plain(program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|error| panic!("{program} runs: {error}"))
}

/// The armored age file in a SOPS document's `sops.age[].enc` (the data key, encrypted to one
/// recipient), as a rendered copy carries it.
fn age_stanza(copy: &str) -> String {
    let lines: Vec<&str> = copy
        .lines()
        .map(str::trim)
        .skip_while(|line| *line != "-----BEGIN AGE ENCRYPTED FILE-----")
        .collect();
    let end = lines
        .iter()
        .position(|line| *line == "-----END AGE ENCRYPTED FILE-----")
        .unwrap();
    lines[..=end].join("\n") + "\n"
}

/// age, two clusters with a key each. Python's sops (1.18) predates age, so the SOPS document
/// is assembled here as Go sops writes one for age (`sops.age[].recipient` and `enc`, with
/// `encrypted_regex` and `mac_only_encrypted`): its data key is really encrypted by `age` to
/// prod-eu-1's recipient; the ENC[...] values and the MAC are made up, since no tool here
/// writes them for age. fedrender names prod-eu-2 alone, and age confirms it on the rendered
/// copies: prod-eu-1's identity opens its copy's data key, prod-eu-2's cannot open its own.
#[test]
fn an_age_recipient_missing_for_one_cluster_is_named_and_age_agrees() {
    if !tools::require(&["age", "age-keygen"]) {
        return;
    }
    let dir = empty_scratch("age-recipients-real");
    let mut recipients = Vec::new();
    for cluster in ["prod-eu-1", "prod-eu-2"] {
        let identity = dir.join(format!("{cluster}.key"));
        succeeded(
            &run_plain("age-keygen", &["-o", identity.to_str().unwrap()]),
            "age-keygen",
        );
        let public = succeeded(
            &run_plain("age-keygen", &["-y", identity.to_str().unwrap()]),
            "age-keygen -y",
        );
        recipients.push(public.trim().to_string());
    }
    let data_key = dir.join("data-key");
    std::fs::write(&data_key, [7u8; 32]).unwrap();
    let stanza = succeeded(
        &run_plain(
            "age",
            &["-a", "-r", &recipients[0], data_key.to_str().unwrap()],
        ),
        "age -r",
    );
    let enc: String = stanza
        .lines()
        .map(|line| format!("      {line}\n"))
        .collect();
    let input = dir.join("input");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(
        input.join("policies.yaml"),
        POLICIES.replace("prod-eu-1, prod-eu-2, staging", "prod-eu-1, prod-eu-2"),
    )
    .unwrap();
    std::fs::write(
        input.join("db.yaml"),
        format!(
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\ndata:\n  \
             password: ENC[AES256_GCM,data:bWFkZSB1cA==,iv:aXY=,tag:dGFn,type:str]\nsops:\n  \
             age:\n  - recipient: {}\n    enc: |\n{enc}  lastmodified: \"2026-11-27T23:00:00Z\"\n  \
             mac: ENC[AES256_GCM,data:bWFj,iv:aXY=,tag:dGFn,type:str]\n  \
             encrypted_regex: ^(data|stringData)$\n  mac_only_encrypted: true\n  version: 3.9.0\n",
            recipients[0]
        ),
    )
    .unwrap();
    let inventory = dir.join("clusters.yaml");
    std::fs::write(
        &inventory,
        format!(
            "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: prod-eu-1\n  \
             annotations: {{fedrender.io/sops-recipients: \"{}\"}}\n---\n\
             apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: prod-eu-2\n  \
             annotations: {{fedrender.io/sops-recipients: \"{}\"}}\n",
            recipients[0], recipients[1]
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let output = build_into(&input, &inventory, &out, &["--warn", "sops-no-recipient"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(
        message.contains(&format!(
            "Secret shop/db reaches prod-eu-2, whose key {} is not a recipient of",
            recipients[1]
        )) && !message.contains("reaches prod-eu-1"),
        "{message}"
    );
    for (cluster, opens) in [("prod-eu-1", true), ("prod-eu-2", false)] {
        let copy =
            std::fs::read_to_string(out.join(cluster).join("shop").join("secret_db.yaml")).unwrap();
        let stanza_file = dir.join(format!("{cluster}.age"));
        std::fs::write(&stanza_file, age_stanza(&copy)).unwrap();
        let identity = dir.join(format!("{cluster}.key"));
        let opened = run_plain(
            "age",
            &[
                "-d",
                "-i",
                identity.to_str().unwrap(),
                stanza_file.to_str().unwrap(),
            ],
        );
        assert_eq!(opened.status.success(), opens, "{cluster}: {:?}", opened);
        if opens {
            assert_eq!(opened.stdout, [7u8; 32], "{cluster}'s data key");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The secrets section of `plan`'s text for a fixture.
fn plan_secrets(fixture: &str) -> Vec<String> {
    let output = fedrender(&[
        "plan",
        &format!("testdata/{fixture}/input"),
        "--clusters",
        &format!("testdata/{fixture}/clusters.yaml"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .skip_while(|line| !line.starts_with("secrets "))
        .skip(1)
        .take_while(|line| !line.is_empty())
        .map(str::to_string)
        .collect()
}

/// `plan` says each SealedSecret's scope and the certificate group of each cluster it reaches
/// (the lint-sealed-secret-shared fixture: prod-eu-1 and prod-eu-2 share one, staging has its
/// own, dev states none), and which key opens each SOPS document on each cluster
/// (sops-recipients: the PGP key as each cluster wrote it, the age key; dev states none).
#[test]
fn plan_says_each_clusters_certificate_group_and_sops_key() {
    assert_eq!(
        plan_secrets("lint-sealed-secret-shared"),
        [
            "  SealedSecret.bitnami.com shop/db: SealedSecret, strict scope -> dev (no certificate stated); prod-eu-1, prod-eu-2 (certificate abcdef0123456789…)",
            "  SealedSecret.bitnami.com shop/registry: SealedSecret, strict scope -> dev (no certificate stated); prod-eu-1, prod-eu-2 (certificate abcdef0123456789…); staging (certificate 9b1c2d3e4f506172…)",
        ]
    );
    let age = "age1sv6l9rn32ztqv5tf9vxanx79h4h0qsr57v4gq9eg8pq0np4u0vjqlkkjx9";
    assert_eq!(
        plan_secrets("sops-recipients"),
        [
            format!(
                "  Secret shop/api-token: SOPS-encrypted (MAC over encrypted values only) -> dev (no SOPS key stated); prod-eu-1, prod-eu-2 (decrypts with {age})"
            ),
            "  Secret shop/db: SOPS-encrypted -> dev (no SOPS key stated); prod-eu-1 (decrypts with 4D87 79A3 D07B C980 4DDC  D3C9 7BF9 A2A8 0750 8A41); prod-eu-2 (decrypts with 0x7BF9A2A807508A41)".to_string(),
        ]
    );
    let json = fedrender(&[
        "plan",
        "testdata/lint-sealed-secret-shared/input",
        "--clusters",
        "testdata/lint-sealed-secret-shared/clusters.yaml",
        "--format",
        "json",
        "--cluster",
        "staging",
    ]);
    assert!(json.status.success(), "{}", stderr(&json));
    let entries: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let registry = entries
        .as_array()
        .unwrap()
        .iter()
        .find(|entry| entry["name"] == "registry")
        .unwrap();
    assert_eq!(
        registry["secretKeys"],
        serde_json::json!({"staging": "certificate 9b1c2d3e4f506172…"}),
        "--cluster shows only that cluster's key"
    );
}

/// A sealing certificate that is no fingerprint is an error at its line, on a Cluster's
/// annotation as in a Config (exit 2, nothing written).
#[test]
fn a_certificate_that_is_no_fingerprint_is_refused_at_its_line() {
    let dir = empty_scratch("certificate-not-a-fingerprint");
    let input = dir.join("input");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(
        input.join("config.yaml"),
        "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  secrets:\n    sealedSecrets:\n    \
         - clusterSelector: {matchLabels: {env: prod}}\n      certificate: \"ab:cd\"\n",
    )
    .unwrap();
    std::fs::write(
        input.join("ns.yaml"),
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n",
    )
    .unwrap();
    let inventory = dir.join("clusters.yaml");
    std::fs::write(
        &inventory,
        "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: prod\n  \
         annotations:\n    fedrender.io/sealed-secrets-certificate: nope\n",
    )
    .unwrap();
    let output = build_into(&input, &inventory, &dir.join("out"), &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(
        message.contains("config.yaml:7: Config: spec.secrets.sealedSecrets[0].certificate: \"ab:cd\" is not a certificate fingerprint")
            && message.contains("clusters.yaml:6: Cluster prod: annotation fedrender.io/sealed-secrets-certificate: \"nope\" is not a certificate fingerprint"),
        "{message}"
    );
    assert!(!dir.join("out").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
