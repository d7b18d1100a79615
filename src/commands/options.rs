//! The flags every command shares, validated into the options the shell and the engine take:
//! where the fleet and its inventory are, how its tools run, the lint levels, the output
//! directory, the GitOps wiring. Every path the command line names is checked to stay inside the
//! repository fedrender runs in.

use std::path::PathBuf;

use fedrender_engine::cluster_filter::ClusterFilter;
use fedrender_engine::diagnostics::Rejected;
use fedrender_engine::lint::{Level, Lint, LintLevels};
use fedrender_engine::output::gitops::GitopsSettings;
use fedrender_engine::run::Options;

use crate::cli::{BuildArgs, ClusterArgs, GitopsTool, InputArgs};
use crate::source::command_defaults::CommandDefaults;
use crate::source::fleet::{FleetSource, Inventory, ToolOptions};

impl InputArgs {
    /// The lint levels the flags ask for. A lint given two levels is a usage error: which one
    /// wins would depend on flag order.
    pub fn lint_levels(&self) -> Result<LintLevels, String> {
        lint_levels(self.strict, &self.deny, &self.warn, &self.allow)
    }

    /// The validated fleet source and the engine's options, as every command that reads a
    /// fleet needs.
    pub fn fleet_source_and_options(
        &self,
        defaults: &CommandDefaults,
    ) -> Result<(FleetSource, Options), String> {
        Ok((self.fleet_source(defaults)?, self.options()?))
    }

    /// [`fleet_source_and_options`](Self::fleet_source_and_options) with the Config's
    /// `defaults` already read, emitting the clusters `clusters` selects.
    pub fn fleet_source_and_options_for(
        &self,
        clusters: &ClusterArgs,
        defaults: &CommandDefaults,
    ) -> Result<(FleetSource, Options), String> {
        let source = self.fleet_source(defaults)?;
        let options = Options {
            clusters: clusters.filter()?,
            ..self.options()?
        };
        Ok((source, options))
    }

    /// What the flags tell the engine: lint levels and the versions objects and policies are
    /// judged by.
    pub fn options(&self) -> Result<Options, String> {
        Ok(Options {
            lints: self.lint_levels()?,
            kubernetes_versions: self.kubernetes_version.clone(),
            karmada_version: self.karmada_version.clone(),
            ..Options::default()
        })
    }

    /// The validated fleet source, the inventory from the Config when not given.
    pub fn fleet_source(&self, defaults: &CommandDefaults) -> Result<FleetSource, String> {
        let source = source(
            &self.input,
            self.clusters.as_ref().or(defaults.clusters.as_ref()),
            &self.include,
            &self.exclude,
            self.tool_options()?,
        )?;
        for path in &self.crds {
            confined("--crds", path)?;
        }
        Ok(FleetSource {
            crds: self.crds.clone(),
            ..source
        })
    }

    /// What the fleet's Config says in place of flags; its errors are the fleet's, each at its
    /// line, reported as a run's are.
    pub fn defaults(&self) -> Result<CommandDefaults, Rejected> {
        crate::source::command_defaults::command_defaults(&self.input)
    }

    /// How sources a tool renders are run.
    pub fn tool_options(&self) -> Result<ToolOptions, String> {
        let kustomize = match &self.kustomize {
            None => None,
            Some(command) => {
                let argv: Vec<String> = command.split_whitespace().map(String::from).collect();
                if argv.is_empty() {
                    return Err("--kustomize needs a command, e.g. \"kustomize build\"".into());
                }
                Some(argv)
            }
        };
        Ok(ToolOptions {
            allow_exec: self.allow_exec,
            allow_network: self.allow_network,
            limits: crate::source::run::Limits {
                timeout: self.tool_timeout,
                max_output: self.max_tool_output,
            },
            kustomize,
            cache: Default::default(),
        })
    }
}

impl crate::cli::MomentArgs {
    /// The moment the autoscalers are rendered at: `--at-replicas`, `--at`.
    pub fn moment(&self) -> fedrender_engine::run::Moment {
        use fedrender_engine::run::EnvelopeEnd;
        fedrender_engine::run::Moment {
            end: self.at_replicas.map(|end| match end {
                crate::cli::AtReplicas::Min => EnvelopeEnd::Min,
                crate::cli::AtReplicas::Max => EnvelopeEnd::Max,
            }),
            at: self.at,
        }
    }
}

impl BuildArgs {
    /// The output directory: `--out`, else the fleet Config's `spec.output`.
    pub fn output(&self, defaults: &CommandDefaults) -> Result<Option<PathBuf>, String> {
        if self.stdout {
            return Ok(None);
        }
        match self.out.clone().or(defaults.output.clone()) {
            Some(out) => {
                confined("--out", &out)?;
                Ok(Some(out))
            }
            None => Err(
                "build needs --out DIR (or spec.output in the fleet's Config), or --stdout"
                    .to_string(),
            ),
        }
    }

