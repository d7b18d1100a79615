# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_fedrender_global_optspecs
    string join \n h/help V/version
end

function __fish_fedrender_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_fedrender_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_fedrender_using_subcommand
    set -l cmd (__fish_fedrender_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c fedrender -n "__fish_fedrender_needs_command" -s h -l help -d 'Print help'
complete -c fedrender -n "__fish_fedrender_needs_command" -s V -l version -d 'Print version'
complete -c fedrender -n "__fish_fedrender_needs_command" -f -a "build" -d 'Render the fleet into one directory per member cluster'
complete -c fedrender -n "__fish_fedrender_needs_command" -f -a "diff" -d 'Show what a change does to the rendered fleet, per cluster and object'
complete -c fedrender -n "__fish_fedrender_needs_command" -f -a "plan" -d 'Explain every placement: policies matched and why one won, clusters filtered and why, replicas and overrides per cluster'
complete -c fedrender -n "__fish_fedrender_needs_command" -f -a "validate" -d 'Check everything `build` checks, without rendering output'
complete -c fedrender -n "__fish_fedrender_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c fedrender -n "__fish_fedrender_needs_command" -f -a "man" -d 'Print the manual page (roff) of fedrender, or of one of its commands'
complete -c fedrender -n "__fish_fedrender_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -s c -l clusters -d 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too' -r -F
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l include -d 'Only read files whose path relative to INPUT matches this glob (repeatable)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l exclude -d 'Skip files whose path relative to INPUT matches this glob (repeatable)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l tool-timeout -d 'How long one tool (kustomize, helm, a command) may run before it and everything it started are killed: seconds, or with a unit (`90s`, `10m`)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l max-tool-output -d 'How much one tool may print before it is killed: bytes, or with a unit (`512Mi`, `1Gi`)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l kustomize -d 'The command that builds kustomize directories, split on spaces; the directory is appended (default: `kustomize build`, else `kubectl kustomize`)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l kubernetes-version -d 'Check objects against this Kubernetes version: `1.36` for every cluster (an upgrade\'s "what if"), `NAME=1.36` for one (repeatable). Otherwise each cluster\'s status.kubernetesVersion, else the Config\'s spec.kubernetesVersion, else the newest version fedrender knows' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l crds -d 'A file or directory of CustomResourceDefinitions (e.g. the output of `kubectl get crds -o yaml`) to check custom resources against, besides the CRDs in the fleet (repeatable)' -r -F
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l deny -d 'Make a lint\'s warnings errors (repeatable)' -r -f -a "unknown-cluster\t'a policy, quota or preference names a cluster the inventory does not have'
targets-no-cluster\t'an override rule\'s targetCluster matches no cluster that receives the object'
overrides-nothing\t'a command or args overrider changes nothing on a template its policy selects'
selects-nothing\t'a policy or KubeFed object selects no template'
unplaced-template\t'a template no policy places, or that reaches no cluster'
unplaced-replicas\t'a ReplicaSchedulingPreference places fewer replicas than its total'
priority-tie\t'policies tie on priority for a template, so the name decides'
shadowed-policy\t'a propagation policy matches templates but another policy wins every one'
ignored-field\t'a field or annotation that Karmada, KubeFed or Federation v1 ignores'
not-modelled\t'a setting of a live control plane that fedrender does not model'
skipped-input\t'a file or directory of the input that is not read'
dependencies-not-followed\t'Karmada\'s built-in interpretation fails on a template, so its dependencies stay'
invalid-selector\t'a resource selector\'s label selector Karmada cannot convert, so it matches nothing'
undefined-namespace\t'objects are placed into a namespace that no template of the fleet defines'
schema-invalid\t'a cluster\'s API server would reject a value: wrong type, missing required field, out of range, not an allowed value'
unknown-field\t'a field a built-in kind does not have, which kubectl\'s strict field validation rejects'
pruned-field\t'a field a custom resource\'s CRD schema does not have, which the API server drops'
removed-api\t'an apiVersion a cluster\'s Kubernetes version no longer serves'
deprecated-api\t'an apiVersion a cluster serves but a later Kubernetes removes or a stabler one replaces'
unchecked-kind\t'custom resources whose CRD the run does not have, so unchecked'
assumed-kubernetes-version\t'a cluster\'s Kubernetes version is unstated (an API removed in the assumed newest is this warning) or has no schemas in fedrender, so the nearest is used'
immutable-field\t'diff: a change Kubernetes refuses on update (a selector, a StatefulSet\'s claim templates, a binding\'s roleRef), so the GitOps sync stops'
pvc-shrink\t'diff: a PersistentVolumeClaim\'s storage request made smaller, which Kubernetes refuses'
replicas-zero\t'diff: a workload going to 0 replicas on a cluster where it had some'
replica-shift\t'diff: replicas moving between clusters, each synced on its own'
pruned\t'diff: an object leaving a cluster while its template stays, which the wiring\'s prune deletes'
hpa-owns-replicas\t'diff: spec.replicas written for a workload a HorizontalPodAutoscaler scales, so the sync and the autoscaler fight'
preserved-on-deletion\t'diff: a template deleted while its policy preserves what it placed, which the wiring\'s prune deletes anyway'
plaintext-secret\t'a Secret with data or stringData in the clear (not SOPS, not sealed) is written to the tree'"
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l warn -d 'Report a lint\'s warnings as warnings, even under --strict or a Config that denies or allows it (repeatable)' -r -f -a "unknown-cluster\t'a policy, quota or preference names a cluster the inventory does not have'
targets-no-cluster\t'an override rule\'s targetCluster matches no cluster that receives the object'
overrides-nothing\t'a command or args overrider changes nothing on a template its policy selects'
selects-nothing\t'a policy or KubeFed object selects no template'
unplaced-template\t'a template no policy places, or that reaches no cluster'
unplaced-replicas\t'a ReplicaSchedulingPreference places fewer replicas than its total'
priority-tie\t'policies tie on priority for a template, so the name decides'
shadowed-policy\t'a propagation policy matches templates but another policy wins every one'
ignored-field\t'a field or annotation that Karmada, KubeFed or Federation v1 ignores'
not-modelled\t'a setting of a live control plane that fedrender does not model'
skipped-input\t'a file or directory of the input that is not read'
dependencies-not-followed\t'Karmada\'s built-in interpretation fails on a template, so its dependencies stay'
invalid-selector\t'a resource selector\'s label selector Karmada cannot convert, so it matches nothing'
undefined-namespace\t'objects are placed into a namespace that no template of the fleet defines'
schema-invalid\t'a cluster\'s API server would reject a value: wrong type, missing required field, out of range, not an allowed value'
unknown-field\t'a field a built-in kind does not have, which kubectl\'s strict field validation rejects'
pruned-field\t'a field a custom resource\'s CRD schema does not have, which the API server drops'
removed-api\t'an apiVersion a cluster\'s Kubernetes version no longer serves'
deprecated-api\t'an apiVersion a cluster serves but a later Kubernetes removes or a stabler one replaces'
unchecked-kind\t'custom resources whose CRD the run does not have, so unchecked'
assumed-kubernetes-version\t'a cluster\'s Kubernetes version is unstated (an API removed in the assumed newest is this warning) or has no schemas in fedrender, so the nearest is used'
immutable-field\t'diff: a change Kubernetes refuses on update (a selector, a StatefulSet\'s claim templates, a binding\'s roleRef), so the GitOps sync stops'
pvc-shrink\t'diff: a PersistentVolumeClaim\'s storage request made smaller, which Kubernetes refuses'
replicas-zero\t'diff: a workload going to 0 replicas on a cluster where it had some'
replica-shift\t'diff: replicas moving between clusters, each synced on its own'
pruned\t'diff: an object leaving a cluster while its template stays, which the wiring\'s prune deletes'
hpa-owns-replicas\t'diff: spec.replicas written for a workload a HorizontalPodAutoscaler scales, so the sync and the autoscaler fight'
preserved-on-deletion\t'diff: a template deleted while its policy preserves what it placed, which the wiring\'s prune deletes anyway'
plaintext-secret\t'a Secret with data or stringData in the clear (not SOPS, not sealed) is written to the tree'"
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l allow -d 'Silence a lint (repeatable)' -r -f -a "unknown-cluster\t'a policy, quota or preference names a cluster the inventory does not have'
targets-no-cluster\t'an override rule\'s targetCluster matches no cluster that receives the object'
overrides-nothing\t'a command or args overrider changes nothing on a template its policy selects'
selects-nothing\t'a policy or KubeFed object selects no template'
unplaced-template\t'a template no policy places, or that reaches no cluster'
unplaced-replicas\t'a ReplicaSchedulingPreference places fewer replicas than its total'
priority-tie\t'policies tie on priority for a template, so the name decides'
shadowed-policy\t'a propagation policy matches templates but another policy wins every one'
ignored-field\t'a field or annotation that Karmada, KubeFed or Federation v1 ignores'
not-modelled\t'a setting of a live control plane that fedrender does not model'
skipped-input\t'a file or directory of the input that is not read'
dependencies-not-followed\t'Karmada\'s built-in interpretation fails on a template, so its dependencies stay'
invalid-selector\t'a resource selector\'s label selector Karmada cannot convert, so it matches nothing'
undefined-namespace\t'objects are placed into a namespace that no template of the fleet defines'
schema-invalid\t'a cluster\'s API server would reject a value: wrong type, missing required field, out of range, not an allowed value'
unknown-field\t'a field a built-in kind does not have, which kubectl\'s strict field validation rejects'
pruned-field\t'a field a custom resource\'s CRD schema does not have, which the API server drops'
removed-api\t'an apiVersion a cluster\'s Kubernetes version no longer serves'
deprecated-api\t'an apiVersion a cluster serves but a later Kubernetes removes or a stabler one replaces'
unchecked-kind\t'custom resources whose CRD the run does not have, so unchecked'
assumed-kubernetes-version\t'a cluster\'s Kubernetes version is unstated (an API removed in the assumed newest is this warning) or has no schemas in fedrender, so the nearest is used'
immutable-field\t'diff: a change Kubernetes refuses on update (a selector, a StatefulSet\'s claim templates, a binding\'s roleRef), so the GitOps sync stops'
pvc-shrink\t'diff: a PersistentVolumeClaim\'s storage request made smaller, which Kubernetes refuses'
replicas-zero\t'diff: a workload going to 0 replicas on a cluster where it had some'
replica-shift\t'diff: replicas moving between clusters, each synced on its own'
pruned\t'diff: an object leaving a cluster while its template stays, which the wiring\'s prune deletes'
hpa-owns-replicas\t'diff: spec.replicas written for a workload a HorizontalPodAutoscaler scales, so the sync and the autoscaler fight'
preserved-on-deletion\t'diff: a template deleted while its policy preserves what it placed, which the wiring\'s prune deletes anyway'
plaintext-secret\t'a Secret with data or stringData in the clear (not SOPS, not sealed) is written to the tree'"
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -s j -l jobs -d 'Worker threads (default: one per core). The output does not depend on it' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l message-format -d 'How errors and warnings are printed on standard error' -r -f -a "human\t'Grouped by lint, with a count per lint at the end'
json\t'One JSON object per line and diagnostic'
github\t'GitHub Actions workflow commands, shown on the pull request\'s lines'"
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l cluster -d 'Only this cluster, or the clusters this glob matches (repeatable; a cluster matching any is kept). A build touches only these clusters\' directories' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l cluster-selector -d 'Only clusters whose labels match this Kubernetes label selector (`region=eu,tier in (prod,staging),!legacy`); with --cluster, both must hold' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -s o -l out -d 'Output directory: one subdirectory per member cluster (default: the fleet Config\'s spec.output)' -r -F
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l gitops -d 'Also write, under OUT/_gitops, the objects that deploy every tree: an Argo CD ApplicationSet, or a Flux GitRepository and a Kustomization per cluster' -r -f -a "argocd\t'An ApplicationSet with one Application per cluster directory'
flux\t'A GitRepository and one Kustomization per cluster, with kubeConfig secrets named `<cluster>-kubeconfig`'"
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l gitops-repo -d 'The Git repository that holds the output, as Argo CD or Flux clone it' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l gitops-revision -d 'The branch (Flux) or revision (Argo CD) to deploy' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l gitops-path -d 'The output directory\'s path in the repository (default: --out as given, if relative)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l allow-exec -d 'Let sources declared with a command (fedrender-source.yaml `spec.command`) run, and a kustomize command the fleet\'s Config names. Off by default: a pull request could otherwise run code in CI'
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l allow-network -d 'Let kustomizations name remote bases and URLs, and Helm declarations value files on the network. Off by default: fedrender renders offline'
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l strict -d 'Treat every warning as an error, except lints given another level by name'
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -s q -l quiet -d 'Print nothing but errors'
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -s v -l verbose -d 'Say what each stage is doing, and show every warning instead of the first few of each lint'
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l check -d 'Render and compare with --out, changing nothing: exit 1 and list stale, missing and extra files when the output is not up to date'
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -l stdout -d 'Write the whole render to standard output as one YAML stream instead of a tree'
complete -c fedrender -n "__fish_fedrender_using_subcommand build" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -s c -l clusters -d 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too' -r -F
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l include -d 'Only read files whose path relative to INPUT matches this glob (repeatable)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l exclude -d 'Skip files whose path relative to INPUT matches this glob (repeatable)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l tool-timeout -d 'How long one tool (kustomize, helm, a command) may run before it and everything it started are killed: seconds, or with a unit (`90s`, `10m`)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l max-tool-output -d 'How much one tool may print before it is killed: bytes, or with a unit (`512Mi`, `1Gi`)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l kustomize -d 'The command that builds kustomize directories, split on spaces; the directory is appended (default: `kustomize build`, else `kubectl kustomize`)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l kubernetes-version -d 'Check objects against this Kubernetes version: `1.36` for every cluster (an upgrade\'s "what if"), `NAME=1.36` for one (repeatable). Otherwise each cluster\'s status.kubernetesVersion, else the Config\'s spec.kubernetesVersion, else the newest version fedrender knows' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l crds -d 'A file or directory of CustomResourceDefinitions (e.g. the output of `kubectl get crds -o yaml`) to check custom resources against, besides the CRDs in the fleet (repeatable)' -r -F
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l deny -d 'Make a lint\'s warnings errors (repeatable)' -r -f -a "unknown-cluster\t'a policy, quota or preference names a cluster the inventory does not have'
targets-no-cluster\t'an override rule\'s targetCluster matches no cluster that receives the object'
overrides-nothing\t'a command or args overrider changes nothing on a template its policy selects'
selects-nothing\t'a policy or KubeFed object selects no template'
unplaced-template\t'a template no policy places, or that reaches no cluster'
unplaced-replicas\t'a ReplicaSchedulingPreference places fewer replicas than its total'
priority-tie\t'policies tie on priority for a template, so the name decides'
shadowed-policy\t'a propagation policy matches templates but another policy wins every one'
ignored-field\t'a field or annotation that Karmada, KubeFed or Federation v1 ignores'
not-modelled\t'a setting of a live control plane that fedrender does not model'
skipped-input\t'a file or directory of the input that is not read'
dependencies-not-followed\t'Karmada\'s built-in interpretation fails on a template, so its dependencies stay'
invalid-selector\t'a resource selector\'s label selector Karmada cannot convert, so it matches nothing'
undefined-namespace\t'objects are placed into a namespace that no template of the fleet defines'
schema-invalid\t'a cluster\'s API server would reject a value: wrong type, missing required field, out of range, not an allowed value'
unknown-field\t'a field a built-in kind does not have, which kubectl\'s strict field validation rejects'
pruned-field\t'a field a custom resource\'s CRD schema does not have, which the API server drops'
removed-api\t'an apiVersion a cluster\'s Kubernetes version no longer serves'
deprecated-api\t'an apiVersion a cluster serves but a later Kubernetes removes or a stabler one replaces'
unchecked-kind\t'custom resources whose CRD the run does not have, so unchecked'
assumed-kubernetes-version\t'a cluster\'s Kubernetes version is unstated (an API removed in the assumed newest is this warning) or has no schemas in fedrender, so the nearest is used'
immutable-field\t'diff: a change Kubernetes refuses on update (a selector, a StatefulSet\'s claim templates, a binding\'s roleRef), so the GitOps sync stops'
pvc-shrink\t'diff: a PersistentVolumeClaim\'s storage request made smaller, which Kubernetes refuses'
replicas-zero\t'diff: a workload going to 0 replicas on a cluster where it had some'
replica-shift\t'diff: replicas moving between clusters, each synced on its own'
pruned\t'diff: an object leaving a cluster while its template stays, which the wiring\'s prune deletes'
hpa-owns-replicas\t'diff: spec.replicas written for a workload a HorizontalPodAutoscaler scales, so the sync and the autoscaler fight'
preserved-on-deletion\t'diff: a template deleted while its policy preserves what it placed, which the wiring\'s prune deletes anyway'
plaintext-secret\t'a Secret with data or stringData in the clear (not SOPS, not sealed) is written to the tree'"
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l warn -d 'Report a lint\'s warnings as warnings, even under --strict or a Config that denies or allows it (repeatable)' -r -f -a "unknown-cluster\t'a policy, quota or preference names a cluster the inventory does not have'
targets-no-cluster\t'an override rule\'s targetCluster matches no cluster that receives the object'
overrides-nothing\t'a command or args overrider changes nothing on a template its policy selects'
selects-nothing\t'a policy or KubeFed object selects no template'
unplaced-template\t'a template no policy places, or that reaches no cluster'
unplaced-replicas\t'a ReplicaSchedulingPreference places fewer replicas than its total'
priority-tie\t'policies tie on priority for a template, so the name decides'
shadowed-policy\t'a propagation policy matches templates but another policy wins every one'
ignored-field\t'a field or annotation that Karmada, KubeFed or Federation v1 ignores'
not-modelled\t'a setting of a live control plane that fedrender does not model'
skipped-input\t'a file or directory of the input that is not read'
dependencies-not-followed\t'Karmada\'s built-in interpretation fails on a template, so its dependencies stay'
invalid-selector\t'a resource selector\'s label selector Karmada cannot convert, so it matches nothing'
undefined-namespace\t'objects are placed into a namespace that no template of the fleet defines'
schema-invalid\t'a cluster\'s API server would reject a value: wrong type, missing required field, out of range, not an allowed value'
unknown-field\t'a field a built-in kind does not have, which kubectl\'s strict field validation rejects'
pruned-field\t'a field a custom resource\'s CRD schema does not have, which the API server drops'
removed-api\t'an apiVersion a cluster\'s Kubernetes version no longer serves'
deprecated-api\t'an apiVersion a cluster serves but a later Kubernetes removes or a stabler one replaces'
unchecked-kind\t'custom resources whose CRD the run does not have, so unchecked'
assumed-kubernetes-version\t'a cluster\'s Kubernetes version is unstated (an API removed in the assumed newest is this warning) or has no schemas in fedrender, so the nearest is used'
immutable-field\t'diff: a change Kubernetes refuses on update (a selector, a StatefulSet\'s claim templates, a binding\'s roleRef), so the GitOps sync stops'
pvc-shrink\t'diff: a PersistentVolumeClaim\'s storage request made smaller, which Kubernetes refuses'
replicas-zero\t'diff: a workload going to 0 replicas on a cluster where it had some'
replica-shift\t'diff: replicas moving between clusters, each synced on its own'
pruned\t'diff: an object leaving a cluster while its template stays, which the wiring\'s prune deletes'
hpa-owns-replicas\t'diff: spec.replicas written for a workload a HorizontalPodAutoscaler scales, so the sync and the autoscaler fight'
preserved-on-deletion\t'diff: a template deleted while its policy preserves what it placed, which the wiring\'s prune deletes anyway'
plaintext-secret\t'a Secret with data or stringData in the clear (not SOPS, not sealed) is written to the tree'"
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l allow -d 'Silence a lint (repeatable)' -r -f -a "unknown-cluster\t'a policy, quota or preference names a cluster the inventory does not have'
targets-no-cluster\t'an override rule\'s targetCluster matches no cluster that receives the object'
overrides-nothing\t'a command or args overrider changes nothing on a template its policy selects'
selects-nothing\t'a policy or KubeFed object selects no template'
unplaced-template\t'a template no policy places, or that reaches no cluster'
unplaced-replicas\t'a ReplicaSchedulingPreference places fewer replicas than its total'
priority-tie\t'policies tie on priority for a template, so the name decides'
shadowed-policy\t'a propagation policy matches templates but another policy wins every one'
ignored-field\t'a field or annotation that Karmada, KubeFed or Federation v1 ignores'
not-modelled\t'a setting of a live control plane that fedrender does not model'
skipped-input\t'a file or directory of the input that is not read'
dependencies-not-followed\t'Karmada\'s built-in interpretation fails on a template, so its dependencies stay'
invalid-selector\t'a resource selector\'s label selector Karmada cannot convert, so it matches nothing'
undefined-namespace\t'objects are placed into a namespace that no template of the fleet defines'
schema-invalid\t'a cluster\'s API server would reject a value: wrong type, missing required field, out of range, not an allowed value'
unknown-field\t'a field a built-in kind does not have, which kubectl\'s strict field validation rejects'
pruned-field\t'a field a custom resource\'s CRD schema does not have, which the API server drops'
removed-api\t'an apiVersion a cluster\'s Kubernetes version no longer serves'
deprecated-api\t'an apiVersion a cluster serves but a later Kubernetes removes or a stabler one replaces'
unchecked-kind\t'custom resources whose CRD the run does not have, so unchecked'
assumed-kubernetes-version\t'a cluster\'s Kubernetes version is unstated (an API removed in the assumed newest is this warning) or has no schemas in fedrender, so the nearest is used'
immutable-field\t'diff: a change Kubernetes refuses on update (a selector, a StatefulSet\'s claim templates, a binding\'s roleRef), so the GitOps sync stops'
pvc-shrink\t'diff: a PersistentVolumeClaim\'s storage request made smaller, which Kubernetes refuses'
replicas-zero\t'diff: a workload going to 0 replicas on a cluster where it had some'
replica-shift\t'diff: replicas moving between clusters, each synced on its own'
pruned\t'diff: an object leaving a cluster while its template stays, which the wiring\'s prune deletes'
hpa-owns-replicas\t'diff: spec.replicas written for a workload a HorizontalPodAutoscaler scales, so the sync and the autoscaler fight'
preserved-on-deletion\t'diff: a template deleted while its policy preserves what it placed, which the wiring\'s prune deletes anyway'
plaintext-secret\t'a Secret with data or stringData in the clear (not SOPS, not sealed) is written to the tree'"
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -s j -l jobs -d 'Worker threads (default: one per core). The output does not depend on it' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l message-format -d 'How errors and warnings are printed on standard error' -r -f -a "human\t'Grouped by lint, with a count per lint at the end'
json\t'One JSON object per line and diagnostic'
github\t'GitHub Actions workflow commands, shown on the pull request\'s lines'"
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l cluster -d 'Only this cluster, or the clusters this glob matches (repeatable; a cluster matching any is kept). A build touches only these clusters\' directories' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l cluster-selector -d 'Only clusters whose labels match this Kubernetes label selector (`region=eu,tier in (prod,staging),!legacy`); with --cluster, both must hold' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l against -d 'Compare with a rendered tree (e.g. the committed output directory)' -r -F
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l base -d 'Compare with another input directory, rendered too (e.g. a checkout of the target branch)' -r -F
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l base-clusters -d 'Inventory of the base (default: the same as --clusters)' -r -F
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l format -r -f -a "unified\t''
markdown\t''
json\t''
stat\t''"
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l title -d 'The heading of the Markdown comment (and `title` in JSON), e.g. the pull request\'s' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l max-bytes -d 'Largest Markdown output, in bytes; what does not fit is left out with a note' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l ignore-field -d 'Hide a changed object whose only differences are at this field, for the objects named (GROUP, KIND, NAMESPACE, NAME are globs; a pointer segment `*` matches any key or index); the report counts what each rule hid (repeatable)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l ignore-resource -d 'Hide every change to the objects named (globs; GROUP:KIND:NAME for a cluster-scoped one); the report counts what each rule hid (repeatable)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l color -d 'Colour the unified diff (auto: on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE colours a pipe too)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l allow-exec -d 'Let sources declared with a command (fedrender-source.yaml `spec.command`) run, and a kustomize command the fleet\'s Config names. Off by default: a pull request could otherwise run code in CI'
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l allow-network -d 'Let kustomizations name remote bases and URLs, and Helm declarations value files on the network. Off by default: fedrender renders offline'
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l strict -d 'Treat every warning as an error, except lints given another level by name'
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -s q -l quiet -d 'Print nothing but errors'
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -s v -l verbose -d 'Say what each stage is doing, and show every warning instead of the first few of each lint'
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -l show-secrets -d 'Show Secret data values instead of redacting them'
complete -c fedrender -n "__fish_fedrender_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -s c -l clusters -d 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too' -r -F
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l include -d 'Only read files whose path relative to INPUT matches this glob (repeatable)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l exclude -d 'Skip files whose path relative to INPUT matches this glob (repeatable)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l tool-timeout -d 'How long one tool (kustomize, helm, a command) may run before it and everything it started are killed: seconds, or with a unit (`90s`, `10m`)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l max-tool-output -d 'How much one tool may print before it is killed: bytes, or with a unit (`512Mi`, `1Gi`)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l kustomize -d 'The command that builds kustomize directories, split on spaces; the directory is appended (default: `kustomize build`, else `kubectl kustomize`)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l kubernetes-version -d 'Check objects against this Kubernetes version: `1.36` for every cluster (an upgrade\'s "what if"), `NAME=1.36` for one (repeatable). Otherwise each cluster\'s status.kubernetesVersion, else the Config\'s spec.kubernetesVersion, else the newest version fedrender knows' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l crds -d 'A file or directory of CustomResourceDefinitions (e.g. the output of `kubectl get crds -o yaml`) to check custom resources against, besides the CRDs in the fleet (repeatable)' -r -F
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l deny -d 'Make a lint\'s warnings errors (repeatable)' -r -f -a "unknown-cluster\t'a policy, quota or preference names a cluster the inventory does not have'
targets-no-cluster\t'an override rule\'s targetCluster matches no cluster that receives the object'
overrides-nothing\t'a command or args overrider changes nothing on a template its policy selects'
selects-nothing\t'a policy or KubeFed object selects no template'
unplaced-template\t'a template no policy places, or that reaches no cluster'
unplaced-replicas\t'a ReplicaSchedulingPreference places fewer replicas than its total'
priority-tie\t'policies tie on priority for a template, so the name decides'
shadowed-policy\t'a propagation policy matches templates but another policy wins every one'
ignored-field\t'a field or annotation that Karmada, KubeFed or Federation v1 ignores'
not-modelled\t'a setting of a live control plane that fedrender does not model'
skipped-input\t'a file or directory of the input that is not read'
dependencies-not-followed\t'Karmada\'s built-in interpretation fails on a template, so its dependencies stay'
invalid-selector\t'a resource selector\'s label selector Karmada cannot convert, so it matches nothing'
undefined-namespace\t'objects are placed into a namespace that no template of the fleet defines'
schema-invalid\t'a cluster\'s API server would reject a value: wrong type, missing required field, out of range, not an allowed value'
unknown-field\t'a field a built-in kind does not have, which kubectl\'s strict field validation rejects'
pruned-field\t'a field a custom resource\'s CRD schema does not have, which the API server drops'
removed-api\t'an apiVersion a cluster\'s Kubernetes version no longer serves'
deprecated-api\t'an apiVersion a cluster serves but a later Kubernetes removes or a stabler one replaces'
unchecked-kind\t'custom resources whose CRD the run does not have, so unchecked'
assumed-kubernetes-version\t'a cluster\'s Kubernetes version is unstated (an API removed in the assumed newest is this warning) or has no schemas in fedrender, so the nearest is used'
immutable-field\t'diff: a change Kubernetes refuses on update (a selector, a StatefulSet\'s claim templates, a binding\'s roleRef), so the GitOps sync stops'
pvc-shrink\t'diff: a PersistentVolumeClaim\'s storage request made smaller, which Kubernetes refuses'
replicas-zero\t'diff: a workload going to 0 replicas on a cluster where it had some'
replica-shift\t'diff: replicas moving between clusters, each synced on its own'
pruned\t'diff: an object leaving a cluster while its template stays, which the wiring\'s prune deletes'
hpa-owns-replicas\t'diff: spec.replicas written for a workload a HorizontalPodAutoscaler scales, so the sync and the autoscaler fight'
preserved-on-deletion\t'diff: a template deleted while its policy preserves what it placed, which the wiring\'s prune deletes anyway'
plaintext-secret\t'a Secret with data or stringData in the clear (not SOPS, not sealed) is written to the tree'"
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l warn -d 'Report a lint\'s warnings as warnings, even under --strict or a Config that denies or allows it (repeatable)' -r -f -a "unknown-cluster\t'a policy, quota or preference names a cluster the inventory does not have'
targets-no-cluster\t'an override rule\'s targetCluster matches no cluster that receives the object'
overrides-nothing\t'a command or args overrider changes nothing on a template its policy selects'
selects-nothing\t'a policy or KubeFed object selects no template'
unplaced-template\t'a template no policy places, or that reaches no cluster'
unplaced-replicas\t'a ReplicaSchedulingPreference places fewer replicas than its total'
priority-tie\t'policies tie on priority for a template, so the name decides'
shadowed-policy\t'a propagation policy matches templates but another policy wins every one'
ignored-field\t'a field or annotation that Karmada, KubeFed or Federation v1 ignores'
not-modelled\t'a setting of a live control plane that fedrender does not model'
skipped-input\t'a file or directory of the input that is not read'
dependencies-not-followed\t'Karmada\'s built-in interpretation fails on a template, so its dependencies stay'
invalid-selector\t'a resource selector\'s label selector Karmada cannot convert, so it matches nothing'
undefined-namespace\t'objects are placed into a namespace that no template of the fleet defines'
schema-invalid\t'a cluster\'s API server would reject a value: wrong type, missing required field, out of range, not an allowed value'
unknown-field\t'a field a built-in kind does not have, which kubectl\'s strict field validation rejects'
pruned-field\t'a field a custom resource\'s CRD schema does not have, which the API server drops'
removed-api\t'an apiVersion a cluster\'s Kubernetes version no longer serves'
deprecated-api\t'an apiVersion a cluster serves but a later Kubernetes removes or a stabler one replaces'
unchecked-kind\t'custom resources whose CRD the run does not have, so unchecked'
assumed-kubernetes-version\t'a cluster\'s Kubernetes version is unstated (an API removed in the assumed newest is this warning) or has no schemas in fedrender, so the nearest is used'
immutable-field\t'diff: a change Kubernetes refuses on update (a selector, a StatefulSet\'s claim templates, a binding\'s roleRef), so the GitOps sync stops'
pvc-shrink\t'diff: a PersistentVolumeClaim\'s storage request made smaller, which Kubernetes refuses'
replicas-zero\t'diff: a workload going to 0 replicas on a cluster where it had some'
replica-shift\t'diff: replicas moving between clusters, each synced on its own'
pruned\t'diff: an object leaving a cluster while its template stays, which the wiring\'s prune deletes'
hpa-owns-replicas\t'diff: spec.replicas written for a workload a HorizontalPodAutoscaler scales, so the sync and the autoscaler fight'
preserved-on-deletion\t'diff: a template deleted while its policy preserves what it placed, which the wiring\'s prune deletes anyway'
plaintext-secret\t'a Secret with data or stringData in the clear (not SOPS, not sealed) is written to the tree'"
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l allow -d 'Silence a lint (repeatable)' -r -f -a "unknown-cluster\t'a policy, quota or preference names a cluster the inventory does not have'
targets-no-cluster\t'an override rule\'s targetCluster matches no cluster that receives the object'
overrides-nothing\t'a command or args overrider changes nothing on a template its policy selects'
selects-nothing\t'a policy or KubeFed object selects no template'
unplaced-template\t'a template no policy places, or that reaches no cluster'
unplaced-replicas\t'a ReplicaSchedulingPreference places fewer replicas than its total'
priority-tie\t'policies tie on priority for a template, so the name decides'
shadowed-policy\t'a propagation policy matches templates but another policy wins every one'
ignored-field\t'a field or annotation that Karmada, KubeFed or Federation v1 ignores'
not-modelled\t'a setting of a live control plane that fedrender does not model'
skipped-input\t'a file or directory of the input that is not read'
dependencies-not-followed\t'Karmada\'s built-in interpretation fails on a template, so its dependencies stay'
invalid-selector\t'a resource selector\'s label selector Karmada cannot convert, so it matches nothing'
undefined-namespace\t'objects are placed into a namespace that no template of the fleet defines'
schema-invalid\t'a cluster\'s API server would reject a value: wrong type, missing required field, out of range, not an allowed value'
unknown-field\t'a field a built-in kind does not have, which kubectl\'s strict field validation rejects'
pruned-field\t'a field a custom resource\'s CRD schema does not have, which the API server drops'
removed-api\t'an apiVersion a cluster\'s Kubernetes version no longer serves'
deprecated-api\t'an apiVersion a cluster serves but a later Kubernetes removes or a stabler one replaces'
unchecked-kind\t'custom resources whose CRD the run does not have, so unchecked'
assumed-kubernetes-version\t'a cluster\'s Kubernetes version is unstated (an API removed in the assumed newest is this warning) or has no schemas in fedrender, so the nearest is used'
immutable-field\t'diff: a change Kubernetes refuses on update (a selector, a StatefulSet\'s claim templates, a binding\'s roleRef), so the GitOps sync stops'
pvc-shrink\t'diff: a PersistentVolumeClaim\'s storage request made smaller, which Kubernetes refuses'
replicas-zero\t'diff: a workload going to 0 replicas on a cluster where it had some'
replica-shift\t'diff: replicas moving between clusters, each synced on its own'
pruned\t'diff: an object leaving a cluster while its template stays, which the wiring\'s prune deletes'
hpa-owns-replicas\t'diff: spec.replicas written for a workload a HorizontalPodAutoscaler scales, so the sync and the autoscaler fight'
preserved-on-deletion\t'diff: a template deleted while its policy preserves what it placed, which the wiring\'s prune deletes anyway'
plaintext-secret\t'a Secret with data or stringData in the clear (not SOPS, not sealed) is written to the tree'"
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -s j -l jobs -d 'Worker threads (default: one per core). The output does not depend on it' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l message-format -d 'How errors and warnings are printed on standard error' -r -f -a "human\t'Grouped by lint, with a count per lint at the end'
json\t'One JSON object per line and diagnostic'
github\t'GitHub Actions workflow commands, shown on the pull request\'s lines'"
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l format -d 'text: why each template went where it went; table and markdown: the objects × clusters matrix; json: everything, for tools' -r -f -a "text\t'Why every template went where it went'
table\t'The objects × clusters matrix: replicas, ✓ for other objects, · where absent'
markdown\t'The matrix as a Markdown table'
json\t''"
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l cluster -d 'Only this cluster, or the clusters this glob matches (repeatable; a cluster matching any is kept). A build touches only these clusters\' directories' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l cluster-selector -d 'Only clusters whose labels match this Kubernetes label selector (`region=eu,tier in (prod,staging),!legacy`); with --cluster, both must hold' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l kind -d 'Only templates of this kind (case-insensitive)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l name -d 'Only templates with this name' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l allow-exec -d 'Let sources declared with a command (fedrender-source.yaml `spec.command`) run, and a kustomize command the fleet\'s Config names. Off by default: a pull request could otherwise run code in CI'
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l allow-network -d 'Let kustomizations name remote bases and URLs, and Helm declarations value files on the network. Off by default: fedrender renders offline'
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -l strict -d 'Treat every warning as an error, except lints given another level by name'
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -s q -l quiet -d 'Print nothing but errors'
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -s v -l verbose -d 'Say what each stage is doing, and show every warning instead of the first few of each lint'
complete -c fedrender -n "__fish_fedrender_using_subcommand plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -s c -l clusters -d 'Inventory of Karmada Cluster objects (`-` for standard input). Cluster objects inside the input directory count too' -r -F
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -l include -d 'Only read files whose path relative to INPUT matches this glob (repeatable)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -l exclude -d 'Skip files whose path relative to INPUT matches this glob (repeatable)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -l tool-timeout -d 'How long one tool (kustomize, helm, a command) may run before it and everything it started are killed: seconds, or with a unit (`90s`, `10m`)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -l max-tool-output -d 'How much one tool may print before it is killed: bytes, or with a unit (`512Mi`, `1Gi`)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -l kustomize -d 'The command that builds kustomize directories, split on spaces; the directory is appended (default: `kustomize build`, else `kubectl kustomize`)' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -l kubernetes-version -d 'Check objects against this Kubernetes version: `1.36` for every cluster (an upgrade\'s "what if"), `NAME=1.36` for one (repeatable). Otherwise each cluster\'s status.kubernetesVersion, else the Config\'s spec.kubernetesVersion, else the newest version fedrender knows' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -l crds -d 'A file or directory of CustomResourceDefinitions (e.g. the output of `kubectl get crds -o yaml`) to check custom resources against, besides the CRDs in the fleet (repeatable)' -r -F
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -l deny -d 'Make a lint\'s warnings errors (repeatable)' -r -f -a "unknown-cluster\t'a policy, quota or preference names a cluster the inventory does not have'
targets-no-cluster\t'an override rule\'s targetCluster matches no cluster that receives the object'
overrides-nothing\t'a command or args overrider changes nothing on a template its policy selects'
selects-nothing\t'a policy or KubeFed object selects no template'
unplaced-template\t'a template no policy places, or that reaches no cluster'
unplaced-replicas\t'a ReplicaSchedulingPreference places fewer replicas than its total'
priority-tie\t'policies tie on priority for a template, so the name decides'
shadowed-policy\t'a propagation policy matches templates but another policy wins every one'
ignored-field\t'a field or annotation that Karmada, KubeFed or Federation v1 ignores'
not-modelled\t'a setting of a live control plane that fedrender does not model'
skipped-input\t'a file or directory of the input that is not read'
dependencies-not-followed\t'Karmada\'s built-in interpretation fails on a template, so its dependencies stay'
invalid-selector\t'a resource selector\'s label selector Karmada cannot convert, so it matches nothing'
undefined-namespace\t'objects are placed into a namespace that no template of the fleet defines'
schema-invalid\t'a cluster\'s API server would reject a value: wrong type, missing required field, out of range, not an allowed value'
unknown-field\t'a field a built-in kind does not have, which kubectl\'s strict field validation rejects'
pruned-field\t'a field a custom resource\'s CRD schema does not have, which the API server drops'
removed-api\t'an apiVersion a cluster\'s Kubernetes version no longer serves'
deprecated-api\t'an apiVersion a cluster serves but a later Kubernetes removes or a stabler one replaces'
unchecked-kind\t'custom resources whose CRD the run does not have, so unchecked'
assumed-kubernetes-version\t'a cluster\'s Kubernetes version is unstated (an API removed in the assumed newest is this warning) or has no schemas in fedrender, so the nearest is used'
immutable-field\t'diff: a change Kubernetes refuses on update (a selector, a StatefulSet\'s claim templates, a binding\'s roleRef), so the GitOps sync stops'
pvc-shrink\t'diff: a PersistentVolumeClaim\'s storage request made smaller, which Kubernetes refuses'
replicas-zero\t'diff: a workload going to 0 replicas on a cluster where it had some'
replica-shift\t'diff: replicas moving between clusters, each synced on its own'
pruned\t'diff: an object leaving a cluster while its template stays, which the wiring\'s prune deletes'
hpa-owns-replicas\t'diff: spec.replicas written for a workload a HorizontalPodAutoscaler scales, so the sync and the autoscaler fight'
preserved-on-deletion\t'diff: a template deleted while its policy preserves what it placed, which the wiring\'s prune deletes anyway'
plaintext-secret\t'a Secret with data or stringData in the clear (not SOPS, not sealed) is written to the tree'"
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -l warn -d 'Report a lint\'s warnings as warnings, even under --strict or a Config that denies or allows it (repeatable)' -r -f -a "unknown-cluster\t'a policy, quota or preference names a cluster the inventory does not have'
targets-no-cluster\t'an override rule\'s targetCluster matches no cluster that receives the object'
overrides-nothing\t'a command or args overrider changes nothing on a template its policy selects'
selects-nothing\t'a policy or KubeFed object selects no template'
unplaced-template\t'a template no policy places, or that reaches no cluster'
unplaced-replicas\t'a ReplicaSchedulingPreference places fewer replicas than its total'
priority-tie\t'policies tie on priority for a template, so the name decides'
shadowed-policy\t'a propagation policy matches templates but another policy wins every one'
ignored-field\t'a field or annotation that Karmada, KubeFed or Federation v1 ignores'
not-modelled\t'a setting of a live control plane that fedrender does not model'
skipped-input\t'a file or directory of the input that is not read'
dependencies-not-followed\t'Karmada\'s built-in interpretation fails on a template, so its dependencies stay'
invalid-selector\t'a resource selector\'s label selector Karmada cannot convert, so it matches nothing'
undefined-namespace\t'objects are placed into a namespace that no template of the fleet defines'
schema-invalid\t'a cluster\'s API server would reject a value: wrong type, missing required field, out of range, not an allowed value'
unknown-field\t'a field a built-in kind does not have, which kubectl\'s strict field validation rejects'
pruned-field\t'a field a custom resource\'s CRD schema does not have, which the API server drops'
removed-api\t'an apiVersion a cluster\'s Kubernetes version no longer serves'
deprecated-api\t'an apiVersion a cluster serves but a later Kubernetes removes or a stabler one replaces'
unchecked-kind\t'custom resources whose CRD the run does not have, so unchecked'
assumed-kubernetes-version\t'a cluster\'s Kubernetes version is unstated (an API removed in the assumed newest is this warning) or has no schemas in fedrender, so the nearest is used'
immutable-field\t'diff: a change Kubernetes refuses on update (a selector, a StatefulSet\'s claim templates, a binding\'s roleRef), so the GitOps sync stops'
pvc-shrink\t'diff: a PersistentVolumeClaim\'s storage request made smaller, which Kubernetes refuses'
replicas-zero\t'diff: a workload going to 0 replicas on a cluster where it had some'
replica-shift\t'diff: replicas moving between clusters, each synced on its own'
pruned\t'diff: an object leaving a cluster while its template stays, which the wiring\'s prune deletes'
hpa-owns-replicas\t'diff: spec.replicas written for a workload a HorizontalPodAutoscaler scales, so the sync and the autoscaler fight'
preserved-on-deletion\t'diff: a template deleted while its policy preserves what it placed, which the wiring\'s prune deletes anyway'
plaintext-secret\t'a Secret with data or stringData in the clear (not SOPS, not sealed) is written to the tree'"
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -l allow -d 'Silence a lint (repeatable)' -r -f -a "unknown-cluster\t'a policy, quota or preference names a cluster the inventory does not have'
targets-no-cluster\t'an override rule\'s targetCluster matches no cluster that receives the object'
overrides-nothing\t'a command or args overrider changes nothing on a template its policy selects'
selects-nothing\t'a policy or KubeFed object selects no template'
unplaced-template\t'a template no policy places, or that reaches no cluster'
unplaced-replicas\t'a ReplicaSchedulingPreference places fewer replicas than its total'
priority-tie\t'policies tie on priority for a template, so the name decides'
shadowed-policy\t'a propagation policy matches templates but another policy wins every one'
ignored-field\t'a field or annotation that Karmada, KubeFed or Federation v1 ignores'
not-modelled\t'a setting of a live control plane that fedrender does not model'
skipped-input\t'a file or directory of the input that is not read'
dependencies-not-followed\t'Karmada\'s built-in interpretation fails on a template, so its dependencies stay'
invalid-selector\t'a resource selector\'s label selector Karmada cannot convert, so it matches nothing'
undefined-namespace\t'objects are placed into a namespace that no template of the fleet defines'
schema-invalid\t'a cluster\'s API server would reject a value: wrong type, missing required field, out of range, not an allowed value'
unknown-field\t'a field a built-in kind does not have, which kubectl\'s strict field validation rejects'
pruned-field\t'a field a custom resource\'s CRD schema does not have, which the API server drops'
removed-api\t'an apiVersion a cluster\'s Kubernetes version no longer serves'
deprecated-api\t'an apiVersion a cluster serves but a later Kubernetes removes or a stabler one replaces'
unchecked-kind\t'custom resources whose CRD the run does not have, so unchecked'
assumed-kubernetes-version\t'a cluster\'s Kubernetes version is unstated (an API removed in the assumed newest is this warning) or has no schemas in fedrender, so the nearest is used'
immutable-field\t'diff: a change Kubernetes refuses on update (a selector, a StatefulSet\'s claim templates, a binding\'s roleRef), so the GitOps sync stops'
pvc-shrink\t'diff: a PersistentVolumeClaim\'s storage request made smaller, which Kubernetes refuses'
replicas-zero\t'diff: a workload going to 0 replicas on a cluster where it had some'
replica-shift\t'diff: replicas moving between clusters, each synced on its own'
pruned\t'diff: an object leaving a cluster while its template stays, which the wiring\'s prune deletes'
hpa-owns-replicas\t'diff: spec.replicas written for a workload a HorizontalPodAutoscaler scales, so the sync and the autoscaler fight'
preserved-on-deletion\t'diff: a template deleted while its policy preserves what it placed, which the wiring\'s prune deletes anyway'
plaintext-secret\t'a Secret with data or stringData in the clear (not SOPS, not sealed) is written to the tree'"
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -s j -l jobs -d 'Worker threads (default: one per core). The output does not depend on it' -r
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -l message-format -d 'How errors and warnings are printed on standard error' -r -f -a "human\t'Grouped by lint, with a count per lint at the end'
json\t'One JSON object per line and diagnostic'
github\t'GitHub Actions workflow commands, shown on the pull request\'s lines'"
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -l allow-exec -d 'Let sources declared with a command (fedrender-source.yaml `spec.command`) run, and a kustomize command the fleet\'s Config names. Off by default: a pull request could otherwise run code in CI'
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -l allow-network -d 'Let kustomizations name remote bases and URLs, and Helm declarations value files on the network. Off by default: fedrender renders offline'
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -l strict -d 'Treat every warning as an error, except lints given another level by name'
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -s q -l quiet -d 'Print nothing but errors'
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -s v -l verbose -d 'Say what each stage is doing, and show every warning instead of the first few of each lint'
complete -c fedrender -n "__fish_fedrender_using_subcommand validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fedrender -n "__fish_fedrender_using_subcommand completions" -s h -l help -d 'Print help'
complete -c fedrender -n "__fish_fedrender_using_subcommand man" -s h -l help -d 'Print help'
complete -c fedrender -n "__fish_fedrender_using_subcommand help; and not __fish_seen_subcommand_from build diff plan validate completions man help" -f -a "build" -d 'Render the fleet into one directory per member cluster'
complete -c fedrender -n "__fish_fedrender_using_subcommand help; and not __fish_seen_subcommand_from build diff plan validate completions man help" -f -a "diff" -d 'Show what a change does to the rendered fleet, per cluster and object'
complete -c fedrender -n "__fish_fedrender_using_subcommand help; and not __fish_seen_subcommand_from build diff plan validate completions man help" -f -a "plan" -d 'Explain every placement: policies matched and why one won, clusters filtered and why, replicas and overrides per cluster'
complete -c fedrender -n "__fish_fedrender_using_subcommand help; and not __fish_seen_subcommand_from build diff plan validate completions man help" -f -a "validate" -d 'Check everything `build` checks, without rendering output'
complete -c fedrender -n "__fish_fedrender_using_subcommand help; and not __fish_seen_subcommand_from build diff plan validate completions man help" -f -a "completions" -d 'Print a shell completion script'
complete -c fedrender -n "__fish_fedrender_using_subcommand help; and not __fish_seen_subcommand_from build diff plan validate completions man help" -f -a "man" -d 'Print the manual page (roff) of fedrender, or of one of its commands'
complete -c fedrender -n "__fish_fedrender_using_subcommand help; and not __fish_seen_subcommand_from build diff plan validate completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
