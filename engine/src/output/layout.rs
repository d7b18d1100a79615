//! Where each object lives in the output tree: `<cluster>/<namespace>/<kind>.<group>_<name>.yaml`,
//! cluster-scoped objects under `<cluster>/_cluster/`. Stable, readable, unique across API
//! groups, and safe: no object name can make a path leave its cluster directory.

use crate::object::ObjectKey;

/// The directory of cluster-scoped objects. Namespace names cannot start with `_`, so it never
/// collides with a namespace directory.
pub(crate) const CLUSTER_SCOPED_DIR: &str = "_cluster";

pub(crate) const KUSTOMIZATION_FILE: &str = "kustomization.yaml";

/// The path of an object's file relative to its cluster directory. The first `_` separates
/// `<kind>.<group>` (which cannot contain `_`) from the name, so two objects never share a file.
pub(crate) fn object_path(key: &ObjectKey) -> String {
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
    let stem = format!("{}_{}", escape(&type_name), escape(&key.name));
    format!("{}/{}", escape(directory), file_name(&stem))
}

/// The longest file name fedrender writes: file systems allow 255 bytes, and a file is
/// written under a staging name 15 bytes longer (`.NAME.fedrender-tmp`) before it is renamed.
pub(crate) const LONGEST_FILE_NAME: usize = 240;

/// How many bytes of a long file name each directory of its split form holds.
const PIECE: usize = 200;

/// `<stem>.yaml`, or, when that is longer than [`LONGEST_FILE_NAME`] (a 253-character name with
/// a long kind and group), the stem cut into pieces of [`PIECE`] bytes joined by `~/~`:
/// `<piece>~/~<piece>~/~<piece>.yaml`. Escaped stems never contain `~`, so a split name can
/// meet neither an unsplit one (its directories end in `~`) nor another split name (removing
/// the `~`s and slashes gives back the stem); and since escaped stems never start with `.`
/// and later pieces start with `~`, no piece is a hidden file.
fn file_name(stem: &str) -> String {
    const EXTENSION: &str = ".yaml";
    if stem.len() + EXTENSION.len() <= LONGEST_FILE_NAME {
        return format!("{stem}{EXTENSION}");
    }
    let pieces: Vec<&str> = stem
        .as_bytes()
        .chunks(PIECE)
        .map(|piece| std::str::from_utf8(piece).expect("escaped names are ASCII"))
        .collect();
    format!("{}{EXTENSION}", pieces.join("~/~"))
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

    #[test]
    fn a_name_too_long_for_one_file_name_is_split_into_directories() {
        // A 253-character name (Kubernetes' longest) of a kind with a long group.
        let name = format!("{}.{}", "a".repeat(126), "b".repeat(126));
        let group = format!("{}.example.com", "g".repeat(40));
        let path = object_path(&key(&group, "Widget", "ns", &name));
        let stem = format!("widget.{group}_{name}");
        let (directory, rest) = path.split_once('/').unwrap();
        assert_eq!(directory, "ns");
        assert!(
            rest.split('/')
                .all(|piece| !piece.is_empty() && piece.len() <= LONGEST_FILE_NAME),
            "{path}"
        );
        assert!(
            rest.split('/').all(|piece| !piece.starts_with('.')),
            "{path}"
        );
        let joined = rest.strip_suffix(".yaml").unwrap().replace("~/~", "");
        assert_eq!(joined, stem, "the pieces join back into the name");
        assert_eq!(rest.matches("~/~").count(), stem.len() / PIECE);

        // Just short enough: one file; one byte more: split.
        let fits = "n".repeat(LONGEST_FILE_NAME - "configmap_.yaml".len());
        assert_eq!(
            object_path(&key("", "ConfigMap", "ns", &fits)),
            format!("ns/configmap_{fits}.yaml")
        );
        let longer = format!("{fits}n");
        assert!(object_path(&key("", "ConfigMap", "ns", &longer)).contains("~/~"));
    }
}
