//! imageOverrider: rewrites the registry, repository or tag of container images
//! (karmada pkg/util/overridemanager/imageoverride.go, pkg/util/imageparser/parser.go).
//!
//! Karmada parses every selected image with `reference.Parse` of github.com/distribution/reference
//! (the strict parser, not the normalising one: no `docker.io/` or `library/` is ever added),
//! splits the name at the first `/` only when that part looks like a host, changes one
//! component and writes the image back with a JSON-patch `replace`. The grammar and the tag and
//! digest patterns are matched by hand below, so that no regex engine is needed; each function
//! names the pattern it stands for (vendor/github.com/distribution/reference/regexp.go and
//! pkg/util/imageparser/lifted.go).

use std::fmt;

use serde_json::Value;

use crate::api::karmada::{ImageComponent, ImageOverrider, OverriderOperator};
use crate::fields::Fields;
use crate::overrides::patch;

/// The longest repository path distribution accepts (`RepositoryNameTotalLengthMax`).
const REPOSITORY_NAME_MAX: usize = 255;

/// The longest tag: the tag pattern is `[\w][\w.-]{0,127}`.
const TAG_MAX: usize = 128;

/// The shortest hex part of a digest pattern: `[[:xdigit:]]{32,}`.
const DIGEST_HEX_MIN: usize = 32;

/// Applies one imageOverrider entry to `object`, whose `kind` selects the images when the entry
/// has no predicate.
///
/// Every selected image is parsed before anything is written, as Karmada builds all its patches
/// first; an invalid image anywhere fails the whole entry.
pub(crate) fn apply_image_overrider(
    object: &mut Value,
    kind: &str,
    overrider: &ImageOverrider,
) -> Result<(), String> {
    let images = match &overrider.predicate {
        Some(predicate) => {
            let image = image_at_predicate(object, &predicate.path)
                .map_err(|problem| format!("predicate path {:?}: {problem}", predicate.path))?;
            // imageoverride.go acquireOverrideOption: the walk above trims slashes, the patch
            // below does not, so a path without a leading `/` is refused only now.
            if !predicate.path.starts_with('/') {
                return Err(format!(
                    "predicate path {:?} must start with '/'",
                    predicate.path
                ));
            }
            vec![(predicate.path.clone(), image)]
        }
        None => container_images(object, kind)?,
    };
    let mut rewritten = Vec::with_capacity(images.len());
    for (path, image) in &images {
        let new_image = override_image(image, overrider).map_err(|problem| {
            format!("image {image:?} at {path} is not a valid image reference: {problem}")
        })?;
        rewritten.push(Value::String(new_image));
    }
    let operations: Vec<patch::Operation<'_>> = images
        .iter()
        .zip(&rewritten)
        .map(|((path, _), value)| patch::Operation {
            operator: OverriderOperator::Replace,
            path,
            value: Some(value),
        })
        .collect();
    patch::apply(object, &operations)
}

/// Parses `image`, changes the component the overrider names and re-assembles the reference
/// (imageoverride.go `overrideImage`). The value is used verbatim: Registry and Repository values
/// are not validated, and a Tag value that is neither a tag nor a digest changes nothing.
pub(crate) fn override_image(
    image: &str,
    overrider: &ImageOverrider,
) -> Result<String, InvalidImageReference> {
    let mut reference = ImageReference::parse(image)?;
    let value = overrider.value.as_str();
    match (overrider.component, overrider.operator) {
        (ImageComponent::Registry, OverriderOperator::Add) => reference.registry.push_str(value),
        (ImageComponent::Registry, OverriderOperator::Replace) => {
            reference.registry = value.to_string();
        }
        (ImageComponent::Registry, OverriderOperator::Remove) => reference.registry.clear(),
        (ImageComponent::Repository, OverriderOperator::Add) => {
            reference.repository.push_str(value);
        }
        (ImageComponent::Repository, OverriderOperator::Replace) => {
            reference.repository = value.to_string();
        }
        (ImageComponent::Repository, OverriderOperator::Remove) => reference.repository.clear(),
        (ImageComponent::Tag, OverriderOperator::Add) => {
            let combined = format!("{}{value}", reference.tag_or_digest());
            reference.set_tag_or_digest(&combined);
        }
        (ImageComponent::Tag, OverriderOperator::Replace) => reference.set_tag_or_digest(value),
        (ImageComponent::Tag, OverriderOperator::Remove) => reference.remove_tag_or_digest(),
    }
    Ok(reference.to_string())
}

/// Why an entry without predicate changes no image of `object`, if it changes none: its kind
/// is not one Karmada rewrites (`false`), or it has no containers (`true`). An object whose
/// pod spec has the wrong type is reported when the override runs.
pub(crate) fn why_no_image_changes(object: &Value, kind: &str) -> Option<(bool, String)> {
    match container_images(object, kind) {
        Ok(images) if !images.is_empty() => None,
        Err(_) => None,
        Ok(_) if WORKLOAD_KINDS.contains(&kind) => Some((true, "it has no containers".to_string())),
        Ok(_) => Some((
            false,
            format!(
                "without a predicate Karmada overrides the images of Pods, ReplicaSets, \
                 Deployments, DaemonSets, StatefulSets and Jobs only, not of a {kind}; give a \
                 predicate path to change another kind"
            ),
        )),
    }
}

/// The kinds whose containers an entry without predicate rewrites.
const WORKLOAD_KINDS: [&str; 6] = [
    "Pod",
    "ReplicaSet",
    "Deployment",
    "DaemonSet",
    "StatefulSet",
    "Job",
];

