//! The `apiVersion` and `kind` every object begins with (`metav1.TypeMeta`), and the syntax the
//! API server can serve: exactly as strict as Kubernetes' own rule for a group, version and kind
//! (k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go, which "matches
//! the APIService group field validation" and a CustomResourceDefinition's
//! `spec.names.kind`): a group is a DNS subdomain, a version a DNS-1035 label, and a kind, once
//! lowercased, a DNS-1035 label. Nothing else can be served, so nothing else is an object; and a
//! kind or apiVersion holding a line break, a backtick, `::`, `<` or `|` never reaches a message,
//! a log line or a review comment.

/// What is wrong with `kind`, if anything: `None` when the API server could serve it.
pub fn kind_problem(kind: &str) -> Option<String> {
    (!is_dns_1035_label(&kind.to_ascii_lowercase())).then(|| {
        "a kind is a letter followed by letters, digits and '-', not ending in '-', at most 63 \
         characters (CamelCase: Deployment, PropagationPolicy)"
            .to_string()
    })
}

/// What is wrong with `api_version`, if anything: `None` when the API server could serve it.
/// `version` is the core group's, `group/version` another's; as `schema.ParseGroupVersion`
/// reads it, `/version` is the core group's too.
pub fn api_version_problem(api_version: &str) -> Option<String> {
    let (group, version) = match api_version.split_once('/') {
        None => ("", api_version),
        Some((_, version)) if version.contains('/') => {
            return Some(
                "an apiVersion is `version` or `group/version`, with one '/' at most".into(),
            );
        }
        Some((group, version)) => (group, version),
    };
    if !group.is_empty()
        && let Some(problem) = crate::names::dns_subdomain_problem(group)
    {
        return Some(format!("its group {} {problem}", shown(group)));
    }
    if version.is_empty() {
        return Some("it names no version (v1, v1beta1)".to_string());
    }
    (!is_dns_1035_label(version)).then(|| {
        format!(
            "its version {} is not a lowercase letter followed by lowercase letters, digits and \
             '-', not ending in '-', at most 63 characters (v1, v1beta1)",
            shown(version)
        )
    })
}

/// `text` quoted as Rust writes a string (every control character escaped, so it cannot
/// break a line), cut to 64 characters.
pub fn shown(text: &str) -> String {
    const SHOWN: usize = 64;
    match text.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{:?}…", &text[..end]),
        None => format!("{text:?}"),
    }
}

/// k8s.io/apimachinery pkg/util/validation `IsDNS1035Label`: at most 63 characters, lowercase
/// letters, digits and '-', starting with a letter and ending with a letter or digit.
fn is_dns_1035_label(label: &str) -> bool {
    label.len() <= 63
        && label.starts_with(|c: char| c.is_ascii_lowercase())
        && !label.ends_with('-')
        && label
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_the_api_server_can_serve() {
        for kind in [
            "Deployment",
            "ClusterPropagationPolicy",
            "deployment",
            "My-Kind",
            "V1Thing2",
            "X",
            "HorizontalPodAutoscaler",
        ] {
            assert_eq!(kind_problem(kind), None, "{kind}");
        }
        for kind in [
            "Foo\n::warning::x",
            "::warning file=a::b",
            "Deploy`ment`",
            "a::b",
            "<script>",
            "A|B",
            "Foo Bar",
            "9Lives",
            "Trailing-",
            "Dotted.Kind",
            "Snake_Case",
            "Ünïcode",
            &"K".repeat(64),
        ] {
            assert!(kind_problem(kind).is_some(), "{kind:?}");
        }
    }

    #[test]
    fn api_versions_the_api_server_can_serve() {
        for api_version in [
            "v1",
            "apps/v1",
            "policy.karmada.io/v1alpha1",
            "autoscaling/v2beta2",
            "example.io/v1",
            "example.io/stable",
            "example.io/v1-preview",
            "/v1",
            "x/v2",
        ] {
            assert_eq!(api_version_problem(api_version), None, "{api_version}");
        }
        for (api_version, expected) in [
            ("apps/v1/x", "one '/' at most"),
            ("Apps/v1", "its group \"Apps\" must be a DNS subdomain"),
            (
                "apps/V1",
                "its version \"V1\" is not a lowercase letter followed",
            ),
            ("apps/1", "its version \"1\""),
            ("apps/", "names no version"),
            ("/", "names no version"),
            ("v1\n::error::x", "its version \"v1\\n::error::x\""),
            ("apps/v1`", "its version \"v1`\""),
            ("-apps/v1", "its group \"-apps\""),
            ("a..b/v1", "its group \"a..b\""),
        ] {
            let problem = api_version_problem(api_version).unwrap_or_default();
            assert!(problem.contains(expected), "{api_version:?}: {problem}");
        }
    }

    #[test]
    fn values_are_shown_on_one_line_and_cut() {
        assert_eq!(shown("a\nb"), "\"a\\nb\"");
        assert_eq!(shown(&"é".repeat(70)), format!("{:?}…", "é".repeat(64)));
    }
}
