//! The `imagePullPolicy` a member receives after an override changes a container's image.
//!
//! Karmada's API server is a kube-apiserver: it defaults a built-in template when it is
//! created, and a container without `imagePullPolicy` gets `Always` when its image's tag is
//! `latest` (or it has neither tag nor digest), else `IfNotPresent` (k8s.io/kubernetes
//! `pkg/apis/core/v1/defaults.go`, `SetDefaults_Container`, with `ParseImageName`). The Work is
//! built from that defaulted template, so an override that moves an image to or from `latest`
//! leaves the member with the policy of the template's image. fedrender writes that policy
//! where the member would otherwise default a different one from the new image; where both
//! agree it leaves the field to the member, which fills in the same.

use serde_json::Value;

use super::image::ImageReference;
use crate::fields::Fields;

/// The containers of a built-in template that have no `imagePullPolicy`, each with the one the
/// API server gives it: by the pointer of its list, its name and the policy.
pub(crate) struct DefaultedPolicies(Vec<(&'static str, String, &'static str)>);

/// The pointer of the pod spec the API server defaults in a built-in kind.
fn pod_spec_pointer(group: &str, kind: &str) -> Option<&'static str> {
    Some(match (group, kind) {
        ("", "Pod") => "/spec",
        ("", "ReplicationController")
        | ("apps", "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet")
        | ("batch", "Job") => "/spec/template/spec",
        ("batch", "CronJob") => "/spec/jobTemplate/spec/template/spec",
        ("", "PodTemplate") => "/template/spec",
        _ => return None,
    })
}

/// `SetDefaults_Container`: `Always` for the tag `latest`, which `ParseImageName` also gives
/// an image with neither tag nor digest; `IfNotPresent` for any other tag, a digest, or an
/// image it cannot parse.
pub(crate) fn default_pull_policy(image: &str) -> &'static str {
    // Only a tag `latest`, or neither tag nor digest, can give `Always`, and only to an image
    // that parses; any other tag or a digest gives `IfNotPresent` whether it parses or not, so
    // the whole parse (most of this function's cost on a fleet) is left to the two that may.
    // A valid reference splits only one way (see `match_reference`): its digest after the
    // first `@`, its tag after a `:` past the last `/`.
    let (name_and_tag, digest) = image.split_once('@').unwrap_or((image, ""));
    let last_component = name_and_tag.rsplit('/').next().unwrap_or(name_and_tag);
    match last_component.split_once(':') {
        Some((_, tag)) if tag != "latest" => return "IfNotPresent",
        None if !digest.is_empty() || image.ends_with('@') => return "IfNotPresent",
        _ => {}
    }
    match ImageReference::parse(image) {
        Ok(reference) if reference.tag == "latest" => "Always",
        Ok(reference) if reference.tag.is_empty() && reference.digest.is_empty() => "Always",
        _ => "IfNotPresent",
    }
}

const CONTAINER_LISTS: [&str; 2] = ["containers", "initContainers"];

/// What the API server defaults in `object` before any override runs.
pub(crate) fn before_overrides(object: &Value, group: &str, kind: &str) -> DefaultedPolicies {
    let mut defaulted = Vec::new();
    let Some(pointer) = pod_spec_pointer(group, kind) else {
        return DefaultedPolicies(defaulted);
    };
    let Some(pod_spec) = crate::json_pointer::pointer(object, pointer) else {
        return DefaultedPolicies(defaulted);
    };
    for list in CONTAINER_LISTS {
        let Some(containers) = pod_spec.get(list).and_then(Value::as_array) else {
            continue;
        };
        for container in containers {
            if container.field("imagePullPolicy").is_some() {
                continue;
            }
            let (Some(name), Some(image)) = (
                container.field("name").and_then(Value::as_str),
                container.field("image").and_then(Value::as_str),
            ) else {
                continue;
            };
            defaulted.push((list, name.to_string(), default_pull_policy(image)));
        }
    }
    DefaultedPolicies(defaulted)
}