/// The images an entry without predicate rewrites: `containers` only, never `initContainers`
/// or `ephemeralContainers` (karmada issue #4283), and only for the kinds
/// imageoverride.go `buildPatchesWithEmptyPredicate` knows. Any other kind, CronJob included,
/// is left alone without error.
fn container_images(object: &Value, kind: &str) -> Result<Vec<(String, String)>, String> {
    let pod_spec_path: &[&str] = match kind {
        "Pod" => &["spec"],
        _ if WORKLOAD_KINDS.contains(&kind) => &["spec", "template", "spec"],
        _ => return Ok(Vec::new()),
    };
    // Karmada first converts the object to its typed kind; the parts read here must have the
    // types that conversion expects, and absent or null parts mean an empty pod spec.
    let mut node = object;
    let mut prefix = String::new();
    for key in pod_spec_path {
        prefix.push('/');
        prefix.push_str(key);
        match node.field(key) {
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(child @ Value::Object(_)) => node = child,
            Some(other) => return Err(not_typed(kind, &prefix, other, "an object")),
        }
    }
    let containers = match node.field("containers") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(containers)) => containers,
        Some(other) => {
            return Err(not_typed(
                kind,
                &format!("{prefix}/containers"),
                other,
                "a list",
            ));
        }
    };
    let mut images = Vec::with_capacity(containers.len());
    for (index, container) in containers.iter().enumerate() {
        let path = format!("{prefix}/containers/{index}/image");
        let image = match container {
            Value::Null => "",
            Value::Object(fields) => match fields.field("image") {
                None | Some(Value::Null) => "",
                Some(Value::String(image)) => image,
                Some(other) => return Err(not_typed(kind, &path, other, "a string")),
            },
            other => {
                return Err(not_typed(
                    kind,
                    &format!("{prefix}/containers/{index}"),
                    other,
                    "an object",
                ));
            }
        };
        images.push((path, image.to_string()));
    }
    Ok(images)
}

fn not_typed(kind: &str, path: &str, found: &Value, expected: &str) -> String {
    format!(
        "cannot read the object as a {kind}: {path} is {}, expected {expected}",
        crate::object::json_type_name(found)
    )
}

/// Reads the image a predicate points at the way imageoverride.go `obtainImageValue` does:
/// leading and trailing `/` trimmed, split on `/` with no `~0`/`~1` unescaping, a list consumes
/// the following segment as its index, and the last segment must hold a string. Where Go would
/// panic (index out of range, negative, or a list element that is not a map) this is an error.
fn image_at_predicate(object: &Value, path: &str) -> Result<String, String> {
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let last = segments.len() - 1;
    let mut current = object
        .as_object()
        .ok_or_else(|| "the object is not a map".to_string())?;
    let mut index = 0;
    while index < last {
        let segment = segments[index];
        match current.field(segment) {
            Some(Value::Object(map)) => current = map,
            Some(Value::Array(list)) => {
                let next = segments[index + 1];
                // strconv.ParseInt(next, 10, 32)
                let position: i32 = next.parse().map_err(|_| {
                    format!("{next:?} after the list {segment:?} is not a list index")
                })?;
                let element = usize::try_from(position)
                    .ok()
                    .and_then(|position| list.get(position))
                    .ok_or_else(|| {
                        format!(
                            "index {position} is out of range for the list {segment:?} (length {})",
                            list.len()
                        )
                    })?;
                current = element.as_object().ok_or_else(|| {
                    format!(
                        "element {position} of the list {segment:?} is {}, not a map",
                        crate::object::json_type_name(element)
                    )
                })?;
                index += 1;
            }
            Some(other) => {
                return Err(format!(
                    "{segment:?} is {}, neither a map nor a list",
                    crate::object::json_type_name(other)
                ));
            }
            None => return Err(format!("{segment:?} does not exist")),
        }
        index += 1;
    }
    match current.field(segments[last]) {
        Some(Value::String(image)) => Ok(image.clone()),
        Some(other) => Err(format!(
            "{:?} is {}, not a string",
            segments[last],
            crate::object::json_type_name(other)
        )),
        None => Err(format!("{:?} does not exist", segments[last])),
    }
}

/// An image reference split the way Karmada's imageparser `Components` splits it:
/// `[registry/]repository[:tag]` or `[registry/]repository[@digest]`, never both tag and digest.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ImageReference {
    /// The registry host, port included (`fictional.registry.example:10443`); imageparser calls
    /// it the hostname. Empty when the image names none.
    pub registry: String,
    /// Everything after the registry (`subpath/imagename`).
    pub repository: String,
    /// Empty when the image has no tag.
    pub tag: String,
    /// `algorithm:hex`; empty when the image has a tag or no digest.
    pub digest: String,
}

/// Why distribution's `reference.Parse` refuses an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvalidImageReference {
    /// `ErrNameEmpty`: the image is the empty string (an absent `image` field reads as empty).
    Empty,
    /// `ErrNameContainsUppercase`: the reference would be valid in lowercase.
    Uppercase,
    /// `ErrReferenceInvalidFormat`.
    Format,
    /// `ErrNameTooLong`: the repository path is longer than 255 characters.
    NameTooLong,
    /// go-digest `ErrDigestInvalidFormat`.
    DigestFormat,
    /// go-digest `ErrDigestInvalidLength`.
    DigestLength,
    /// go-digest `ErrDigestUnsupported`: only sha256, sha384 and sha512 are registered.
    DigestUnsupported,
}

impl fmt::Display for InvalidImageReference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InvalidImageReference::Empty => "the image is empty",
            InvalidImageReference::Uppercase => "repository must be lowercase",
            InvalidImageReference::Format => "invalid reference format",
            InvalidImageReference::NameTooLong => {
                "repository name must not be more than 255 characters"
            }
            InvalidImageReference::DigestFormat => "invalid digest format",
            InvalidImageReference::DigestLength => "invalid digest length for its algorithm",
            InvalidImageReference::DigestUnsupported => {
                "unsupported digest algorithm (sha256, sha384 and sha512 are known)"
            }
        })
    }
}

impl std::error::Error for InvalidImageReference {}

impl ImageReference {
    /// imageparser `Parse`: distribution `reference.Parse`, then the registry split of
    /// `split_registry`. When the reference carries both a tag and a digest only the tag is
    /// kept, so such an image loses its digest whatever the overrider does.
    pub fn parse(image: &str) -> Result<Self, InvalidImageReference> {
        let Some(parts) = match_reference(image) else {
            if image.is_empty() {
                return Err(InvalidImageReference::Empty);
            }
            if match_reference(&image.to_lowercase()).is_some() {
                return Err(InvalidImageReference::Uppercase);
            }
            return Err(InvalidImageReference::Format);
        };
        if parts.path.len() > REPOSITORY_NAME_MAX {
            return Err(InvalidImageReference::NameTooLong);
        }
        if let Some(digest) = parts.digest {
            validate_digest(digest)?;
        }
        let (registry, repository) = split_registry(parts.name);
        let tag = parts.tag.unwrap_or_default();
        let digest = if tag.is_empty() {
            parts.digest.unwrap_or_default()
        } else {
            ""
        };
        Ok(ImageReference {
            registry: registry.to_string(),
            repository: repository.to_string(),
            tag: tag.to_string(),
            digest: digest.to_string(),
        })
    }

