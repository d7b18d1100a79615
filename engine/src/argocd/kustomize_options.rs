//! An Application's `kustomize` options applied to its source's kustomization as Argo CD's
//! repo server applies them (util/kustomize `Build`): it runs `kustomize edit` in the source's
//! directory, one command an option, in a fixed order, and then `kustomize build`. fedrender
//! makes the same edits to the kustomization here, as kustomize's edit commands make them
//! (kustomize/commands/edit), and the shell builds the edited kustomization in a copy of the
//! checkout: the fleet's files are never written.

use serde_json::{Map, Value, json};

use super::api::application::ApplicationSourceKustomize;
use super::build_env::BuildEnv;
use super::directory::{KUSTOMIZATION_FILES, join};
use super::repositories::Repository;
use crate::object::json_type_name;

/// A source's kustomization with the Application's options applied.
#[derive(Debug, Clone, PartialEq)]
pub struct EditedKustomization {
    /// The kustomization file, by its path in the repository (`apps/web/kustomization.yaml`).
    pub file: String,
    /// Its edited text (JSON, which kustomize reads as YAML).
    pub text: String,
    /// The options applied, in Argo CD's order, as `plan` names them.
    pub applied: Vec<&'static str>,
}

/// A refusal: the option's field under `spec.source.kustomize`, and why.
pub type EditProblem = (&'static str, String);

/// The kustomization at `dir` (a clean path in `repository`, `""` for its root) with
/// `options` applied, in the order Argo CD runs them: namePrefix, nameSuffix, images,
/// replicas, commonLabels, commonAnnotations, namespace, patches, components. `None` when no
/// option is set. What `kustomize edit` would refuse is refused with kustomize's reason.
pub fn edit(
    repository: &Repository,
    dir: &str,
    options: &ApplicationSourceKustomize,
    env: &BuildEnv,
) -> Result<Option<EditedKustomization>, EditProblem> {
    if *options == ApplicationSourceKustomize::default() {
        return Ok(None);
    }
    let mut applied = Vec::new();
    let at = |name: &str| join(dir, name);
    let found: Vec<&str> = KUSTOMIZATION_FILES
        .iter()
        .copied()
        .filter(|name| repository.file(&at(name)).is_some())
        .collect();
    let file = match found.as_slice() {
        [file] => at(file),
        [] => {
            return Err((
                "",
                format!(
                    "the Application's kustomize options edit {}, and there is none in {} \
                     (kustomize edit: Missing kustomization file 'kustomization.yaml')",
                    at("kustomization.yaml"),
                    repository.url
                ),
            ));
        }
        _ => {
            return Err((
                "",
                format!(
                    "{} holds more than one kustomization file ({}); kustomize edit refuses it",
                    if dir.is_empty() { "." } else { dir },
                    found.join(", ")
                ),
            ));
        }
    };
    let text = String::from_utf8_lossy(repository.file(&file).unwrap_or_default());
    let mut kustomization = read_kustomization(&text).map_err(|problem| ("", problem))?;
    let subst = |field: &'static str, text: &str| env.envsubst(text).map_err(|e| (field, e));

    if !options.name_prefix.is_empty() {
        kustomization.insert("namePrefix".into(), json!(options.name_prefix));
        applied.push("namePrefix");
    }
    if !options.name_suffix.is_empty() {
        kustomization.insert("nameSuffix".into(), json!(options.name_suffix));
        applied.push("nameSuffix");
    }
    if !options.images.is_empty() {
        let mut images = Vec::new();
        for image in &options.images {
            images.push(parse_image(&subst("images", image)?).map_err(|e| ("images", e))?);
        }
        set_images(&mut kustomization, images);
        applied.push("images");
    }
    if !options.replicas.is_empty() {
        let mut replicas = Vec::new();
        for replica in &options.replicas {
            let count = replica_count(&replica.count).map_err(|e| ("replicas", e))?;
            if replica.name.contains('=') {
                return Err((
                    "replicas",
                    format!(
                        "{}={count}: invalid format of replicas, use the NAME=COUNT format \
                         (kustomize edit set replicas)",
                        replica.name
                    ),
                ));
            }
            replicas.push((replica.name.clone(), count));
        }
        set_replicas(&mut kustomization, replicas);
        applied.push("replicas");
    }
    if !options.common_labels.is_empty() {
        let mut labels = Vec::new();
        for (name, value) in &options.common_labels {
            labels.push((name.clone(), subst("commonLabels", value)?));
        }
        let labels = metadata_pairs(&labels, "label").map_err(|e| ("commonLabels", e))?;
        let force = options.force_common_labels;
        match options.label_without_selector {
            true => add_labels_without_selector(
                &mut kustomization,
                &labels,
                options.label_include_templates,
                force,
            ),
            false if options.label_include_templates => Err(
                "--without-selector flag must be specified for --include-templates to work \
                 (labelIncludeTemplates needs labelWithoutSelector)"
                    .to_string(),
            ),
            false => add_to_map(&mut kustomization, "commonLabels", &labels, "label", force),
        }
        .map_err(|e| ("commonLabels", e))?;
        applied.push("commonLabels");
    }
    if !options.common_annotations.is_empty() {
        let mut annotations = Vec::new();
        for (name, value) in &options.common_annotations {
            let value = match options.common_annotations_envsubst {
                true => subst("commonAnnotations", value)?,
                false => value.clone(),
            };
            annotations.push((name.clone(), value));
        }
        let annotations =
            metadata_pairs(&annotations, "annotation").map_err(|e| ("commonAnnotations", e))?;
        add_to_map(
            &mut kustomization,
            "commonAnnotations",
            &annotations,
            "annotation",
            options.force_common_annotations,
        )
        .map_err(|e| ("commonAnnotations", e))?;
        applied.push("commonAnnotations");
    }
    if !options.namespace.is_empty() {
        if let Some(problem) = dns_label_problem(&options.namespace) {
            return Err((
                "namespace",
                format!(
                    "{:?} is not a valid namespace name: {problem} (kustomize edit set namespace)",
                    options.namespace
                ),
            ));
        }
        kustomization.insert("namespace".into(), json!(options.namespace));
        applied.push("namespace");
    }
    if !options.patches.is_empty() {
        let appended: Vec<Value> = options
            .patches
            .iter()
            .map(|patch| serde_json::to_value(patch).unwrap_or(Value::Null))
            .collect();
        match kustomization.get_mut("patches") {
            Some(Value::Array(patches)) => patches.extend(appended),
            Some(other) => {
                return Err((
                    "patches",
                    format!(
                        "the kustomization's patches field is {}, not a list, so the \
                         Application's patches cannot be appended to it",
                        json_type_name(other)
                    ),
                ));
            }
            None => {
                kustomization.insert("patches".into(), Value::Array(appended));
            }
        }
        applied.push("patches");
    }
    if !options.components.is_empty() {
        add_components(
            &mut kustomization,
            repository,
            dir,
            &options.components,
            options.ignore_missing_components,
        )
        .map_err(|e| ("components", e))?;
        applied.push("components");
    }
    if applied.is_empty() {
        return Ok(None);
    }
    let text = serde_json::to_string_pretty(&Value::Object(kustomization))
        .expect("a JSON value always serialises");
    Ok(Some(EditedKustomization {
        file,
        text,
        applied,
    }))
}

/// The kustomization as a map: an empty file is an empty kustomization, as kustomize reads it.
fn read_kustomization(text: &str) -> Result<Map<String, Value>, String> {
    let documents = crate::yaml::split_documents(text);
    let value = match documents.first() {
        Some(document) => crate::yaml::parse_document_as_yaml_to_json(document, "")
            .map_err(|error| format!("the kustomization does not parse: {}", error.message))?,
        None => Value::Null,
    };
    match value {
        Value::Object(map) => Ok(map),
        Value::Null => Ok(Map::new()),
        other => Err(format!(
            "the kustomization is {}, not a mapping",
            json_type_name(&other)
        )),
    }
}

/// One `kustomize edit set image` argument: the image it names, and its new name, tag and
/// digest (`*` keeps the kustomization's).
#[derive(Debug, Clone, PartialEq)]
struct ImageArgument {
    name: String,
    new_name: String,
    new_tag: String,
    digest: String,
}

/// An argument as kustomize's `set image` parses it: `[NAME=]IMAGE[:TAG][@DIGEST]`, where an
/// argument naming only an image is refused.
fn parse_image(argument: &str) -> Result<ImageArgument, String> {
    let (key, value) = match argument.split_once('=') {
        Some((key, value)) => (Some(key), value),
        None => (None, argument),
    };
    let (name, tag, digest) = split_image_name(value);
    if name == argument {
        return Err(format!(
            "{argument:?}: invalid format of image, use one of NAME=NEWNAME:NEWTAG, \
             NAME=NEWNAME@DIGEST, NAME=NEWNAME:NEWTAG@DIGEST, NAME:NEWTAG, NAME@DIGEST \
             (kustomize edit set image)"
        ));
    }
    let (name, new_name) = match key {
        Some(key) => (key.to_string(), name.to_string()),
        None => (name.to_string(), String::new()),
    };
    Ok(ImageArgument {
        name,
        new_name,
        new_tag: tag.to_string(),
        digest: digest.to_string(),
    })
}

/// kustomize api/internal/image `Split`: the name, tag and digest of an image reference; the
/// `:` of a registry's port (before the first `/`) is not a tag's.
fn split_image_name(image: &str) -> (&str, &str, &str) {
    let offset = match image.find('/') {
        Some(slash) if slash > 0 => slash,
        _ => 0,
    };
    let search = &image[offset..];
    let at = search.find('@').map(|i| i + offset);
    let colon = search.find(':').map(|i| i + offset);
    match (colon, at) {
        (None, None) => (image, "", ""),
        (Some(colon), Some(at)) if colon < at => {
            (&image[..colon], &image[colon + 1..at], &image[at + 1..])
        }
        (_, Some(at)) => (&image[..at], "", &image[at + 1..]),
        (Some(colon), None) => (&image[..colon], &image[colon + 1..], ""),
    }
}

/// `kustomize edit set image`: each argument replaces the entry of its name (keeping a field
/// the argument gives as `*`), or is added; a `*` left with nothing to keep is empty.
fn set_images(kustomization: &mut Map<String, Value>, arguments: Vec<ImageArgument>) {
    let mut by_name: Vec<ImageArgument> = Vec::new();
    for argument in arguments {
        match by_name.iter_mut().find(|image| image.name == argument.name) {
            Some(image) => *image = argument,
            None => by_name.push(argument),
        }
    }
    let existing = match kustomization.get("images") {
        Some(Value::Array(images)) => images.clone(),
        _ => Vec::new(),
    };
    let field = |entry: &Value, name: &str| {
        entry
            .get(name)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let mut images: Vec<(String, Value)> = Vec::new();
    for entry in existing {
        let name = field(&entry, "name");
        let Some(argument) = by_name.iter_mut().find(|image| image.name == name) else {
            if !images.iter().any(|(seen, _)| *seen == name) {
                images.push((name, entry));
            }
            continue;
        };
        for (kept, value) in [
            ("newName", &mut argument.new_name),
            ("newTag", &mut argument.new_tag),
            ("digest", &mut argument.digest),
        ] {
            if *value == "*" {
                *value = field(&entry, kept);
            }
        }
    }
    for argument in by_name {
        let mut image = Map::new();
        image.insert("name".into(), json!(argument.name));
        for (field, value) in [
            ("newName", argument.new_name),
            ("newTag", argument.new_tag),
            ("digest", argument.digest),
        ] {
            if !value.is_empty() && value != "*" {
                image.insert(field.into(), json!(value));
            }
        }
        images.retain(|(name, _)| *name != argument.name);
        images.push((argument.name, Value::Object(image)));
    }
    images.sort_by(|a, b| a.0.cmp(&b.0));
    kustomization.insert(
        "images".into(),
        Value::Array(images.into_iter().map(|(_, image)| image).collect()),
    );
}

/// A replica count as Argo CD reads it (`KustomizeReplica.GetIntCount`): an integer, or a
/// string holding one.
fn replica_count(count: &Value) -> Result<i64, String> {
    match count {
        Value::Number(number) => number
            .as_i64()
            .ok_or_else(|| format!("expected integer value for count. Received: {number}")),
        Value::String(text) => text
            .parse()
            .map_err(|_| format!("expected integer value for count. Received: {text}")),
        other => Err(format!(
            "expected integer value for count. Received: {other}"
        )),
    }
}

/// `kustomize edit set replicas`: each replaces the entry of its name, or is added.
fn set_replicas(kustomization: &mut Map<String, Value>, replicas: Vec<(String, i64)>) {
    let mut entries: Vec<(String, Value)> = match kustomization.get("replicas") {
        Some(Value::Array(existing)) => existing
            .iter()
            .map(|entry| {
                let name = entry
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                (name.to_string(), entry.clone())
            })
            .collect(),
        _ => Vec::new(),
    };
    for (name, count) in replicas {
        entries.retain(|(existing, _)| *existing != name);
        entries.push((name.clone(), json!({"name": name, "count": count})));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    kustomization.insert(
        "replicas".into(),
        Value::Array(entries.into_iter().map(|(_, entry)| entry).collect()),
    );
}

/// The `NAME:VALUE` arguments Argo CD passes to `kustomize edit add label|annotation`, read back
/// as kustomize's `ConvertSliceToMap` reads them: split at the first `:`, a value's surrounding
/// double quotes dropped; an empty name is refused.
fn metadata_pairs(pairs: &[(String, String)], kind: &str) -> Result<Vec<(String, String)>, String> {
    let mut read: Vec<(String, String)> = Vec::new();
    for (name, value) in pairs {
        let argument = format!("{name}:{value}");
        let (name, value) = match argument.find(':') {
            Some(0) => {
                return Err(format!(
                    "invalid {kind}: '{argument}' (need k:v pair where v may be quoted)"
                ));
            }
            Some(colon) => (&argument[..colon], &argument[colon + 1..]),
            None => (argument.as_str(), ""),
        };
        let value = match value.len() >= 2 && value.starts_with('"') && value.ends_with('"') {
            true => &value[1..value.len() - 1],
            false => value,
        };
        read.retain(|(seen, _)| seen != name);
        read.push((name.to_string(), value.to_string()));
    }
    Ok(read)
}

/// Adds `pairs` to the map `field` (`commonLabels`, `commonAnnotations`); a name already there
/// is refused unless `force`, as kustomize's `--force` decides.
fn add_to_map(
    kustomization: &mut Map<String, Value>,
    field: &str,
    pairs: &[(String, String)],
    kind: &str,
    force: bool,
) -> Result<(), String> {
    let entry = kustomization
        .entry(field.to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    if !entry.is_object() {
        *entry = Value::Object(Map::new());
    }
    let map = entry.as_object_mut().expect("made a mapping above");
    write_pairs(map, pairs, kind, force)
}

fn write_pairs(
    map: &mut Map<String, Value>,
    pairs: &[(String, String)],
    kind: &str,
    force: bool,
) -> Result<(), String> {
    for (name, value) in pairs {
        if map.contains_key(name) && !force {
            return Err(format!(
                "{kind} {name} already in kustomization file. Use --force to override. \
                 (kustomize edit add {kind}; the Application's force option passes --force)"
            ));
        }
        map.insert(name.clone(), json!(value));
    }
    Ok(())
}

/// `kustomize edit add label --without-selector [--include-templates]`: the pairs go to the
/// first `labels` entry that leaves selectors alone and includes templates as asked, or to a
/// new one.
fn add_labels_without_selector(
    kustomization: &mut Map<String, Value>,
    pairs: &[(String, String)],
    include_templates: bool,
    force: bool,
) -> Result<(), String> {
    let labels = kustomization
        .entry("labels".to_string())
        .or_insert_with(|| Value::Array(Vec::new()));
    if !labels.is_array() {
        *labels = Value::Array(Vec::new());
    }
    let labels = labels.as_array_mut().expect("made a list above");
    let flag = |entry: &Value, name: &str| entry.get(name).and_then(Value::as_bool) == Some(true);
    let position = labels.iter().position(|entry| {
        !flag(entry, "includeSelectors") && flag(entry, "includeTemplates") == include_templates
    });
    let position = match position {
        Some(position) => position,
        None => {
            let mut entry = json!({"pairs": {}});
            if include_templates {
                entry["includeTemplates"] = json!(true);
            }
            labels.push(entry);
            labels.len() - 1
        }
    };
    let entry = &mut labels[position];
    if !entry.get("pairs").is_some_and(Value::is_object) {
        entry["pairs"] = json!({});
    }
    let pairs_map = entry["pairs"]
        .as_object_mut()
        .expect("made a mapping above");
    write_pairs(pairs_map, pairs, "label", force)
}

/// `kustomize edit add component`: each component directory, relative to the kustomization, is
/// appended unless listed; one that is not in the repository is refused, or left out with
/// `ignoreMissingComponents` as Argo CD leaves it out.
fn add_components(
    kustomization: &mut Map<String, Value>,
    repository: &Repository,
    dir: &str,
    components: &[String],
    ignore_missing: bool,
) -> Result<(), String> {
    let mut found = Vec::new();
    for component in components {
        if component.contains("://") || component.contains(['*', '?', '[']) {
            return Err(format!(
                "{component:?}: fedrender adds components that are directories of the \
                 repository, named without globs (it never fetches)"
            ));
        }
        let resolved = resolve_in_repository(dir, component);
        let exists = resolved
            .as_deref()
            .is_some_and(|path| path.is_empty() || repository.has_directory(path));
        match (exists, ignore_missing) {
            (true, _) => found.push(component.clone()),
            (false, true) => {}
            (false, false) => {
                return Err(format!(
                    "{component:?} is not a directory of {} (kustomize edit add component: has \
                     no match; ignoreMissingComponents leaves it out)",
                    repository.url
                ));
            }
        }
    }
    if found.is_empty() {
        return Ok(());
    }
    let listed = kustomization
        .entry("components".to_string())
        .or_insert_with(|| Value::Array(Vec::new()));
    if !listed.is_array() {
        *listed = Value::Array(Vec::new());
    }
    let listed = listed.as_array_mut().expect("made a list above");
    for component in found {
        if !listed.iter().any(|item| item.as_str() == Some(&component)) {
            listed.push(json!(component));
        }
    }
    Ok(())
}

/// `path` joined to `dir` and cleaned; `None` when it climbs out of the repository's root.
pub(crate) fn resolve_in_repository(dir: &str, path: &str) -> Option<String> {
    let mut pieces: Vec<&str> = match path.starts_with('/') {
        true => Vec::new(),
        false => dir.split('/').filter(|piece| !piece.is_empty()).collect(),
    };
    for piece in path.split('/') {
        match piece {
            "" | "." => {}
            ".." => {
                pieces.pop()?;
            }
            piece => pieces.push(piece),
        }
    }
    Some(pieces.join("/"))
}

/// Why `name` is not a DNS-1123 label (a namespace's name), if it is not one.
fn dns_label_problem(name: &str) -> Option<&'static str> {
    let bytes = name.as_bytes();
    if bytes.len() > 63 {
        return Some("must be no more than 63 characters");
    }
    let allowed = |byte: &u8| byte.is_ascii_lowercase() || byte.is_ascii_digit() || *byte == b'-';
    let edge =
        |byte: Option<&u8>| byte.is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if !bytes.iter().all(allowed) || !edge(bytes.first()) || !edge(bytes.last()) {
        return Some(
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \
             '-', and must start and end with an alphanumeric character",
        );
    }
    None
}

#[cfg(test)]
mod tests;
