//! `fedrender config FLEET_DIR`: the settings a run takes from the fleet's Config and the flags,
//! printed as JSON for CI scripts. A script that reads a Config with text tools reads what
//! fedrender does not (a YAML `...` document end, a flow mapping, an anchor); this reads it with
//! the very reader every command uses, its paths confined to the repository as theirs are.
//!
//! The shape is stable (docs/reference.md): `schemaVersion` first, keys in a fixed order, every
//! lint listed in the order `fedrender --help` lists them. A field is added only with a new
//! `schemaVersion`.

use std::path::{Path, PathBuf};

use super::options::{confined, lint_levels};
use super::terminal::{message_format, rejected, usage_error, write_stdout};
use crate::cli::ConfigArgs;
use crate::source::command_defaults::{CommandDefaults, command_defaults};
use fedrender_engine::lint::{Lint, LintLevels};

/// The version of the JSON shape below; raised whenever a field changes or is added.
pub const SCHEMA_VERSION: u32 = 2;

/// Reads the Config as every command does and prints what it and the flags resolve to.
pub fn run(args: &ConfigArgs) -> i32 {
    let format = message_format(&args.run);
    if let Err(message) = confined("FLEET_DIR", &args.input) {
        return usage_error(&message, format);
    }
    for (flag, path) in [("--clusters", &args.clusters), ("--out", &args.out)] {
        if let Some(path) = path
            && let Err(message) = confined(flag, path)
        {
            return usage_error(&message, format);
        }
    }
    let flags = match lint_levels(args.strict, &args.deny, &args.warn, &args.allow) {
        Ok(levels) => levels,
        Err(message) => return usage_error(&message, format),
    };
    let defaults = match command_defaults(&args.input) {
        Ok(defaults) => defaults,
        Err(refused) => return rejected(refused, &args.run, "nothing was printed"),
    };
    let settings = settings(args, &flags, &defaults);
    let mut json = serde_json::to_string_pretty(&settings).expect("plain data serialises");
    json.push('\n');
    write_stdout(&json, format)
}

/// The JSON: keys in this order (serde_json keeps insertion order here), `null` for a setting
/// nothing gives. docs/reference.md documents every field.
fn settings(
    args: &ConfigArgs,
    flags: &LintLevels,
    defaults: &CommandDefaults,
) -> serde_json::Value {
    use serde_json::{Value, json};
    // A path usable from the working directory (a Config's joined to FLEET_DIR, `.` and `..`
    // resolved) and who gave it: `commandLine` or `config`.
    let path = |flag: &Option<PathBuf>, config: &Option<PathBuf>| match (flag, config) {
        (Some(path), _) => json!({"path": shown(path), "from": "commandLine"}),
        (None, Some(path)) => json!({"path": shown(path), "from": "config"}),
        (None, None) => Value::Null,
    };
    let config_levels = &defaults.review.levels;
    let effective = flags.over(config_levels);
    let levels: Vec<Value> = Lint::ALL
        .iter()
        .map(|&lint| {
            let from = if flags.named.contains_key(&lint) {
                "commandLine"
            } else if config_levels.contains_key(&lint) {
                "config"
            } else if flags.strict {
                "strict"
            } else {
                "default"
            };
            json!({"name": lint.name(), "level": effective.level(lint).to_string(), "from": from})
        })
        .collect();
    // The Config's rules, then --ignore-field, then --ignore-resource: diff's order.
    let ignores: Vec<Value> = defaults
        .diff_ignores
        .iter()
        .map(|rule| (rule, "config", Some(rule.where_written())))
        .chain(
            args.ignore_field
                .iter()
                .chain(&args.ignore_resource)
                .map(|rule| (rule, "commandLine", None)),
        )
        .map(|(rule, from, at)| {
            json!({"rule": rule.written(), "field": rule.config_field(), "from": from, "at": at})
        })
        .collect();
    let config = match &defaults.review.config {
        Some((at, name)) => json!({"at": at, "name": name}),
        None => Value::Null,
    };
    // An Argo CD fleet's checkouts, each directory as every command reads it.
    let argocd = match defaults.argocd_set {
        true => json!({
            "repositories": defaults.argocd.repositories.iter().map(|checkout| json!({
                "url": checkout.url,
                "path": shown(&checkout.dir),
                "at": checkout.origin.to_string(),
            })).collect::<Vec<Value>>(),
            "newGitFileGlobbing": defaults.argocd.new_git_file_globbing,
        }),
        false => Value::Null,
    };
    json!({
        "schemaVersion": SCHEMA_VERSION,
        "fleet": shown(&args.input),
        "config": config,
        "clusters": path(&args.clusters, &defaults.clusters),
        "output": path(&args.out, &defaults.output),
        "lints": {"strict": flags.strict, "levels": levels},
        "diffIgnores": ignores,
        "argocd": argocd,
    })
}

fn shown(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}