    /// The tag if there is one, else the digest (`TagOrDigest`).
    pub fn tag_or_digest(&self) -> &str {
        if self.tag.is_empty() {
            &self.digest
        } else {
            &self.tag
        }
    }

    /// `SetTagOrDigest`: a valid tag replaces tag and digest, else a valid digest does, else
    /// nothing changes, silently.
    pub fn set_tag_or_digest(&mut self, input: &str) {
        if is_tag(input) {
            self.tag = input.to_string();
            self.digest.clear();
        } else if is_digest(input) {
            self.digest = input.to_string();
            self.tag.clear();
        }
    }

    /// `RemoveTagOrDigest`: the tag if set, else the digest.
    pub fn remove_tag_or_digest(&mut self) {
        if self.tag.is_empty() {
            self.digest.clear();
        } else {
            self.tag.clear();
        }
    }
}

/// `Components.String`: `[registry/]repository`, then `:tag`, or else `@digest`. With a registry
/// and an empty repository this writes `registry/` literally, as Karmada does.
impl fmt::Display for ImageReference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.registry.is_empty() {
            write!(f, "{}/", self.registry)?;
        }
        f.write_str(&self.repository)?;
        if !self.tag.is_empty() {
            write!(f, ":{}", self.tag)
        } else if !self.digest.is_empty() {
            write!(f, "@{}", self.digest)
        } else {
            Ok(())
        }
    }
}

/// imageparser `SplitHostname`: the part before the first `/` is the registry only if it
/// contains `.` or `:` or is `localhost`; otherwise the whole name is the repository, so
/// `ubuntu/nginx` has no registry (karmada issue #2585).
pub(crate) fn split_registry(name: &str) -> (&str, &str) {
    match name.split_once('/') {
        Some((first, rest)) if first.contains(['.', ':']) || first == "localhost" => (first, rest),
        _ => ("", name),
    }
}

/// The pieces of a reference that matched distribution's `ReferenceRegexp`.
struct ReferenceParts<'a> {
    /// The whole name, registry included.
    name: &'a str,
    /// The name without the domain the grammar recognised (what the length limit applies to).
    path: &'a str,
    tag: Option<&'a str>,
    digest: Option<&'a str>,
}

/// `ReferenceRegexp`: `name [":" tag] ["@" digest]`. Names and tags hold no `@`, a tag holds no
/// `:` or `/`, and a name holds `:` only in a domain that a `/` follows; so the first `@` starts
/// the digest and a `:` after the last `/` starts the tag, and the split is the only one the
/// regular expression could find.
fn match_reference(reference: &str) -> Option<ReferenceParts<'_>> {
    let (before_digest, digest) = match reference.split_once('@') {
        Some((before, digest)) => (before, Some(digest)),
        None => (reference, None),
    };
    if digest.is_some_and(|digest| !is_digest(digest)) {
        return None;
    }
    let (name, tag) = match before_digest.rfind(':') {
        Some(colon) if !before_digest[colon..].contains('/') => {
            (&before_digest[..colon], Some(&before_digest[colon + 1..]))
        }
        _ => (before_digest, None),
    };
    if tag.is_some_and(|tag| !is_tag(tag)) {
        return None;
    }
    let path = name_path(name)?;
    Some(ReferenceParts {
        name,
        path,
        tag,
        digest,
    })
}

/// `anchoredNameRegexp`: `[domain "/"] remote-name`. Go's regexp prefers taking the optional
/// domain, so the first segment is the domain whenever it can be one; the rest is the path.
fn name_path(name: &str) -> Option<&str> {
    if let Some((first, rest)) = name.split_once('/')
        && is_domain_and_port(first)
        && is_remote_name(rest)
    {
        return Some(rest);
    }
    is_remote_name(name).then_some(name)
}

/// `domainAndPort`: a DNS-like name (components of letters, digits and inner `-`, joined by
/// `.`, uppercase allowed) or a bracketed IPv6 address, then an optional `:port`.
fn is_domain_and_port(domain: &str) -> bool {
    let (host_ok, port) = if let Some(inner_and_rest) = domain.strip_prefix('[') {
        let Some((inner, rest)) = inner_and_rest.split_once(']') else {
            return false;
        };
        let inner_ok = !inner.is_empty()
            && inner
                .bytes()
                .all(|byte| byte.is_ascii_hexdigit() || byte == b':');
        (inner_ok, rest)
    } else {
        let (host, port) = match domain.find(':') {
            Some(colon) => domain.split_at(colon),
            None => (domain, ""),
        };
        (host.split('.').all(is_domain_component), port)
    };
    let port_ok = port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()));
    host_ok && port_ok
}

/// `domainNameComponent`: `[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]`.
fn is_domain_component(component: &str) -> bool {
    let bytes = component.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        }
        _ => false,
    }
}

/// `remoteName`: path components joined by `/`.
fn is_remote_name(path: &str) -> bool {
    path.split('/').all(is_path_component)
}

/// `pathComponent`: `[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*` — lowercase letters and digits,
/// separated by one `.`, one `_`, two `_`, or any number of `-`.
fn is_path_component(component: &str) -> bool {
    let bytes = component.as_bytes();
    let is_alphanumeric = |byte: &u8| byte.is_ascii_lowercase() || byte.is_ascii_digit();
    if !bytes.first().is_some_and(is_alphanumeric) || !bytes.last().is_some_and(is_alphanumeric) {
        return false;
    }
    bytes
        .split(is_alphanumeric)
        .filter(|separator| !separator.is_empty())
        .all(|separator| {
            matches!(separator, b"." | b"_" | b"__") || separator.iter().all(|b| *b == b'-')
        })
}

/// The tag pattern, anchored: `^[\w][\w.-]{0,127}$` (`\w` is ASCII `[0-9A-Za-z_]` in Go).
fn is_tag(tag: &str) -> bool {
    let bytes = tag.as_bytes();
    let is_word = |byte: &u8| byte.is_ascii_alphanumeric() || *byte == b'_';
    !bytes.is_empty()
        && bytes.len() <= TAG_MAX
        && is_word(&bytes[0])
        && bytes[1..]
            .iter()
            .all(|byte| is_word(byte) || *byte == b'.' || *byte == b'-')
}

