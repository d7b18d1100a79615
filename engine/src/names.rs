//! Kubernetes' rules for names, label keys and label values
//! (k8s.io/apimachinery pkg/util/validation/validation.go).

pub(crate) fn dns_label_problem(name: &str) -> Option<String> {
    if name.is_empty() || name.len() > 63 {
        return Some("must be 1 to 63 characters".to_string());
    }
    let valid = name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.starts_with('-')
        && !name.ends_with('-');
    (!valid).then(|| {
        "must consist of lowercase letters, digits and '-', and start and end with a letter or digit"
            .to_string()
    })
}

/// What is wrong with `name` as a DNS subdomain (RFC 1123: Kubernetes' object names), or `None`.
pub fn dns_subdomain_problem(name: &str) -> Option<String> {
    if name.is_empty() || name.len() > 253 {
        return Some("must be 1 to 253 characters".to_string());
    }
    let valid = name.split('.').all(|part| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && !part.starts_with('-')
            && !part.ends_with('-')
    });
    (!valid).then(|| {
        "must be a DNS subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit"
            .to_string()
    })
}

pub(crate) fn path_segment_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("must not be empty".to_string());
    }
    if name == "." || name == ".." {
        return Some(format!("may not be '{name}'"));
    }
    name.contains(['/', '%'])
        .then(|| "may not contain '/' or '%'".to_string())
}

/// A label key or annotation key: an optional DNS-subdomain prefix and `/`, then a name of at
/// most 63 characters of `[A-Za-z0-9._-]` starting and ending with a letter or digit.
pub(crate) fn qualified_name_problem(key: &str) -> Option<String> {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix
        && let Some(problem) = dns_subdomain_problem(prefix)
    {
        return Some(format!("prefix {prefix:?} {problem}"));
    }
    if name.is_empty() || name.len() > 63 {
        return Some("name part must be 1 to 63 characters".to_string());
    }
    label_characters_problem(name)
}

/// A label value: empty, or at most 63 characters of `[A-Za-z0-9._-]` starting and ending
/// with a letter or digit.
pub(crate) fn label_value_problem(value: &str) -> Option<String> {
    if value.is_empty() {
        return None;
    }
    if value.len() > 63 {
        return Some("must be at most 63 characters".to_string());
    }
    label_characters_problem(value)
}

fn label_characters_problem(text: &str) -> Option<String> {
    let valid = text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && text.starts_with(|c: char| c.is_ascii_alphanumeric())
        && text.ends_with(|c: char| c.is_ascii_alphanumeric());
    (!valid).then(|| {
        "must consist of letters, digits, '-', '_' and '.', and start and end with a letter or digit"
            .to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualified_names_and_label_values() {
        assert_eq!(qualified_name_problem("app"), None);
        assert_eq!(qualified_name_problem("example.com/tier"), None);
        assert!(qualified_name_problem("a~b").is_some());
        assert!(qualified_name_problem("Example.com/x").is_some());
        assert!(qualified_name_problem("").is_some());
        assert_eq!(label_value_problem(""), None);
        assert_eq!(label_value_problem("v1.2_3"), None);
        assert!(label_value_problem("-x").is_some());
        assert!(label_value_problem(&"a".repeat(64)).is_some());
    }
}
