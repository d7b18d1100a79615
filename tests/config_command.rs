//! `fedrender config`: the settings a run takes, as JSON, read by the reader every command uses
//! (so that CI scripts never read a Config with text tools), its paths confined as theirs are.

use std::path::Path;

use crate::common;
use common::{empty_scratch, fedrender_in};

/// A repository with `fleet/fedrender.yaml` holding `config`.
fn repository(name: &str, config: &str) -> std::path::PathBuf {
    let dir = empty_scratch(&format!("config-command-{name}"));
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    std::fs::create_dir_all(dir.join("fleet")).unwrap();
    std::fs::write(dir.join("fleet/fedrender.yaml"), config).unwrap();
    dir
}

fn json(dir: &Path, args: &[&str]) -> serde_json::Value {
    let output = fedrender_in(dir, args);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

const TEAM_CONFIG: &str = "apiVersion: fedrender.io/v1alpha1
kind: Config
metadata: {name: team}
spec:
  clusters: ../inventory/members.yaml
  output: ../deploy
  lints:
    schema-invalid: allow
  diff:
    ignoreResources: [\":ConfigMap:*/generated-*\"]
";

#[test]
fn config_prints_the_settings_the_config_and_the_flags_resolve_to() {
    let dir = repository("settings", TEAM_CONFIG);
    let settings = json(&dir, &["config", "fleet"]);
    let keys: Vec<&String> = settings.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "schemaVersion",
            "fleet",
            "config",
            "clusters",
            "output",
            "lints",
            "diffIgnores",
            "argocd"
        ]
    );
    assert_eq!(settings["schemaVersion"], 2);
    assert_eq!(settings["argocd"], serde_json::Value::Null);
    assert_eq!(settings["config"]["at"], "fleet/fedrender.yaml:1");
    assert_eq!(settings["config"]["name"], "team");
    assert_eq!(settings["clusters"]["path"], "inventory/members.yaml");
    assert_eq!(settings["clusters"]["from"], "config");
    assert_eq!(settings["output"]["path"], "deploy");
    let level = |settings: &serde_json::Value, name: &str| {
        settings["lints"]["levels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|lint| lint["name"] == name)
            .cloned()
            .unwrap()
    };
    let schema = level(&settings, "schema-invalid");
    assert_eq!(
        (&schema["level"], &schema["from"]),
        (&"allow".into(), &"config".into())
    );
    let unknown = level(&settings, "unknown-cluster");
    assert_eq!(unknown["from"], "default");
    assert_eq!(
        settings["diffIgnores"][0]["rule"],
        ":ConfigMap:*/generated-*"
    );
    assert_eq!(settings["diffIgnores"][0]["field"], "ignoreResources");
    assert_eq!(settings["diffIgnores"][0]["at"], "fleet/fedrender.yaml:10");

    // The command line wins over the Config; --strict denies what nothing names.
    let flagged = json(
        &dir,
        &[
            "config",
            "fleet",
            "--clusters",
            "other.yaml",
            "--strict",
            "--deny",
            "schema-invalid",
            "--ignore-field",
            "/spec/replicas",
        ],
    );
    assert_eq!(flagged["clusters"]["path"], "other.yaml");
    assert_eq!(flagged["clusters"]["from"], "commandLine");
    let schema = level(&flagged, "schema-invalid");
    assert_eq!(
        (&schema["level"], &schema["from"]),
        (&"deny".into(), &"commandLine".into())
    );
    let unknown = level(&flagged, "unknown-cluster");
    assert_eq!(
        (&unknown["level"], &unknown["from"]),
        (&"deny".into(), &"strict".into())
    );
    assert_eq!(flagged["diffIgnores"][1]["rule"], "/spec/replicas");
    assert_eq!(flagged["diffIgnores"][1]["from"], "commandLine");
    assert_eq!(flagged["diffIgnores"][1]["at"], serde_json::Value::Null);

    // Without a Config: every setting null, every lint at its default.
    std::fs::remove_file(dir.join("fleet/fedrender.yaml")).unwrap();
    let bare = json(&dir, &["config", "fleet"]);
    assert_eq!(bare["config"], serde_json::Value::Null);
    assert_eq!(bare["clusters"], serde_json::Value::Null);
    assert_eq!(bare["diffIgnores"], serde_json::json!([]));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A YAML document end (`...`) ends the Config: what follows is another document, whose `spec`
/// is not the Config's (a line-by-line reader took it for the Config's own).
#[test]
fn config_reads_a_document_end_as_yaml_does() {
    let dir = repository(
        "document-end",
        "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  clusters: ../clusters.yaml\n...\napiVersion: example.com/v1\nkind: Note\nmetadata: {name: n}\nspec:\n  clusters: /etc/passwd\n",
    );
    let settings = json(&dir, &["config", "fleet"]);
    assert_eq!(settings["clusters"]["path"], "clusters.yaml");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn config_prints_an_argo_cd_fleets_checkouts_as_every_command_reads_them() {
    let dir = repository(
        "argocd",
        "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  argocd:\n    newGitFileGlobbing: true\n    repositories:\n    - url: https://github.com/example/apps.git\n      path: ./repo/../apps\n",
    );
    std::fs::create_dir_all(dir.join("fleet/apps")).unwrap();
    let settings = json(&dir, &["config", "fleet"]);
    assert_eq!(
        settings["argocd"],
        serde_json::json!({
            "repositories": [{
                "url": "https://github.com/example/apps.git",
                "path": "fleet/apps",
                "at": "fleet/fedrender.yaml:7",
            }],
            "newGitFileGlobbing": true,
        })
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A Config fedrender refuses is reported as every fleet error is: file and line, exit 2,
/// nothing on standard output; a path leading out of the repository is refused unread.
#[test]
fn a_refused_config_is_an_error_at_its_line() {
    let dir = repository(
        "refused",
        "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  clusters: /etc/passwd\n",
    );
    let refused = fedrender_in(&dir, &["config", "fleet", "--message-format", "github"]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(refused.stdout.is_empty());
    let stderr = common::stderr(&refused);
    assert!(
        stderr.starts_with("::error file=fleet/fedrender.yaml,line=4,"),
        "{stderr}"
    );
    assert!(stderr.contains("is absolute"), "{stderr}");
    assert!(
        !stderr.contains("root:"),
        "nothing of the file is read: {stderr}"
    );

    std::fs::write(
        dir.join("fleet/fedrender.yaml"),
        "apiVersion: fedrender.io/v1alpha1\nkind: Config\nspec:\n  clusters: ../../outside.yaml\n  colour: blue\n",
    )
    .unwrap();
    let refused = fedrender_in(&dir, &["config", "fleet"]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let stderr = common::stderr(&refused);
    assert!(stderr.contains("fleet/fedrender.yaml:5"), "{stderr}");
    assert!(stderr.contains("colour"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
