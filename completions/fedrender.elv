
use builtin;
use str;

set edit:completion:arg-completer[fedrender] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'fedrender'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'fedrender'= {
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand build 'Render the fleet into one directory per member cluster'
            cand diff 'Show what a change does to the rendered fleet, per cluster and object'
            cand plan 'Explain every placement: policies matched and why one won, clusters filtered and why, replicas and overrides per cluster'
            cand validate 'Check everything `build` checks, without rendering output'
            cand config 'Print the settings a run takes from the fleet''s Config and the flags, as JSON (for CI scripts: never read a Config with text tools)'
            cand completions 'Print a shell completion script'
            cand man 'Print the manual page (roff) of fedrender, or of one of its commands'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fedrender;build'= {
            cand -c 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too'
            cand --clusters 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too'
            cand --include 'Only read files whose path relative to INPUT matches this glob (repeatable)'
            cand --exclude 'Skip files whose path relative to INPUT matches this glob (repeatable)'
            cand --tool-timeout 'How long one tool (kustomize, helm, a command) may run before it and everything it started are killed: seconds, or with a unit (`90s`, `10m`)'
            cand --max-tool-output 'How much one tool may print before it is killed: bytes, or with a unit (`512Mi`, `1Gi`)'
            cand --kustomize 'The command that builds kustomize directories, split on spaces; the directory is appended (default: `kustomize build`, else `kubectl kustomize`)'
            cand --kubernetes-version 'Check objects against this Kubernetes version: `1.36` for every cluster (an upgrade''s "what if"), `NAME=1.36` for one (repeatable). Otherwise each cluster''s status.kubernetesVersion, else the Config''s spec.kubernetesVersion, else the newest version fedrender knows'
            cand --karmada-version 'Judge policies by this Karmada release (`1.19`): fields and values its CRDs refuse are errors, features behind its gates that are off are warnings. Otherwise the Config''s spec.karmada.version, else the newest release fedrender knows'
            cand --crds 'A file or directory of CustomResourceDefinitions (e.g. the output of `kubectl get crds -o yaml`) to check custom resources against, besides the CRDs in the fleet (repeatable)'
            cand --deny 'Make a lint''s warnings errors (repeatable; `--help` lists the lints)'
            cand --warn 'Report a lint''s warnings as warnings, even under --strict or a Config that denies or allows it (repeatable)'
            cand --allow 'Silence a lint (repeatable)'
            cand -j 'Worker threads (default: one per core). The output does not depend on it'
            cand --jobs 'Worker threads (default: one per core). The output does not depend on it'
            cand --message-format 'How errors and warnings are printed on standard error'
            cand --cluster 'Only this cluster, or the clusters this glob matches (repeatable; a cluster matching any is kept). A build touches only these clusters'' directories'
            cand --cluster-selector 'Only clusters whose labels match this Kubernetes label selector (`region=eu,tier in (prod,staging),!legacy`); with --cluster, both must hold'
            cand -o 'Output directory: one subdirectory per member cluster (default: the fleet Config''s spec.output)'
            cand --out 'Output directory: one subdirectory per member cluster (default: the fleet Config''s spec.output)'
            cand --gitops 'Also write, under OUT/_gitops, the objects that deploy every tree: an Argo CD ApplicationSet, or a Flux GitRepository and a Kustomization per cluster'
            cand --gitops-repo 'The Git repository that holds the output, as Argo CD or Flux clone it'
            cand --gitops-revision 'The branch (Flux) or revision (Argo CD) to deploy'
            cand --gitops-path 'The output directory''s path in the repository (default: --out as given, if relative)'
            cand --at-replicas 'Render (or plan, or diff) every workload a FederatedHPA scales at that end of its bounds (minReplicas or maxReplicas), divided by the scheduler as Karmada divides the rescaled template'
            cand --at 'Render (or plan, or diff) the fleet as the CronFederatedHPAs leave it at this time (RFC 3339 with an offset): each rule''s last firing at or before it, in the rule''s time zone; each FederatedHPA then holds its target within its bounds of that time'
            cand --allow-exec 'Let sources declared with a command (fedrender-source.yaml `spec.command`) run, and a kustomize command the fleet''s Config names. Off by default: a pull request could otherwise run code in CI'
            cand --allow-network 'Let kustomizations name remote bases and URLs, and Helm declarations value files on the network. Off by default: fedrender renders offline'
            cand --strict 'Treat every warning as an error, except lints given another level by name'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say what each stage is doing, and show every warning instead of the first few of each lint'
            cand --verbose 'Say what each stage is doing, and show every warning instead of the first few of each lint'
            cand --check 'Render and compare with --out, changing nothing: exit 1 and list stale, missing and extra files when the output is not up to date'
            cand --stdout 'Write the whole render to standard output as one YAML stream instead of a tree'
            cand --gitops-member-hpas 'Keep each FederatedHPA''s autoscaling under GitOps: a HorizontalPodAutoscaler on each member its workload goes to, its bounds the scheduler''s division of the FederatedHPA''s, under OUT/_gitops/autoscaling/<cluster>, and the workload''s spec.replicas left to it (also the Config''s spec.gitops.memberHPAs)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fedrender;diff'= {
            cand -c 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too'
            cand --clusters 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too'
            cand --include 'Only read files whose path relative to INPUT matches this glob (repeatable)'
            cand --exclude 'Skip files whose path relative to INPUT matches this glob (repeatable)'
            cand --tool-timeout 'How long one tool (kustomize, helm, a command) may run before it and everything it started are killed: seconds, or with a unit (`90s`, `10m`)'
            cand --max-tool-output 'How much one tool may print before it is killed: bytes, or with a unit (`512Mi`, `1Gi`)'
            cand --kustomize 'The command that builds kustomize directories, split on spaces; the directory is appended (default: `kustomize build`, else `kubectl kustomize`)'
            cand --kubernetes-version 'Check objects against this Kubernetes version: `1.36` for every cluster (an upgrade''s "what if"), `NAME=1.36` for one (repeatable). Otherwise each cluster''s status.kubernetesVersion, else the Config''s spec.kubernetesVersion, else the newest version fedrender knows'
            cand --karmada-version 'Judge policies by this Karmada release (`1.19`): fields and values its CRDs refuse are errors, features behind its gates that are off are warnings. Otherwise the Config''s spec.karmada.version, else the newest release fedrender knows'
            cand --crds 'A file or directory of CustomResourceDefinitions (e.g. the output of `kubectl get crds -o yaml`) to check custom resources against, besides the CRDs in the fleet (repeatable)'
            cand --deny 'Make a lint''s warnings errors (repeatable; `--help` lists the lints)'
            cand --warn 'Report a lint''s warnings as warnings, even under --strict or a Config that denies or allows it (repeatable)'
            cand --allow 'Silence a lint (repeatable)'
            cand -j 'Worker threads (default: one per core). The output does not depend on it'
            cand --jobs 'Worker threads (default: one per core). The output does not depend on it'
            cand --message-format 'How errors and warnings are printed on standard error'
            cand --cluster 'Only this cluster, or the clusters this glob matches (repeatable; a cluster matching any is kept). A build touches only these clusters'' directories'
            cand --cluster-selector 'Only clusters whose labels match this Kubernetes label selector (`region=eu,tier in (prod,staging),!legacy`); with --cluster, both must hold'
            cand --against 'Compare with a rendered tree (e.g. the committed output directory)'
            cand --base 'Compare with another input directory, rendered too (e.g. a checkout of the target branch)'
            cand --base-clusters 'Inventory of the base (default: the same as --clusters)'
            cand --format 'How the change is printed'
            cand --title 'The heading of the Markdown comment (and `title` in JSON), e.g. the pull request''s'
            cand --max-bytes 'Largest Markdown output, in bytes; what does not fit is left out with a note'
            cand --ignore-field 'Hide a changed object whose only differences are at this field, for the objects named (GROUP, KIND, NAMESPACE, NAME are globs; a pointer segment `*` matches any key or index); the report counts what each rule hid (repeatable)'
            cand --ignore-resource 'Hide every change to the objects named (globs; GROUP:KIND:NAME for a cluster-scoped one); the report counts what each rule hid (repeatable)'
            cand --color 'Colour the unified diff (auto: on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE colours a pipe too)'
            cand --at-replicas 'Render (or plan, or diff) every workload a FederatedHPA scales at that end of its bounds (minReplicas or maxReplicas), divided by the scheduler as Karmada divides the rescaled template'
            cand --at 'Render (or plan, or diff) the fleet as the CronFederatedHPAs leave it at this time (RFC 3339 with an offset): each rule''s last firing at or before it, in the rule''s time zone; each FederatedHPA then holds its target within its bounds of that time'
            cand --allow-exec 'Let sources declared with a command (fedrender-source.yaml `spec.command`) run, and a kustomize command the fleet''s Config names. Off by default: a pull request could otherwise run code in CI'
            cand --allow-network 'Let kustomizations name remote bases and URLs, and Helm declarations value files on the network. Off by default: fedrender renders offline'
            cand --strict 'Treat every warning as an error, except lints given another level by name'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say what each stage is doing, and show every warning instead of the first few of each lint'
            cand --verbose 'Say what each stage is doing, and show every warning instead of the first few of each lint'
            cand --show-secrets 'Show Secret data values instead of redacting them'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fedrender;plan'= {
            cand -c 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too'
            cand --clusters 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too'
            cand --include 'Only read files whose path relative to INPUT matches this glob (repeatable)'
            cand --exclude 'Skip files whose path relative to INPUT matches this glob (repeatable)'
            cand --tool-timeout 'How long one tool (kustomize, helm, a command) may run before it and everything it started are killed: seconds, or with a unit (`90s`, `10m`)'
            cand --max-tool-output 'How much one tool may print before it is killed: bytes, or with a unit (`512Mi`, `1Gi`)'
            cand --kustomize 'The command that builds kustomize directories, split on spaces; the directory is appended (default: `kustomize build`, else `kubectl kustomize`)'
            cand --kubernetes-version 'Check objects against this Kubernetes version: `1.36` for every cluster (an upgrade''s "what if"), `NAME=1.36` for one (repeatable). Otherwise each cluster''s status.kubernetesVersion, else the Config''s spec.kubernetesVersion, else the newest version fedrender knows'
            cand --karmada-version 'Judge policies by this Karmada release (`1.19`): fields and values its CRDs refuse are errors, features behind its gates that are off are warnings. Otherwise the Config''s spec.karmada.version, else the newest release fedrender knows'
            cand --crds 'A file or directory of CustomResourceDefinitions (e.g. the output of `kubectl get crds -o yaml`) to check custom resources against, besides the CRDs in the fleet (repeatable)'
            cand --deny 'Make a lint''s warnings errors (repeatable; `--help` lists the lints)'
            cand --warn 'Report a lint''s warnings as warnings, even under --strict or a Config that denies or allows it (repeatable)'
            cand --allow 'Silence a lint (repeatable)'
            cand -j 'Worker threads (default: one per core). The output does not depend on it'
            cand --jobs 'Worker threads (default: one per core). The output does not depend on it'
            cand --message-format 'How errors and warnings are printed on standard error'
            cand --format 'text: why each template went where it went; table and markdown: the objects × clusters matrix; json: everything, for tools'
            cand --cluster 'Only this cluster, or the clusters this glob matches (repeatable; a cluster matching any is kept). A build touches only these clusters'' directories'
            cand --cluster-selector 'Only clusters whose labels match this Kubernetes label selector (`region=eu,tier in (prod,staging),!legacy`); with --cluster, both must hold'
            cand --kind 'Only templates of this kind (case-insensitive)'
            cand --name 'Only templates with this name'
            cand --at-replicas 'Render (or plan, or diff) every workload a FederatedHPA scales at that end of its bounds (minReplicas or maxReplicas), divided by the scheduler as Karmada divides the rescaled template'
            cand --at 'Render (or plan, or diff) the fleet as the CronFederatedHPAs leave it at this time (RFC 3339 with an offset): each rule''s last firing at or before it, in the rule''s time zone; each FederatedHPA then holds its target within its bounds of that time'
            cand --allow-exec 'Let sources declared with a command (fedrender-source.yaml `spec.command`) run, and a kustomize command the fleet''s Config names. Off by default: a pull request could otherwise run code in CI'
            cand --allow-network 'Let kustomizations name remote bases and URLs, and Helm declarations value files on the network. Off by default: fedrender renders offline'
            cand --strict 'Treat every warning as an error, except lints given another level by name'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say what each stage is doing, and show every warning instead of the first few of each lint'
            cand --verbose 'Say what each stage is doing, and show every warning instead of the first few of each lint'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fedrender;validate'= {
            cand -c 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too'
            cand --clusters 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too'
            cand --include 'Only read files whose path relative to INPUT matches this glob (repeatable)'
            cand --exclude 'Skip files whose path relative to INPUT matches this glob (repeatable)'
            cand --tool-timeout 'How long one tool (kustomize, helm, a command) may run before it and everything it started are killed: seconds, or with a unit (`90s`, `10m`)'
            cand --max-tool-output 'How much one tool may print before it is killed: bytes, or with a unit (`512Mi`, `1Gi`)'
            cand --kustomize 'The command that builds kustomize directories, split on spaces; the directory is appended (default: `kustomize build`, else `kubectl kustomize`)'
            cand --kubernetes-version 'Check objects against this Kubernetes version: `1.36` for every cluster (an upgrade''s "what if"), `NAME=1.36` for one (repeatable). Otherwise each cluster''s status.kubernetesVersion, else the Config''s spec.kubernetesVersion, else the newest version fedrender knows'
            cand --karmada-version 'Judge policies by this Karmada release (`1.19`): fields and values its CRDs refuse are errors, features behind its gates that are off are warnings. Otherwise the Config''s spec.karmada.version, else the newest release fedrender knows'
            cand --crds 'A file or directory of CustomResourceDefinitions (e.g. the output of `kubectl get crds -o yaml`) to check custom resources against, besides the CRDs in the fleet (repeatable)'
            cand --deny 'Make a lint''s warnings errors (repeatable; `--help` lists the lints)'
            cand --warn 'Report a lint''s warnings as warnings, even under --strict or a Config that denies or allows it (repeatable)'
            cand --allow 'Silence a lint (repeatable)'
            cand -j 'Worker threads (default: one per core). The output does not depend on it'
            cand --jobs 'Worker threads (default: one per core). The output does not depend on it'
            cand --message-format 'How errors and warnings are printed on standard error'
            cand --allow-exec 'Let sources declared with a command (fedrender-source.yaml `spec.command`) run, and a kustomize command the fleet''s Config names. Off by default: a pull request could otherwise run code in CI'
            cand --allow-network 'Let kustomizations name remote bases and URLs, and Helm declarations value files on the network. Off by default: fedrender renders offline'
            cand --strict 'Treat every warning as an error, except lints given another level by name'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say what each stage is doing, and show every warning instead of the first few of each lint'
            cand --verbose 'Say what each stage is doing, and show every warning instead of the first few of each lint'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fedrender;config'= {
            cand -c 'Inventory of Karmada Cluster objects, in place of the Config''s `spec.clusters`'
            cand --clusters 'Inventory of Karmada Cluster objects, in place of the Config''s `spec.clusters`'
            cand -o 'build''s output directory, in place of the Config''s `spec.output`'
            cand --out 'build''s output directory, in place of the Config''s `spec.output`'
            cand --deny 'Make a lint''s warnings errors (repeatable)'
            cand --warn 'Report a lint''s warnings as warnings (repeatable)'
            cand --allow 'Silence a lint (repeatable)'
            cand --ignore-field 'diff''s --ignore-field, added to the Config''s rules (repeatable)'
            cand --ignore-resource 'diff''s --ignore-resource, added to the Config''s rules (repeatable)'
            cand -j 'Worker threads (default: one per core). The output does not depend on it'
            cand --jobs 'Worker threads (default: one per core). The output does not depend on it'
            cand --message-format 'How errors and warnings are printed on standard error'
            cand --strict 'Treat every warning as an error, except lints given another level by name'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say what each stage is doing, and show every warning instead of the first few of each lint'
            cand --verbose 'Say what each stage is doing, and show every warning instead of the first few of each lint'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fedrender;completions'= {
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'fedrender;man'= {
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'fedrender;help'= {
            cand build 'Render the fleet into one directory per member cluster'
            cand diff 'Show what a change does to the rendered fleet, per cluster and object'
            cand plan 'Explain every placement: policies matched and why one won, clusters filtered and why, replicas and overrides per cluster'
            cand validate 'Check everything `build` checks, without rendering output'
            cand config 'Print the settings a run takes from the fleet''s Config and the flags, as JSON (for CI scripts: never read a Config with text tools)'
            cand completions 'Print a shell completion script'
            cand man 'Print the manual page (roff) of fedrender, or of one of its commands'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fedrender;help;build'= {
        }
        &'fedrender;help;diff'= {
        }
        &'fedrender;help;plan'= {
        }
        &'fedrender;help;validate'= {
        }
        &'fedrender;help;config'= {
        }
        &'fedrender;help;completions'= {
        }
        &'fedrender;help;man'= {
        }
        &'fedrender;help;help'= {
        }
    ]
    $completions[$command]
}
