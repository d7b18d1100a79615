
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'fedrender' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'fedrender'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'fedrender' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('build', 'build', [CompletionResultType]::ParameterValue, 'Render the fleet into one directory per member cluster')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what a change does to the rendered fleet, per cluster and object')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Explain every placement: policies matched and why one won, clusters filtered and why, replicas and overrides per cluster')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check everything `build` checks, without rendering output')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the settings a run takes from the fleet''s Config and the flags, as JSON (for CI scripts: never read a Config with text tools)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page (roff) of fedrender, or of one of its commands')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fedrender;build' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too')
            [CompletionResult]::new('--clusters', '--clusters', [CompletionResultType]::ParameterName, 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too')
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Only read files whose path relative to INPUT matches this glob (repeatable)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Skip files whose path relative to INPUT matches this glob (repeatable)')
            [CompletionResult]::new('--tool-timeout', '--tool-timeout', [CompletionResultType]::ParameterName, 'How long one tool (kustomize, helm, a command) may run before it and everything it started are killed: seconds, or with a unit (`90s`, `10m`)')
            [CompletionResult]::new('--max-tool-output', '--max-tool-output', [CompletionResultType]::ParameterName, 'How much one tool may print before it is killed: bytes, or with a unit (`512Mi`, `1Gi`)')
            [CompletionResult]::new('--kustomize', '--kustomize', [CompletionResultType]::ParameterName, 'The command that builds kustomize directories, split on spaces; the directory is appended (default: `kustomize build`, else `kubectl kustomize`)')
            [CompletionResult]::new('--kubernetes-version', '--kubernetes-version', [CompletionResultType]::ParameterName, 'Check objects against this Kubernetes version: `1.36` for every cluster (an upgrade''s "what if"), `NAME=1.36` for one (repeatable). Otherwise each cluster''s status.kubernetesVersion, else the Config''s spec.kubernetesVersion, else the newest version fedrender knows')
            [CompletionResult]::new('--karmada-version', '--karmada-version', [CompletionResultType]::ParameterName, 'Judge policies by this Karmada release (`1.19`): fields and values its CRDs refuse are errors, features behind its gates that are off are warnings. Otherwise the Config''s spec.karmada.version, else the newest release fedrender knows')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'A file or directory of CustomResourceDefinitions (e.g. the output of `kubectl get crds -o yaml`) to check custom resources against, besides the CRDs in the fleet (repeatable)')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Make a lint''s warnings errors (repeatable; `--help` lists the lints)')
            [CompletionResult]::new('--warn', '--warn', [CompletionResultType]::ParameterName, 'Report a lint''s warnings as warnings, even under --strict or a Config that denies or allows it (repeatable)')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Silence a lint (repeatable)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core). The output does not depend on it')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core). The output does not depend on it')
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are printed on standard error')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'Only this cluster, or the clusters this glob matches (repeatable; a cluster matching any is kept). A build touches only these clusters'' directories')
            [CompletionResult]::new('--cluster-selector', '--cluster-selector', [CompletionResultType]::ParameterName, 'Only clusters whose labels match this Kubernetes label selector (`region=eu,tier in (prod,staging),!legacy`); with --cluster, both must hold')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output directory: one subdirectory per member cluster (default: the fleet Config''s spec.output)')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Output directory: one subdirectory per member cluster (default: the fleet Config''s spec.output)')
            [CompletionResult]::new('--gitops', '--gitops', [CompletionResultType]::ParameterName, 'Also write, under OUT/_gitops, the objects that deploy every tree: an Argo CD ApplicationSet, or a Flux GitRepository and a Kustomization per cluster')
            [CompletionResult]::new('--gitops-repo', '--gitops-repo', [CompletionResultType]::ParameterName, 'The Git repository that holds the output, as Argo CD or Flux clone it')
            [CompletionResult]::new('--gitops-revision', '--gitops-revision', [CompletionResultType]::ParameterName, 'The branch (Flux) or revision (Argo CD) to deploy')
            [CompletionResult]::new('--gitops-path', '--gitops-path', [CompletionResultType]::ParameterName, 'The output directory''s path in the repository (default: --out as given, if relative)')
            [CompletionResult]::new('--at-replicas', '--at-replicas', [CompletionResultType]::ParameterName, 'Render (or plan, or diff) every workload a FederatedHPA scales at that end of its bounds (minReplicas or maxReplicas), divided by the scheduler as Karmada divides the rescaled template')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Render (or plan, or diff) the fleet as the CronFederatedHPAs leave it at this time (RFC 3339 with an offset): each rule''s last firing at or before it, in the rule''s time zone; each FederatedHPA then holds its target within its bounds of that time')
            [CompletionResult]::new('--allow-exec', '--allow-exec', [CompletionResultType]::ParameterName, 'Let sources declared with a command (fedrender-source.yaml `spec.command`) run, and a kustomize command the fleet''s Config names. Off by default: a pull request could otherwise run code in CI')
            [CompletionResult]::new('--allow-network', '--allow-network', [CompletionResultType]::ParameterName, 'Let kustomizations name remote bases and URLs, and Helm declarations value files on the network. Off by default: fedrender renders offline')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat every warning as an error, except lints given another level by name')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what each stage is doing, and show every warning instead of the first few of each lint')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what each stage is doing, and show every warning instead of the first few of each lint')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Render and compare with --out, changing nothing: exit 1 and list stale, missing and extra files when the output is not up to date')
            [CompletionResult]::new('--stdout', '--stdout', [CompletionResultType]::ParameterName, 'Write the whole render to standard output as one YAML stream instead of a tree')
            [CompletionResult]::new('--gitops-member-hpas', '--gitops-member-hpas', [CompletionResultType]::ParameterName, 'Keep each FederatedHPA''s autoscaling under GitOps: a HorizontalPodAutoscaler on each member its workload goes to, its bounds the scheduler''s division of the FederatedHPA''s, under OUT/_gitops/autoscaling/<cluster>, and the workload''s spec.replicas left to it (also the Config''s spec.gitops.memberHPAs)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fedrender;diff' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too')
            [CompletionResult]::new('--clusters', '--clusters', [CompletionResultType]::ParameterName, 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too')
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Only read files whose path relative to INPUT matches this glob (repeatable)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Skip files whose path relative to INPUT matches this glob (repeatable)')
            [CompletionResult]::new('--tool-timeout', '--tool-timeout', [CompletionResultType]::ParameterName, 'How long one tool (kustomize, helm, a command) may run before it and everything it started are killed: seconds, or with a unit (`90s`, `10m`)')
            [CompletionResult]::new('--max-tool-output', '--max-tool-output', [CompletionResultType]::ParameterName, 'How much one tool may print before it is killed: bytes, or with a unit (`512Mi`, `1Gi`)')
            [CompletionResult]::new('--kustomize', '--kustomize', [CompletionResultType]::ParameterName, 'The command that builds kustomize directories, split on spaces; the directory is appended (default: `kustomize build`, else `kubectl kustomize`)')
            [CompletionResult]::new('--kubernetes-version', '--kubernetes-version', [CompletionResultType]::ParameterName, 'Check objects against this Kubernetes version: `1.36` for every cluster (an upgrade''s "what if"), `NAME=1.36` for one (repeatable). Otherwise each cluster''s status.kubernetesVersion, else the Config''s spec.kubernetesVersion, else the newest version fedrender knows')
            [CompletionResult]::new('--karmada-version', '--karmada-version', [CompletionResultType]::ParameterName, 'Judge policies by this Karmada release (`1.19`): fields and values its CRDs refuse are errors, features behind its gates that are off are warnings. Otherwise the Config''s spec.karmada.version, else the newest release fedrender knows')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'A file or directory of CustomResourceDefinitions (e.g. the output of `kubectl get crds -o yaml`) to check custom resources against, besides the CRDs in the fleet (repeatable)')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Make a lint''s warnings errors (repeatable; `--help` lists the lints)')
            [CompletionResult]::new('--warn', '--warn', [CompletionResultType]::ParameterName, 'Report a lint''s warnings as warnings, even under --strict or a Config that denies or allows it (repeatable)')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Silence a lint (repeatable)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core). The output does not depend on it')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core). The output does not depend on it')
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are printed on standard error')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'Only this cluster, or the clusters this glob matches (repeatable; a cluster matching any is kept). A build touches only these clusters'' directories')
            [CompletionResult]::new('--cluster-selector', '--cluster-selector', [CompletionResultType]::ParameterName, 'Only clusters whose labels match this Kubernetes label selector (`region=eu,tier in (prod,staging),!legacy`); with --cluster, both must hold')
            [CompletionResult]::new('--against', '--against', [CompletionResultType]::ParameterName, 'Compare with a rendered tree (e.g. the committed output directory)')
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'Compare with another input directory, rendered too (e.g. a checkout of the target branch)')
            [CompletionResult]::new('--base-clusters', '--base-clusters', [CompletionResultType]::ParameterName, 'Inventory of the base (default: the same as --clusters)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How the change is printed')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'The heading of the Markdown comment (and `title` in JSON), e.g. the pull request''s')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Largest Markdown output, in bytes; what does not fit is left out with a note')
            [CompletionResult]::new('--ignore-field', '--ignore-field', [CompletionResultType]::ParameterName, 'Hide a changed object whose only differences are at this field, for the objects named (GROUP, KIND, NAMESPACE, NAME are globs; a pointer segment `*` matches any key or index); the report counts what each rule hid (repeatable)')
            [CompletionResult]::new('--ignore-resource', '--ignore-resource', [CompletionResultType]::ParameterName, 'Hide every change to the objects named (globs; GROUP:KIND:NAME for a cluster-scoped one); the report counts what each rule hid (repeatable)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the unified diff (auto: on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE colours a pipe too)')
            [CompletionResult]::new('--at-replicas', '--at-replicas', [CompletionResultType]::ParameterName, 'Render (or plan, or diff) every workload a FederatedHPA scales at that end of its bounds (minReplicas or maxReplicas), divided by the scheduler as Karmada divides the rescaled template')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Render (or plan, or diff) the fleet as the CronFederatedHPAs leave it at this time (RFC 3339 with an offset): each rule''s last firing at or before it, in the rule''s time zone; each FederatedHPA then holds its target within its bounds of that time')
            [CompletionResult]::new('--allow-exec', '--allow-exec', [CompletionResultType]::ParameterName, 'Let sources declared with a command (fedrender-source.yaml `spec.command`) run, and a kustomize command the fleet''s Config names. Off by default: a pull request could otherwise run code in CI')
            [CompletionResult]::new('--allow-network', '--allow-network', [CompletionResultType]::ParameterName, 'Let kustomizations name remote bases and URLs, and Helm declarations value files on the network. Off by default: fedrender renders offline')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat every warning as an error, except lints given another level by name')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what each stage is doing, and show every warning instead of the first few of each lint')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what each stage is doing, and show every warning instead of the first few of each lint')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show Secret data values instead of redacting them')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fedrender;plan' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too')
            [CompletionResult]::new('--clusters', '--clusters', [CompletionResultType]::ParameterName, 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too')
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Only read files whose path relative to INPUT matches this glob (repeatable)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Skip files whose path relative to INPUT matches this glob (repeatable)')
            [CompletionResult]::new('--tool-timeout', '--tool-timeout', [CompletionResultType]::ParameterName, 'How long one tool (kustomize, helm, a command) may run before it and everything it started are killed: seconds, or with a unit (`90s`, `10m`)')
            [CompletionResult]::new('--max-tool-output', '--max-tool-output', [CompletionResultType]::ParameterName, 'How much one tool may print before it is killed: bytes, or with a unit (`512Mi`, `1Gi`)')
            [CompletionResult]::new('--kustomize', '--kustomize', [CompletionResultType]::ParameterName, 'The command that builds kustomize directories, split on spaces; the directory is appended (default: `kustomize build`, else `kubectl kustomize`)')
            [CompletionResult]::new('--kubernetes-version', '--kubernetes-version', [CompletionResultType]::ParameterName, 'Check objects against this Kubernetes version: `1.36` for every cluster (an upgrade''s "what if"), `NAME=1.36` for one (repeatable). Otherwise each cluster''s status.kubernetesVersion, else the Config''s spec.kubernetesVersion, else the newest version fedrender knows')
            [CompletionResult]::new('--karmada-version', '--karmada-version', [CompletionResultType]::ParameterName, 'Judge policies by this Karmada release (`1.19`): fields and values its CRDs refuse are errors, features behind its gates that are off are warnings. Otherwise the Config''s spec.karmada.version, else the newest release fedrender knows')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'A file or directory of CustomResourceDefinitions (e.g. the output of `kubectl get crds -o yaml`) to check custom resources against, besides the CRDs in the fleet (repeatable)')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Make a lint''s warnings errors (repeatable; `--help` lists the lints)')
            [CompletionResult]::new('--warn', '--warn', [CompletionResultType]::ParameterName, 'Report a lint''s warnings as warnings, even under --strict or a Config that denies or allows it (repeatable)')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Silence a lint (repeatable)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core). The output does not depend on it')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core). The output does not depend on it')
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are printed on standard error')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'text: why each template went where it went; table and markdown: the objects × clusters matrix; json: everything, for tools')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'Only this cluster, or the clusters this glob matches (repeatable; a cluster matching any is kept). A build touches only these clusters'' directories')
            [CompletionResult]::new('--cluster-selector', '--cluster-selector', [CompletionResultType]::ParameterName, 'Only clusters whose labels match this Kubernetes label selector (`region=eu,tier in (prod,staging),!legacy`); with --cluster, both must hold')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only templates of this kind (case-insensitive)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Only templates with this name')
            [CompletionResult]::new('--at-replicas', '--at-replicas', [CompletionResultType]::ParameterName, 'Render (or plan, or diff) every workload a FederatedHPA scales at that end of its bounds (minReplicas or maxReplicas), divided by the scheduler as Karmada divides the rescaled template')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Render (or plan, or diff) the fleet as the CronFederatedHPAs leave it at this time (RFC 3339 with an offset): each rule''s last firing at or before it, in the rule''s time zone; each FederatedHPA then holds its target within its bounds of that time')
            [CompletionResult]::new('--allow-exec', '--allow-exec', [CompletionResultType]::ParameterName, 'Let sources declared with a command (fedrender-source.yaml `spec.command`) run, and a kustomize command the fleet''s Config names. Off by default: a pull request could otherwise run code in CI')
            [CompletionResult]::new('--allow-network', '--allow-network', [CompletionResultType]::ParameterName, 'Let kustomizations name remote bases and URLs, and Helm declarations value files on the network. Off by default: fedrender renders offline')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat every warning as an error, except lints given another level by name')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what each stage is doing, and show every warning instead of the first few of each lint')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what each stage is doing, and show every warning instead of the first few of each lint')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fedrender;validate' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too')
            [CompletionResult]::new('--clusters', '--clusters', [CompletionResultType]::ParameterName, 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too')
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Only read files whose path relative to INPUT matches this glob (repeatable)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Skip files whose path relative to INPUT matches this glob (repeatable)')
            [CompletionResult]::new('--tool-timeout', '--tool-timeout', [CompletionResultType]::ParameterName, 'How long one tool (kustomize, helm, a command) may run before it and everything it started are killed: seconds, or with a unit (`90s`, `10m`)')
            [CompletionResult]::new('--max-tool-output', '--max-tool-output', [CompletionResultType]::ParameterName, 'How much one tool may print before it is killed: bytes, or with a unit (`512Mi`, `1Gi`)')
            [CompletionResult]::new('--kustomize', '--kustomize', [CompletionResultType]::ParameterName, 'The command that builds kustomize directories, split on spaces; the directory is appended (default: `kustomize build`, else `kubectl kustomize`)')
            [CompletionResult]::new('--kubernetes-version', '--kubernetes-version', [CompletionResultType]::ParameterName, 'Check objects against this Kubernetes version: `1.36` for every cluster (an upgrade''s "what if"), `NAME=1.36` for one (repeatable). Otherwise each cluster''s status.kubernetesVersion, else the Config''s spec.kubernetesVersion, else the newest version fedrender knows')
            [CompletionResult]::new('--karmada-version', '--karmada-version', [CompletionResultType]::ParameterName, 'Judge policies by this Karmada release (`1.19`): fields and values its CRDs refuse are errors, features behind its gates that are off are warnings. Otherwise the Config''s spec.karmada.version, else the newest release fedrender knows')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'A file or directory of CustomResourceDefinitions (e.g. the output of `kubectl get crds -o yaml`) to check custom resources against, besides the CRDs in the fleet (repeatable)')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Make a lint''s warnings errors (repeatable; `--help` lists the lints)')
            [CompletionResult]::new('--warn', '--warn', [CompletionResultType]::ParameterName, 'Report a lint''s warnings as warnings, even under --strict or a Config that denies or allows it (repeatable)')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Silence a lint (repeatable)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core). The output does not depend on it')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core). The output does not depend on it')
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are printed on standard error')
            [CompletionResult]::new('--allow-exec', '--allow-exec', [CompletionResultType]::ParameterName, 'Let sources declared with a command (fedrender-source.yaml `spec.command`) run, and a kustomize command the fleet''s Config names. Off by default: a pull request could otherwise run code in CI')
            [CompletionResult]::new('--allow-network', '--allow-network', [CompletionResultType]::ParameterName, 'Let kustomizations name remote bases and URLs, and Helm declarations value files on the network. Off by default: fedrender renders offline')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat every warning as an error, except lints given another level by name')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what each stage is doing, and show every warning instead of the first few of each lint')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what each stage is doing, and show every warning instead of the first few of each lint')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fedrender;config' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Inventory of Karmada Cluster objects, in place of the Config''s `spec.clusters`')
            [CompletionResult]::new('--clusters', '--clusters', [CompletionResultType]::ParameterName, 'Inventory of Karmada Cluster objects, in place of the Config''s `spec.clusters`')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'build''s output directory, in place of the Config''s `spec.output`')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'build''s output directory, in place of the Config''s `spec.output`')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Make a lint''s warnings errors (repeatable)')
            [CompletionResult]::new('--warn', '--warn', [CompletionResultType]::ParameterName, 'Report a lint''s warnings as warnings (repeatable)')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Silence a lint (repeatable)')
            [CompletionResult]::new('--ignore-field', '--ignore-field', [CompletionResultType]::ParameterName, 'diff''s --ignore-field, added to the Config''s rules (repeatable)')
            [CompletionResult]::new('--ignore-resource', '--ignore-resource', [CompletionResultType]::ParameterName, 'diff''s --ignore-resource, added to the Config''s rules (repeatable)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core). The output does not depend on it')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Worker threads (default: one per core). The output does not depend on it')
            [CompletionResult]::new('--message-format', '--message-format', [CompletionResultType]::ParameterName, 'How errors and warnings are printed on standard error')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat every warning as an error, except lints given another level by name')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say what each stage is doing, and show every warning instead of the first few of each lint')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say what each stage is doing, and show every warning instead of the first few of each lint')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fedrender;completions' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'fedrender;man' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'fedrender;help' {
            [CompletionResult]::new('build', 'build', [CompletionResultType]::ParameterValue, 'Render the fleet into one directory per member cluster')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what a change does to the rendered fleet, per cluster and object')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Explain every placement: policies matched and why one won, clusters filtered and why, replicas and overrides per cluster')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check everything `build` checks, without rendering output')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the settings a run takes from the fleet''s Config and the flags, as JSON (for CI scripts: never read a Config with text tools)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page (roff) of fedrender, or of one of its commands')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fedrender;help;build' {
            break
        }
        'fedrender;help;diff' {
            break
        }
        'fedrender;help;plan' {
            break
        }
        'fedrender;help;validate' {
            break
        }
        'fedrender;help;config' {
            break
        }
        'fedrender;help;completions' {
            break
        }
        'fedrender;help;man' {
            break
        }
        'fedrender;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
