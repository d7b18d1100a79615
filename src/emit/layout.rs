//! Where each object lives in the output tree: `<cluster>/<namespace>/<kind>.<group>_<name>.yaml`,
//! cluster-scoped objects under `<cluster>/_cluster/`. Stable, readable, unique across API
//! groups, and safe: no object name can make a path leave its cluster directory.

use crate::object::ObjectKey;

/// The directory of cluster-scoped objects. Namespace names cannot start with `_`, so it never
/// collides with a namespace directory.
pub const CLUSTER_SCOPED_DIR: &str = "_cluster";

pub const KUSTOMIZATION_FILE: &str = "kustomization.yaml";

/// The path of an object's file relative to its cluster directory. The first `_` separates
/// `<kind>.<group>` (which cannot contain `_`) from the name, so two objects never share a file.
pub fn object_path(key: &ObjectKey) -> String {
    let directory = if key.namespace.is_empty() {
        CLUSTER_SCOPED_DIR
    } else {
        key.namespace.as_str()
    };
    let kind = key.kind.to_ascii_lowercase();
    let type_name = if key.group.is_empty() {
        kind
    } else {
        format!("{kind}.{}", key.group)
    };
    format!(
        "{}/{}_{}.yaml",
        escape(directory),
        escape(&type_name),
        escape(&key.name)
    )
}

/// Keeps `[a-z0-9._-]` and percent-encodes every other byte, so that names with `/`, `:`,
/// upper case or `..` (RBAC names allow most of these) give one safe path segment, distinct on
/// case-insensitive file systems too.
fn escape(segment: &str) -> String {
    let mut escaped = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        match byte {
            b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' => escaped.push(byte as char),
            b'.' if !escaped.is_empty() => escaped.push('.'),
            _ => escaped.push_str(&format!("%{byte:02x}")),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(group: &str, kind: &str, namespace: &str, name: &str) -> ObjectKey {
        ObjectKey {
            group: group.to_string(),
            kind: kind.to_string(),
            namespace: namespace.to_string(),
            name: name.to_string(),
        }
    }

    #[test]
    fn paths_are_readable_and_distinct_across_groups() {
        assert_eq!(
            object_path(&key("apps", "Deployment", "web", "nginx")),
            "web/deployment.apps_nginx.yaml"
        );
        assert_eq!(
            object_path(&key("", "ConfigMap", "web", "cfg")),
            "web/configmap_cfg.yaml"
        );
        assert_eq!(
            object_path(&key("", "Namespace", "", "web")),
            "_cluster/namespace_web.yaml"
        );
        assert_ne!(
            object_path(&key("extensions", "Ingress", "a", "x")),
            object_path(&key("networking.k8s.io", "Ingress", "a", "x"))
        );
    }

    #[test]
    fn no_name_can_leave_its_directory() {
        let path = object_path(&key(
            "rbac.authorization.k8s.io",
            "ClusterRole",
            "",
            "../../etc:Admin",
        ));
        assert_eq!(
            path,
            "_cluster/clusterrole.rbac.authorization.k8s.io_%2e.%2f..%2fetc%3a%41dmin.yaml"
        );
        assert_eq!(path.matches('/').count(), 1);
        assert_eq!(
            object_path(&key("", "Thing", "", ".hidden")),
            "_cluster/thing_%2ehidden.yaml"
        );
    }
}