    /// The GitOps wiring asked for, validated: the command line's, else the fleet Config's.
    pub fn gitops_settings(
        &self,
        defaults: &CommandDefaults,
    ) -> Result<Option<GitopsSettings>, String> {
        let filtered =
            !(self.clusters.names.is_empty() && self.clusters.cluster_selector.is_none());
        let Some(tool) = self.gitops else {
            let unwired = || match self.gitops_member_hpas {
                true => Err(
                    "--gitops-member-hpas keeps the FederatedHPAs in the GitOps wiring: \
                     give --gitops (or the Config's spec.gitops) and build every cluster to a tree"
                        .to_string(),
                ),
                false => Ok(None),
            };
            let Some(config) = &defaults.gitops else {
                return unwired();
            };
            // A Config that always wires the trees leaves shards and streams alone.
            if filtered || self.stdout {
                return unwired();
            }
            return Ok(Some(GitopsSettings {
                tool: config.tool,
                repo_url: config.repo_url.clone(),
                revision: config
                    .revision
                    .clone()
                    .unwrap_or_else(|| "main".to_string()),
                // Normalised and checked where the Config was read.
                path: config.path.clone(),
                member_hpas: self.gitops_member_hpas || config.member_hpas,
            }));
        };
        if filtered {
            return Err(
                "--gitops lists every cluster, so it needs a build of all of them: leave out \
                 --cluster and --cluster-selector"
                    .to_string(),
            );
        }
        let path = match (&self.gitops_path, &self.out) {
            (Some(path), _) => path.clone(),
            (None, Some(out)) if out.is_relative() => out
                .to_string_lossy()
                .trim_start_matches("./")
                .trim_end_matches('/')
                .to_string(),
            _ => {
                return Err(
                    "--gitops-path: the output directory's path in the repository is needed \
                     when --out is absolute"
                        .to_string(),
                );
            }
        };
        let path = crate::confine::repository_path(&path)
            .map_err(|problem| format!("--gitops-path {path}: {problem}"))?;
        Ok(Some(GitopsSettings {
            tool: match tool {
                GitopsTool::Argocd => fedrender_engine::output::gitops::GitopsTool::ArgoCd,
                GitopsTool::Flux => fedrender_engine::output::gitops::GitopsTool::Flux,
            },
            repo_url: self.gitops_repo.clone().unwrap_or_default(),
            revision: self.gitops_revision.clone(),
            path,
            member_hpas: self.gitops_member_hpas
                || defaults
                    .gitops
                    .as_ref()
                    .is_some_and(|config| config.member_hpas),
        }))
    }
}

impl ClusterArgs {
    pub fn filter(&self) -> Result<ClusterFilter, String> {
        ClusterFilter::new(&self.names, self.cluster_selector.as_deref())
    }
}

/// The lint levels `--strict`, `--deny`, `--warn` and `--allow` ask for. A lint given two
/// levels is a usage error: which one wins would depend on flag order.
pub fn lint_levels(
    strict: bool,
    deny: &[String],
    warn: &[String],
    allow: &[String],
) -> Result<LintLevels, String> {
    let mut levels = LintLevels {
        strict,
        ..LintLevels::default()
    };
    for (names, level, flag) in [
        (deny, Level::Deny, "deny"),
        (warn, Level::Warn, "warn"),
        (allow, Level::Allow, "allow"),
    ] {
        for name in names {
            let lint = Lint::parse(name)?;
            if let Some(other) = levels.named.insert(lint, level)
                && other != level
            {
                return Err(format!(
                    "--{flag} {lint}: the lint is also given level {other}; give each lint one level"
                ));
            }
        }
    }
    Ok(levels)
}

/// A path the command line names, checked: inside the repository fedrender runs in, no link
/// the pull request committed may lead it out.
pub fn confined(flag: &str, path: &std::path::Path) -> Result<(), String> {
    crate::confine::Confinement::working_repository()
        .and_then(|repository| repository.check_named(path))
        .map_err(|problem| format!("{flag} {}: {problem}", path.display()))
}

/// A fleet source from raw flags.
pub fn source(
    input: &std::path::Path,
    clusters: Option<&PathBuf>,
    include: &[String],
    exclude: &[String],
    tools: ToolOptions,
) -> Result<FleetSource, String> {
    let patterns = |globs: &[String], flag: &str| {
        globs
            .iter()
            .map(|glob| {
                glob::Pattern::new(glob).map_err(|error| format!("--{flag} {glob:?}: {error}"))
            })
            .collect::<Result<Vec<_>, _>>()
    };
    if input.as_os_str() != "-" {
        confined("FLEET_DIR", input)?;
    }
    if let Some(clusters) = clusters.filter(|path| path.as_os_str() != "-") {
        confined("--clusters", clusters)?;
    }
    let inventory = match clusters {
        None => Inventory::InputOnly,
        Some(path) if path.as_os_str() == "-" => Inventory::Stdin,
        Some(path) => Inventory::File(path.clone()),
    };
    Ok(FleetSource {
        input: input.to_path_buf(),
        inventory,
        include: patterns(include, "include")?,
        exclude: patterns(exclude, "exclude")?,
        tools,
        crds: Vec::new(),
    })
}
