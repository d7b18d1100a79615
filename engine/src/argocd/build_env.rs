//! The build environment Argo CD's repo server gives a source (reposerver `newEnv`) and its
//! `Envsubst`, which expands `$VAR` and `${VAR}` in Helm parameters, value file paths and
//! kustomize images and labels.

/// The variables the repo server sets for a build, but the revision's, which only a clone
/// knows: fedrender renders a checkout, and refuses a reference to them by name.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildEnv {
    variables: Vec<(&'static str, String)>,
}

/// The variables that name the commit Argo CD renders.
const REVISION_VARIABLES: [&str; 3] = [
    "ARGOCD_APP_REVISION",
    "ARGOCD_APP_REVISION_SHORT",
    "ARGOCD_APP_REVISION_SHORT_8",
];

/// What one source's build environment is made of.
pub struct BuildEnvOf<'a> {
    /// The instance name: the Application's name, `NAMESPACE_NAME` for one outside Argo
    /// CD's own namespace (argo `InstanceName`).
    pub app_name: &'a str,
    /// The destination namespace.
    pub namespace: &'a str,
    /// The project.
    pub project: &'a str,
    /// The source's `repoURL`.
    pub repo_url: &'a str,
    /// The source's `path`.
    pub path: &'a str,
    /// The source's `targetRevision`.
    pub target_revision: &'a str,
}

impl BuildEnv {
    /// The environment of one source's build.
    pub fn new(of: BuildEnvOf) -> Self {
        BuildEnv {
            variables: vec![
                ("ARGOCD_APP_NAME", of.app_name.to_string()),
                ("ARGOCD_APP_NAMESPACE", of.namespace.to_string()),
                ("ARGOCD_APP_PROJECT_NAME", of.project.to_string()),
                ("ARGOCD_APP_SOURCE_REPO_URL", of.repo_url.to_string()),
                ("ARGOCD_APP_SOURCE_PATH", of.path.to_string()),
                (
                    "ARGOCD_APP_SOURCE_TARGET_REVISION",
                    of.target_revision.to_string(),
                ),
            ],
        }
    }

    /// `text` with its variables expanded as Go's `os.Expand` expands them with Argo CD's
    /// mapping: `$$` is `$`, a variable the build does not set is empty, and invalid syntax
    /// (`${}`, an unclosed `${`) is dropped. A revision variable is an error naming it.
    pub fn envsubst(&self, text: &str) -> Result<String, String> {
        let bytes = text.as_bytes();
        let mut expanded = String::with_capacity(text.len());
        let mut copied = 0;
        let mut at = 0;
        while at < bytes.len() {
            if bytes[at] != b'$' || at + 1 >= bytes.len() {
                at += 1;
                continue;
            }
            expanded.push_str(&text[copied..at]);
            let (name, width) = shell_name(&text[at + 1..]);
            match name {
                None if width > 0 => {}
                None => expanded.push('$'),
                Some("$") => expanded.push('$'),
                Some(name) => expanded.push_str(&self.value(name)?),
            }
            at += width + 1;
            copied = at;
        }
        expanded.push_str(&text[copied..]);
        Ok(expanded)
    }

    fn value(&self, name: &str) -> Result<String, String> {
        if REVISION_VARIABLES.contains(&name) {
            return Err(format!(
                "${name} is the commit Argo CD renders, which fedrender, rendering a checkout, \
                 does not know"
            ));
        }
        Ok(self
            .variables
            .iter()
            .find(|(variable, _)| *variable == name)
            .map(|(_, value)| value.clone())
            .unwrap_or_default())
    }
}

/// The name after a `$` and how many bytes it takes, as Go's `os.getShellName` reads it:
/// `None` with a width for invalid syntax to drop, `None` with none for a lone `$`.
fn shell_name(rest: &str) -> (Option<&str>, usize) {
    let bytes = rest.as_bytes();
    let special = |byte: u8| b"*#$@!?-0123456789".contains(&byte);
    if bytes[0] == b'{' {
        if bytes.len() > 2 && special(bytes[1]) && bytes[2] == b'}' {
            return (Some(&rest[1..2]), 3);
        }
        return match bytes[1..].iter().position(|&byte| byte == b'}') {
            Some(0) => (None, 2),
            Some(end) => (Some(&rest[1..end + 1]), end + 2),
            None => (None, 1),
        };
    }
    if special(bytes[0]) {
        return (Some(&rest[..1]), 1);
    }
    let end = bytes
        .iter()
        .position(|&byte| !(byte == b'_' || byte.is_ascii_alphanumeric()))
        .unwrap_or(bytes.len());
    match end {
        0 => (None, 0),
        end => (Some(&rest[..end]), end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> BuildEnv {
        BuildEnv::new(BuildEnvOf {
            app_name: "guestbook",
            namespace: "shop",
            project: "default",
            repo_url: "https://github.com/example/apps.git",
            path: "guestbook",
            target_revision: "HEAD",
        })
    }

    // argo-cd pkg/apis/application/v1alpha1/types.go `Env.Envsubst` over Go's os.Expand
    // (os/env_test.go TestExpand's cases): `$X` and `${X}`, `$$` kept as `$`, unknown names
    // empty, `${}` and an unclosed `${` dropped, a `$` at the end kept.
    #[test]
    fn variables_expand_as_os_expand_with_argo_cds_mapping() {
        let env = env();
        let cases = [
            ("$ARGOCD_APP_NAME", "guestbook"),
            ("${ARGOCD_APP_NAMESPACE}-x", "shop-x"),
            ("img:$ARGOCD_APP_SOURCE_TARGET_REVISION", "img:HEAD"),
            ("$$ARGOCD_APP_NAME", "$ARGOCD_APP_NAME"),
            ("cost $", "cost $"),
            ("$UNKNOWN-a", "-a"),
            ("a${}b", "ab"),
            ("a${b", "ab"),
            ("$1x", "x"),
            ("$-", ""),
            ("no variables", "no variables"),
            ("$ space", "$ space"),
        ];
        for (text, expected) in cases {
            assert_eq!(env.envsubst(text).unwrap(), expected, "{text}");
        }
    }

    #[test]
    fn a_revision_variable_is_refused_by_name() {
        let error = env()
            .envsubst("app:${ARGOCD_APP_REVISION_SHORT}")
            .unwrap_err();
        assert!(error.contains("$ARGOCD_APP_REVISION_SHORT"), "{error}");
    }
}