/// Writes the template's policy into each container the overrides left without one, where the
/// member would default another from the image the overrides gave it.
pub(crate) fn keep_after_overrides(
    object: &mut Value,
    group: &str,
    kind: &str,
    defaulted: DefaultedPolicies,
) {
    if defaulted.0.is_empty() {
        return;
    }
    let Some(pod_spec) =
        pod_spec_pointer(group, kind).and_then(|at| crate::json_pointer::pointer_mut(object, at))
    else {
        return;
    };
    for (list, name, policy) in defaulted.0 {
        let Some(containers) = pod_spec.get_mut(list).and_then(Value::as_array_mut) else {
            continue;
        };
        let Some(container) = containers
            .iter_mut()
            .filter_map(Value::as_object_mut)
            .find(|container| container.field("name").and_then(Value::as_str) == Some(&name))
        else {
            continue;
        };
        if container.contains_key("imagePullPolicy") {
            continue;
        }
        let image = container
            .field("image")
            .and_then(Value::as_str)
            .unwrap_or("");
        if default_pull_policy(image) != policy {
            container.insert("imagePullPolicy".to_string(), Value::from(policy));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// k8s.io/kubernetes pkg/apis/core/v1/defaults_test.go `TestSetDefaultsContainer` and
    /// `TestSetDefaultPodSpecImagePullPolicy` cases, with `ParseImageName`'s `latest` for an
    /// image without tag or digest.
    #[test]
    fn the_api_servers_default_follows_the_tag() {
        assert_eq!(default_pull_policy("nginx"), "Always");
        assert_eq!(default_pull_policy("nginx:latest"), "Always");
        assert_eq!(default_pull_policy("registry.example:5000/nginx"), "Always");
        assert_eq!(default_pull_policy("nginx:1.25"), "IfNotPresent");
        assert_eq!(
            default_pull_policy(
                "nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
            ),
            "IfNotPresent"
        );
        assert_eq!(default_pull_policy("Not A Reference"), "IfNotPresent");
    }

    /// The shortcut past the parse answers as `SetDefaults_Container` over `ParseImageName`
    /// would, on valid references and on the malformed ones that look like them.
    #[test]
    fn the_shortcut_answers_as_the_whole_parse() {
        let by_parse = |image: &str| match ImageReference::parse(image) {
            Ok(reference) if reference.tag == "latest" => "Always",
            Ok(reference) if reference.tag.is_empty() && reference.digest.is_empty() => "Always",
            _ => "IfNotPresent",
        };
        let digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
        let images = [
            String::new(),
            "nginx".into(),
            "nginx:".into(),
            "nginx:latest".into(),
            "nginx:Latest".into(),
            "nginx:1.25".into(),
            "nginx@".into(),
            "nginx@sha256:short".into(),
            format!("nginx@{digest}"),
            format!("nginx:latest@{digest}"),
            format!("nginx:1.2@{digest}"),
            "localhost:5000/nginx".into(),
            "localhost:5000/nginx:latest".into(),
            "localhost:5000/team/nginx:2".into(),
            "registry.example:5000/a:b/c".into(),
            "registry.example:5000/a:latest/c".into(),
            "Upper/Case:latest".into(),
            "a::latest".into(),
            "a:b:latest".into(),
            ":latest".into(),
            "/nginx".into(),
            "nginx/".into(),
            "nginx:latest/".into(),
            "@".into(),
            "a@b@c".into(),
            "has space:latest".into(),
        ];
        for image in &images {
            assert_eq!(default_pull_policy(image), by_parse(image), "{image:?}");
        }
    }

    fn deployment(image: &str) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"template": {"spec": {
            "containers": [{"name": "web", "image": image}],
            "initContainers": [{"name": "init", "image": "busybox:1.36", "imagePullPolicy": "Never"}]}}}})
    }

    fn overridden(template_image: &str, new_image: &str) -> Value {
        let template = deployment(template_image);
        let defaulted = before_overrides(&template, "apps", "Deployment");
        let mut object = template;
        object["spec"]["template"]["spec"]["containers"][0]["image"] = json!(new_image);
        keep_after_overrides(&mut object, "apps", "Deployment", defaulted);
        object
    }

    /// Karmada's Work carries the policy defaulted from the template's image; the member would
    /// default the new image's otherwise.
    #[test]
    fn an_override_to_or_from_latest_keeps_the_templates_policy() {
        let container =
            |object: &Value| object["spec"]["template"]["spec"]["containers"][0].clone();
        assert_eq!(
            container(&overridden("nginx:1.25", "nginx:latest"))["imagePullPolicy"],
            "IfNotPresent"
        );
        assert_eq!(
            container(&overridden("nginx", "nginx:1.25"))["imagePullPolicy"],
            "Always"
        );
        // The same default either way: left to the member.
        assert!(
            container(&overridden("nginx:1.25", "nginx:1.26"))
                .field("imagePullPolicy")
                .is_none()
        );
        // A policy the template states is never touched.
        assert_eq!(
            overridden("nginx:1.25", "nginx:latest")["spec"]["template"]["spec"]["initContainers"]
                [0]["imagePullPolicy"],
            "Never"
        );
    }

    /// Custom resources are not defaulted by the API server: nothing is written.
    #[test]
    fn a_custom_kind_is_left_as_it_is() {
        let template = deployment("nginx:1.25");
        let defaulted = before_overrides(&template, "apps.kruise.io", "CloneSet");
        let mut object = template;
        object["spec"]["template"]["spec"]["containers"][0]["image"] = json!("nginx:latest");
        keep_after_overrides(&mut object, "apps.kruise.io", "CloneSet", defaulted);
        assert!(
            object["spec"]["template"]["spec"]["containers"][0]
                .field("imagePullPolicy")
                .is_none()
        );
    }
}