/// The digest pattern, anchored:
/// `^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$`.
fn is_digest(digest: &str) -> bool {
    let Some((algorithm, hex)) = digest.split_once(':') else {
        return false;
    };
    let algorithm_ok = algorithm.split(['-', '_', '+', '.']).all(|component| {
        let bytes = component.as_bytes();
        bytes.first().is_some_and(u8::is_ascii_alphabetic)
            && bytes.iter().all(u8::is_ascii_alphanumeric)
    });
    algorithm_ok && hex.len() >= DIGEST_HEX_MIN && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

/// go-digest `Digest.Validate` for a digest the reference grammar already accepted: the
/// algorithm must be one Karmada registers (sha256, sha384, sha512, whose hex is lowercase and of
/// fixed length).
fn validate_digest(digest: &str) -> Result<(), InvalidImageReference> {
    let Some((algorithm, hex)) = digest.split_once(':') else {
        return Err(InvalidImageReference::DigestFormat);
    };
    let length = match algorithm {
        "sha256" => 64,
        "sha384" => 96,
        "sha512" => 128,
        // go-digest reports an unknown algorithm as unsupported only when the digest would be
        // well formed in lowercase (`[a-z0-9]+(?:[.+_-][a-z0-9]+)*:...`).
        _ if algorithm.bytes().any(|b| b.is_ascii_uppercase()) => {
            return Err(InvalidImageReference::DigestFormat);
        }
        _ => return Err(InvalidImageReference::DigestUnsupported),
    };
    if hex.len() != length {
        return Err(InvalidImageReference::DigestLength);
    }
    if hex.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err(InvalidImageReference::DigestFormat);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::karmada::ImagePredicate;
    use serde_json::json;

    use ImageComponent::{Registry, Repository, Tag};
    use OverriderOperator::{Add, Remove, Replace};

    const DIGEST: &str = "sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c";
    const OTHER_DIGEST: &str =
        "sha256:dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9c";

    fn overrider(
        component: ImageComponent,
        operator: OverriderOperator,
        value: &str,
    ) -> ImageOverrider {
        ImageOverrider {
            predicate: None,
            component,
            operator,
            value: value.to_string(),
        }
    }

    fn at(path: &str, overrider: ImageOverrider) -> ImageOverrider {
        ImageOverrider {
            predicate: Some(ImagePredicate {
                path: path.to_string(),
            }),
            ..overrider
        }
    }

    fn rewrite(
        image: &str,
        component: ImageComponent,
        operator: OverriderOperator,
        value: &str,
    ) -> String {
        override_image(image, &overrider(component, operator, value)).unwrap()
    }

    fn parsed(image: &str) -> ImageReference {
        ImageReference::parse(image).unwrap()
    }

    fn reference(registry: &str, repository: &str, tag: &str, digest: &str) -> ImageReference {
        ImageReference {
            registry: registry.to_string(),
            repository: repository.to_string(),
            tag: tag.to_string(),
            digest: digest.to_string(),
        }
    }

    fn pod_template_kind(kind: &str, images: &[&str]) -> Value {
        let containers: Vec<Value> = images
            .iter()
            .enumerate()
            .map(|(index, image)| json!({"name": format!("c{index}"), "image": image}))
            .collect();
        json!({"apiVersion": "apps/v1", "kind": kind, "metadata": {"name": "nginx"},
               "spec": {"replicas": 1, "template": {"spec": {"containers": containers}}}})
    }

    fn images_of(object: &Value, pointer: &str) -> Vec<String> {
        object
            .pointer(pointer)
            .and_then(Value::as_array)
            .map(|containers| {
                containers
                    .iter()
                    .map(|container| container["image"].as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    fn run(mut object: Value, kind: &str, overrider: &ImageOverrider) -> Result<Value, String> {
        apply_image_overrider(&mut object, kind, overrider)?;
        Ok(object)
    }

    // --- parsing: karmada pkg/util/imageparser/parser_test.go ---

    // parser_test.go TestParse: every case splits as listed and prints back unchanged.
    #[test]
    fn parse_splits_registry_repository_tag_and_digest() {
        let cases = [
            ("pause", reference("", "pause", "", "")),
            (
                "subpath/imagename:v1.0.0",
                reference("", "subpath/imagename", "v1.0.0", ""),
            ),
            (
                "fictional.registry.example/imagename:v1.0.0",
                reference("fictional.registry.example", "imagename", "v1.0.0", ""),
            ),
            (
                "fictional.registry.example:10443/subpath/imagename:v1.0.0",
                reference(
                    "fictional.registry.example:10443",
                    "subpath/imagename",
                    "v1.0.0",
                    "",
                ),
            ),
            (
                "fictional.registry.example:10443/subpath/imagename@sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c",
                reference(
                    "fictional.registry.example:10443",
                    "subpath/imagename",
                    "",
                    DIGEST,
                ),
            ),
        ];
        for (image, expected) in cases {
            let reference = parsed(image);
            assert_eq!(reference, expected, "{image}");
            assert_eq!(reference.to_string(), image);
        }
    }

    // parser_test.go TestSplitHostname, plus karmada issue #2585 (`ubuntu` is not a registry)
    // and the `localhost` rule.
    #[test]
    fn the_first_segment_is_a_registry_only_with_a_dot_a_colon_or_localhost() {
        let cases = [
            ("", ("", "")),
            ("imagename", ("", "imagename")),
            ("subpath/imagename", ("", "subpath/imagename")),
            (
                "fictional.registry.example/subpath/imagename",
                ("fictional.registry.example", "subpath/imagename"),
            ),
            (
                "fictional.registry.example:10443/subpath/imagename",
                ("fictional.registry.example:10443", "subpath/imagename"),
            ),
            (
                "10.10.10.10:10443/subpath/imagename",
                ("10.10.10.10:10443", "subpath/imagename"),
            ),
            ("ubuntu/nginx", ("", "ubuntu/nginx")),
            ("localhost/nginx", ("localhost", "nginx")),
            ("localhost:5000/a/b", ("localhost:5000", "a/b")),
        ];
        for (name, expected) in cases {
            assert_eq!(split_registry(name), expected, "{name}");
        }
        assert_eq!(
            parsed("ubuntu/nginx"),
            reference("", "ubuntu/nginx", "", "")
        );
    }

    // parser_test.go ExampleComponents_SetHostname.
    #[test]
    fn registry_can_be_added_updated_and_removed() {
        let mut reference = parsed("imagename:v1.0.0");
        reference.registry = "fictional.registry.example".to_string();
        assert_eq!(
            reference.to_string(),
            "fictional.registry.example/imagename:v1.0.0"
        );
        reference.registry = "gcr.io".to_string();
        assert_eq!(reference.to_string(), "gcr.io/imagename:v1.0.0");
        reference.registry.clear();
        assert_eq!(reference.to_string(), "imagename:v1.0.0");
    }

    // parser_test.go ExampleComponents_SetRepository.
    #[test]
    fn repository_can_be_replaced() {
        assert_eq!(
            rewrite(
                "gcr.io/kube-apiserver:v1.19.0",
                Repository,
                Replace,
                "kube-controller-manager"
            ),
            "gcr.io/kube-controller-manager:v1.19.0"
        );
    }

    // parser_test.go ExampleComponents_SetTagOrDigest.
    #[test]
    fn tag_and_digest_replace_each_other() {
        let mut reference = parsed("gcr.io/kube-apiserver");
        reference.set_tag_or_digest("v1.19.0");
        assert_eq!(reference.to_string(), "gcr.io/kube-apiserver:v1.19.0");
        reference.remove_tag_or_digest();
        assert_eq!(reference.to_string(), "gcr.io/kube-apiserver");
        reference.set_tag_or_digest(DIGEST);
        assert_eq!(
            reference.to_string(),
            format!("gcr.io/kube-apiserver@{DIGEST}")
        );
        reference.remove_tag_or_digest();
        assert_eq!(reference.to_string(), "gcr.io/kube-apiserver");
    }

    // parser_test.go ExampleComponents_String.
    #[test]
    fn display_joins_registry_repository_and_tag() {
        let reference = reference(
            "fictional.registry.example",
            "karmada-scheduler",
            "v1.0.0",
            "",
        );
        assert_eq!(
            reference.to_string(),
            "fictional.registry.example/karmada-scheduler:v1.0.0"
        );
        // A tag wins over a digest; a registry with no repository keeps its slash.
        assert_eq!(
            self::reference("r.io", "a", "1", DIGEST).to_string(),
            "r.io/a:1"
        );
        assert_eq!(self::reference("r.io", "", "1", "").to_string(), "r.io/:1");
        assert_eq!(
            self::reference("", "", "", DIGEST).to_string(),
            format!("@{DIGEST}")
        );
    }

    // lifted_test.go TestTagRegexp and TestAnchored ("Anchored single regex mismatch"); the
    // multi-pattern cases test Go helpers that have no counterpart here.
    #[test]
    fn tags_follow_the_anchored_tag_pattern() {
        for tag in [
            "latest",
            "v1.0.0",
            "v1.0.0-alpha",
            "my-tag",
            "_x",
            "V1",
            "0",
            &"a".repeat(128),
        ] {
            assert!(is_tag(tag), "{tag:?} should be a tag");
        }
        for tag in [
            " v1.0.0 ",
            "",
            ".v1",
            "-v1",
            "v1!",
            "v1\n",
            "bad tag!",
            "é",
            &"a".repeat(129),
            DIGEST,
        ] {
            assert!(!is_tag(tag), "{tag:?} should not be a tag");
        }
    }

    // lifted_test.go TestDigestRegexp: the pattern alone accepts any algorithm and at least 32
    // hex digits, so an 80-digit sha384 matches here although go-digest would refuse it.
    #[test]
    fn digests_follow_the_anchored_digest_pattern() {
        let sha384_short = "sha384:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
        let hex32 = "0123456789abcdef0123456789ABCDEF";
        for digest in [
            "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            sha384_short,
            &format!("md5:{hex32}"),
            &format!("SHA256:{hex32}"),
            &format!("sha256+b64u.x_y-z:{hex32}"),
        ] {
            assert!(is_digest(digest), "{digest:?} should be a digest");
        }
        for digest in [
            "sha256:0123456789abcdef0123456789abcde",
            &format!("sha256:{hex32}g"),
            &format!("1sha:{hex32}"),
            &format!("sha--256:{hex32}"),
            &format!("sha256-:{hex32}"),
            &format!(":{hex32}"),
            "sha256",
        ] {
            assert!(!is_digest(digest), "{digest:?} should not be a digest");
        }
        assert_eq!(
            ImageReference::parse(&format!("nginx@{sha384_short}")),
            Err(InvalidImageReference::DigestLength)
        );
    }

    // karmada-overrides spec §9.1 "Parsing": distribution's reference.Parse, not the
    // normalising parser, and the errors it gives.
    #[test]
    fn invalid_references_are_refused_with_distributions_reason() {
        use InvalidImageReference::*;
        let hex64 = &DIGEST["sha256:".len()..];
        let cases = [
            ("", Empty),
            ("Nginx:1", Uppercase),
            ("registry.example/Nginx", Uppercase),
            ("nginx:1 ", Format),
            (" nginx", Format),
            ("nginx:", Format),
            ("nginx::1", Format),
            ("nginx@", Format),
            ("-nginx", Format),
            ("nginx-", Format),
            ("a___b", Format),
            ("a._b", Format),
            ("a//b", Format),
            ("nginx/", Format),
            ("host:port/nginx", Format),
            ("nginx:bad tag!", Format),
            ("nginx@sha256:abc", Format),
            ("ünïcode", Format),
            (&"a".repeat(256), NameTooLong),
            (&format!("nginx@sha256:{}", &hex64[..32]), DigestLength),
            (
                &format!("nginx@sha256:{}", hex64.to_uppercase()),
                DigestFormat,
            ),
            (&format!("nginx@SHA256:{hex64}"), DigestFormat),
            (&format!("nginx@md5:{}", &hex64[..32]), DigestUnsupported),
            (&format!("nginx:1@sha256:{}", &hex64[..40]), DigestLength),
        ];
        for (image, reason) in cases {
            assert_eq!(ImageReference::parse(image), Err(reason), "{image:?}");
        }
    }

    #[test]
    fn valid_references_cover_the_whole_grammar() {
        let cases = [
            ("a__b", reference("", "a__b", "", "")),
            ("a--b/c_d/e", reference("", "a--b/c_d/e", "", "")),
            // `a.b_c` cannot be a domain (underscore) but is a valid path component; Karmada's
            // split still sees the `.` and calls it the registry.
            ("a.b_c/e", reference("a.b_c", "e", "", "")),
            ("localhost:5000", reference("", "localhost", "5000", "")),
            (
                "[::1]:5000/repo:tag",
                reference("[::1]:5000", "repo", "tag", ""),
            ),
            ("[fe80::1]/repo", reference("[fe80::1]", "repo", "", "")),
            (
                "Registry.Example/nginx:V1",
                reference("Registry.Example", "nginx", "V1", ""),
            ),
            // The grammar takes `UBUNTU` as a domain, so the reference is valid; Karmada's
            // split does not, so it stays in the repository.
            ("UBUNTU/nginx", reference("", "UBUNTU/nginx", "", "")),
        ];
        for (image, expected) in cases {
            assert_eq!(parsed(image), expected, "{image}");
            assert_eq!(parsed(image).to_string(), image);
        }
        // The length limit applies to the path after the domain the grammar recognises.
        assert!(ImageReference::parse(&format!("example.com/{}", "a".repeat(255))).is_ok());
        assert!(ImageReference::parse(&"a".repeat(255)).is_ok());
        assert_eq!(
            ImageReference::parse(&format!("a.b_c/{}", "a".repeat(250))),
            Err(InvalidImageReference::NameTooLong)
        );
        let sha512 = format!("sha512:{}", "ab".repeat(64));
        assert_eq!(
            parsed(&format!("nginx@{sha512}")),
            reference("", "nginx", "", &sha512)
        );
    }

    // karmada-overrides spec §9.1: a digest next to a tag is dropped by any imageOverrider.
    #[test]
    fn a_digest_next_to_a_tag_is_dropped() {
        let image = format!("nginx:1.25@{DIGEST}");
        assert_eq!(parsed(&image), reference("", "nginx", "1.25", ""));
        assert_eq!(rewrite(&image, Registry, Remove, ""), "nginx:1.25");
        assert_eq!(rewrite(&image, Tag, Replace, "bad tag!"), "nginx:1.25");
    }

    // --- operations: karmada pkg/util/overridemanager/imageoverride_test.go
    // TestParseJSONPatchesByImageOverrider, one test per table entry group ---

    // "imageOverrider with empty predicate, resource kind: Job, component: Registry, operator:
    // add" and its twin "with predicate": a registry is added to an image without one.
    #[test]
    fn registry_add_on_a_job_with_and_without_predicate() {
        let job = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "pi"},
            "spec": {"template": {"spec": {"containers": [{"image": "perl:5.34.0", "name": "perl"}]}}}});
        let add = overrider(Registry, Add, "registry.k8s.io");
        for entry in [
            add.clone(),
            at("/spec/template/spec/containers/0/image", add),
        ] {
            let object = run(job.clone(), "Job", &entry).unwrap();
            assert_eq!(
                images_of(&object, "/spec/template/spec/containers"),
                ["registry.k8s.io/perl:5.34.0"]
            );
        }
    }

    // "... Deployment, component: Registry, operator: add/replace/remove", "... Repository ...",
    // "... Tag ..." on fictional.registry.example/imagename:v1.0.0.
    #[test]
    fn every_component_and_operator_on_a_deployment() {
        let image = "fictional.registry.example/imagename:v1.0.0";
        let cases = [
            (
                Registry,
                Add,
                ".test",
                "fictional.registry.example.test/imagename:v1.0.0",
            ),
            (
                Registry,
                Replace,
                "fictional.registry.us",
                "fictional.registry.us/imagename:v1.0.0",
            ),
            (
                Registry,
                Remove,
                "fictional.registry.us",
                "imagename:v1.0.0",
            ),
            (
                Repository,
                Add,
                "/nginx",
                "fictional.registry.example/imagename/nginx:v1.0.0",
            ),
            (
                Repository,
                Replace,
                "nginx",
                "fictional.registry.example/nginx:v1.0.0",
            ),
            (
                Repository,
                Remove,
                "nginx",
                "fictional.registry.example/:v1.0.0",
            ),
            // Only one of tag and digest is kept: "v1.0.0sha256:…" is neither, so no change.
            (
                Tag,
                Add,
                OTHER_DIGEST,
                "fictional.registry.example/imagename:v1.0.0",
            ),
            (
                Tag,
                Replace,
                OTHER_DIGEST,
                &format!("fictional.registry.example/imagename@{OTHER_DIGEST}"),
            ),
            (
                Tag,
                Remove,
                OTHER_DIGEST,
                "fictional.registry.example/imagename",
            ),
        ];
        for (component, operator, value, expected) in cases {
            let object = run(
                pod_template_kind("Deployment", &[image]),
                "Deployment",
                &overrider(component, operator, value),
            )
            .unwrap();
            assert_eq!(
                images_of(&object, "/spec/template/spec/containers"),
                [expected],
                "{component:?} {operator:?} {value}"
            );
        }
    }

    // karmada-overrides spec §9.1 table on the image with a port; the port stays with the host,
    // and values are concatenated without validation.
    #[test]
    fn operations_on_a_registry_with_a_port() {
        let image = "fictional.registry.example:10443/subpath/imagename:v1.0.0";
        assert_eq!(
            rewrite(image, Registry, Add, ".test"),
            "fictional.registry.example:10443.test/subpath/imagename:v1.0.0"
        );
        assert_eq!(
            rewrite(image, Repository, Add, "/nginx"),
            "fictional.registry.example:10443/subpath/imagename/nginx:v1.0.0"
        );
        assert_eq!(
            rewrite(image, Repository, Remove, ""),
            "fictional.registry.example:10443/:v1.0.0"
        );
        assert_eq!(
            rewrite("subpath/imagename:v1.0.0", Repository, Remove, ""),
            ":v1.0.0"
        );
        assert_eq!(
            rewrite(image, Registry, Replace, ""),
            "subpath/imagename:v1.0.0"
        );
        assert_eq!(rewrite(image, Registry, Add, ""), image);
    }

    // karmada issue #2585: `ubuntu/` is not a registry, so remove does nothing and replace
    // prepends one.
    #[test]
    fn registry_operations_on_an_image_without_registry() {
        assert_eq!(
            rewrite("ubuntu/nginx", Registry, Remove, ""),
            "ubuntu/nginx"
        );
        assert_eq!(
            rewrite("ubuntu/nginx", Registry, Replace, "bitnami"),
            "bitnami/ubuntu/nginx"
        );
        assert_eq!(
            rewrite("ubuntu/nginx:1", Registry, Add, "r.io"),
            "r.io/ubuntu/nginx:1"
        );
    }

    // karmada-overrides spec §9.1 set-tag-or-digest.
    #[test]
    fn tag_operations_follow_set_tag_or_digest() {
        let hex64 = &DIGEST["sha256:".len()..];
        assert_eq!(rewrite("nginx:1.25", Tag, Add, "-rc1"), "nginx:1.25-rc1");
        assert_eq!(rewrite("nginx", Tag, Add, "v1"), "nginx:v1");
        assert_eq!(rewrite("nginx", Tag, Remove, ""), "nginx");
        assert_eq!(
            rewrite(&format!("nginx@{DIGEST}"), Tag, Replace, "v1.19.0"),
            "nginx:v1.19.0"
        );
        assert_eq!(
            rewrite(&format!("nginx@{DIGEST}"), Tag, Remove, ""),
            "nginx"
        );
        // Appending to a digest keeps it a digest when the result is still hex.
        assert_eq!(
            rewrite(&format!("nginx@{DIGEST}"), Tag, Add, "ab"),
            format!("nginx@{DIGEST}ab")
        );
        assert_eq!(
            rewrite(&format!("nginx@{DIGEST}"), Tag, Add, "-x"),
            format!("nginx@{DIGEST}")
        );
        assert_eq!(rewrite("nginx:1", Tag, Replace, "bad tag!"), "nginx:1");
        assert_eq!(rewrite("nginx:1", Tag, Replace, ""), "nginx:1");
        // The pattern, not go-digest, decides: a 32-digit sha256 is written although parsing
        // it back would fail.
        assert_eq!(
            rewrite("nginx:1", Tag, Replace, &format!("sha256:{}", &hex64[..32])),
            format!("nginx@sha256:{}", &hex64[..32])
        );
    }

    // "imageOverrider with empty predicate, resource kind: Pod / StatefulSet / ReplicaSet /
    // DaemonSet": every supported kind, Pod at /spec/containers.
    #[test]
    fn every_supported_kind_without_predicate() {
        let image = "fictional.registry.example/imagename:v1.0.0";
        let replace = overrider(Repository, Replace, "nginx");
        for kind in [
            "ReplicaSet",
            "Deployment",
            "DaemonSet",
            "StatefulSet",
            "Job",
        ] {
            let object = run(pod_template_kind(kind, &[image]), kind, &replace).unwrap();
            assert_eq!(
                images_of(&object, "/spec/template/spec/containers"),
                ["fictional.registry.example/nginx:v1.0.0"],
                "{kind}"
            );
        }
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "nginx"},
            "spec": {"containers": [{"image": image, "name": "nginx"}]}});
        let object = run(pod, "Pod", &replace).unwrap();
        assert_eq!(
            images_of(&object, "/spec/containers"),
            ["fictional.registry.example/nginx:v1.0.0"]
        );
    }

    // "imageOverrider with empty predicate, resource has more than one container" and
    // "imageOverrider with predicate, resource has more than one container".
    #[test]
    fn all_containers_without_predicate_one_with_it() {
        let deployment = pod_template_kind(
            "Deployment",
            &[
                "fictional.registry.example/imagename:v1.0.0",
                "registry.k8s.io/nginx-slim:0.8",
            ],
        );
        let replace = overrider(Repository, Replace, "nginx");
        let all = run(deployment.clone(), "Deployment", &replace).unwrap();
        assert_eq!(
            images_of(&all, "/spec/template/spec/containers"),
            [
                "fictional.registry.example/nginx:v1.0.0",
                "registry.k8s.io/nginx:0.8"
            ]
        );
        let second = run(
            deployment.clone(),
            "Deployment",
            &at("/spec/template/spec/containers/1/image", replace.clone()),
        )
        .unwrap();
        assert_eq!(
            images_of(&second, "/spec/template/spec/containers"),
            [
                "fictional.registry.example/imagename:v1.0.0",
                "registry.k8s.io/nginx:0.8"
            ]
        );
        // "imageOverrider with predicate, resource has one container"
        let first = run(
            deployment,
            "Deployment",
            &at("/spec/template/spec/containers/0/image", replace),
        )
        .unwrap();
        assert_eq!(
            images_of(&first, "/spec/template/spec/containers"),
            [
                "fictional.registry.example/nginx:v1.0.0",
                "registry.k8s.io/nginx-slim:0.8"
            ]
        );
    }

    // test/e2e/suites/base/overridepolicy_test.go "Deployment override all images in container
    // list": three entries in a row, each seeing the previous result.
    #[test]
    fn entries_apply_one_after_another() {
        let mut deployment = pod_template_kind("Deployment", &["nginx:1.19.0", "busybox:latest"]);
        for entry in [
            overrider(Registry, Replace, "fictional.registry.us"),
            overrider(Repository, Replace, "busybox"),
            overrider(Tag, Replace, "1.0"),
        ] {
            apply_image_overrider(&mut deployment, "Deployment", &entry).unwrap();
        }
        assert_eq!(
            images_of(&deployment, "/spec/template/spec/containers"),
            [
                "fictional.registry.us/busybox:1.0",
                "fictional.registry.us/busybox:1.0"
            ]
        );
    }

    // test/e2e/suites/base/overridepolicy_test.go "Deployment override specific images in
    // container list": a predicate changes only the image it names.
    #[test]
    fn a_predicate_changes_only_its_image() {
        let deployment = pod_template_kind("Deployment", &["nginx:1.19.0", "nginx:1.19.0"]);
        let replace = at(
            "/spec/template/spec/containers/0/image",
            overrider(Registry, Replace, "fictional.registry.us"),
        );
        let object = run(deployment, "Deployment", &replace).unwrap();
        assert_eq!(
            images_of(&object, "/spec/template/spec/containers"),
            ["fictional.registry.us/nginx:1.19.0", "nginx:1.19.0"]
        );
    }

    // karmada issue #4283: without predicate only `containers` change, never init or ephemeral
    // containers; a predicate reaches an init container.
    #[test]
    fn init_containers_need_a_predicate() {
        let mut deployment = pod_template_kind("Deployment", &["nginx:1"]);
        deployment["spec"]["template"]["spec"]["initContainers"] =
            json!([{"name": "init", "image": "busybox:1"}]);
        deployment["spec"]["template"]["spec"]["ephemeralContainers"] =
            json!([{"name": "debug", "image": "busybox:1"}]);
        let add = overrider(Registry, Add, "r.io");
        let object = run(deployment.clone(), "Deployment", &add).unwrap();
        assert_eq!(
            images_of(&object, "/spec/template/spec/containers"),
            ["r.io/nginx:1"]
        );
        assert_eq!(
            images_of(&object, "/spec/template/spec/initContainers"),
            ["busybox:1"]
        );
        assert_eq!(
            images_of(&object, "/spec/template/spec/ephemeralContainers"),
            ["busybox:1"]
        );
        let object = run(
            deployment,
            "Deployment",
            &at("/spec/template/spec/initContainers/0/image", add),
        )
        .unwrap();
        assert_eq!(
            images_of(&object, "/spec/template/spec/containers"),
            ["nginx:1"]
        );
        assert_eq!(
            images_of(&object, "/spec/template/spec/initContainers"),
            ["r.io/busybox:1"]
        );
    }

    // karmada-overrides spec §9.1: CronJob and every other kind are left alone without error,
    // even with an image that would not parse; a predicate works on any kind.
    #[test]
    fn unsupported_kinds_are_a_no_op_unless_a_predicate_is_given() {
        let cron_job = json!({"apiVersion": "batch/v1", "kind": "CronJob", "spec": {"jobTemplate": {"spec":
            {"template": {"spec": {"containers": [{"name": "c", "image": "Invalid:1"}]}}}}}});
        let add = overrider(Registry, Add, "r.io");
        assert_eq!(run(cron_job.clone(), "CronJob", &add).unwrap(), cron_job);
        let custom =
            json!({"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"image": "nginx:1"}});
        assert_eq!(run(custom.clone(), "Widget", &add).unwrap(), custom);
        let object = run(custom, "Widget", &at("/spec/image", add)).unwrap();
        assert_eq!(object["spec"]["image"], "r.io/nginx:1");
    }

    // karmada-overrides spec §9.1 and the error summary §9.6.
    #[test]
    fn an_invalid_image_fails_the_entry_and_names_it() {
        let deployment = pod_template_kind("Deployment", &["nginx:1", "Nginx:1"]);
        let error = run(deployment, "Deployment", &overrider(Registry, Add, "r.io")).unwrap_err();
        assert_eq!(
            error,
            "image \"Nginx:1\" at /spec/template/spec/containers/1/image is not a valid image reference: \
             repository must be lowercase"
        );
        let mut no_image = pod_template_kind("Deployment", &[]);
        no_image["spec"]["template"]["spec"]["containers"] = json!([{"name": "c"}]);
        let error = run(no_image, "Deployment", &overrider(Tag, Remove, "")).unwrap_err();
        assert!(
            error.starts_with("image \"\" at /spec/template/spec/containers/0/image"),
            "{error}"
        );
    }

    // The typed conversion Karmada runs first (helper.ConvertToDeployment): wrong types fail,
    // absent parts are an empty pod spec.
    #[test]
    fn the_parts_read_must_have_their_types() {
        let add = overrider(Registry, Add, "r.io");
        let mut deployment = pod_template_kind("Deployment", &[]);
        deployment["spec"]["template"]["spec"]["containers"] = json!({"name": "c"});
        let error = run(deployment, "Deployment", &add).unwrap_err();
        assert!(
            error.contains("/spec/template/spec/containers is an object, expected a list"),
            "{error}"
        );
        let mut deployment = pod_template_kind("Deployment", &[]);
        deployment["spec"]["template"]["spec"]["containers"] = json!([{"image": 5}]);
        assert!(
            run(deployment, "Deployment", &add)
                .unwrap_err()
                .contains("is a number, expected a string")
        );
        for empty in [
            json!({"kind": "Deployment"}),
            json!({"spec": {"template": null}}),
            json!({"spec": {"template": {"spec": {}}}}),
        ] {
            assert_eq!(run(empty.clone(), "Deployment", &add).unwrap(), empty);
        }
    }

    // imageoverride.go obtainImageValue: how a predicate path is walked, and what Go would
    // have panicked on.
    #[test]
    fn predicate_paths_are_walked_like_obtain_image_value() {
        let deployment = pod_template_kind("Deployment", &["nginx:1"]);
        let add = overrider(Registry, Add, "r.io");
        let ok = |path: &str| run(deployment.clone(), "Deployment", &at(path, add.clone()));
        let error = |path: &str| ok(path).unwrap_err();
        assert!(
            error("/spec/template/spec/containers/0/name2").contains("\"name2\" does not exist")
        );
        assert!(error("/spec/replicas").contains("\"replicas\" is a number, not a string"));
        assert!(
            error("/spec/replicas/x")
                .contains("\"replicas\" is a number, neither a map nor a list")
        );
        assert!(
            error("/spec/template/spec/containers/x/image")
                .contains("\"x\" after the list \"containers\" is not a list index")
        );
        assert!(
            error("/spec/template/spec/containers/1/image").contains("index 1 is out of range")
        );
        assert!(
            error("/spec/template/spec/containers/-1/image").contains("index -1 is out of range")
        );
        assert!(error("/spec/template/spec/containers/0").contains("\"0\" does not exist"));
        assert!(error("").contains("\"\" does not exist"));
        let mut listed = deployment.clone();
        listed["spec"]["images"] = json!(["nginx:1"]);
        assert!(
            run(listed, "Deployment", &at("/spec/images/0/x", add.clone()))
                .unwrap_err()
                .contains("is a string, not a map")
        );
        // The walk trims slashes; the patch does not.
        assert_eq!(
            error("spec/template/spec/containers/0/image"),
            "predicate path \"spec/template/spec/containers/0/image\" must start with '/'"
        );
        assert!(ok("/spec/template/spec/containers/0/image/").is_err());
        // No ~1 unescaping in the walk.
        let slashed = json!({"spec": {"a/b": "nginx:1"}});
        assert!(run(slashed, "X", &at("/spec/a~1b", add.clone())).is_err());
        let tilde = json!({"spec": {"a~1b": "nginx:1"}});
        assert!(run(tilde, "X", &at("/spec/a~1b", add)).is_err());
    }
}
