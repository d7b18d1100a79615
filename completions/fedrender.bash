_fedrender() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="fedrender"
                ;;
            fedrender,build)
                cmd="fedrender__subcmd__build"
                ;;
            fedrender,completions)
                cmd="fedrender__subcmd__completions"
                ;;
            fedrender,config)
                cmd="fedrender__subcmd__config"
                ;;
            fedrender,diff)
                cmd="fedrender__subcmd__diff"
                ;;
            fedrender,help)
                cmd="fedrender__subcmd__help"
                ;;
            fedrender,man)
                cmd="fedrender__subcmd__man"
                ;;
            fedrender,plan)
                cmd="fedrender__subcmd__plan"
                ;;
            fedrender,validate)
                cmd="fedrender__subcmd__validate"
                ;;
            fedrender__subcmd__help,build)
                cmd="fedrender__subcmd__help__subcmd__build"
                ;;
            fedrender__subcmd__help,completions)
                cmd="fedrender__subcmd__help__subcmd__completions"
                ;;
            fedrender__subcmd__help,config)
                cmd="fedrender__subcmd__help__subcmd__config"
                ;;
            fedrender__subcmd__help,diff)
                cmd="fedrender__subcmd__help__subcmd__diff"
                ;;
            fedrender__subcmd__help,help)
                cmd="fedrender__subcmd__help__subcmd__help"
                ;;
            fedrender__subcmd__help,man)
                cmd="fedrender__subcmd__help__subcmd__man"
                ;;
            fedrender__subcmd__help,plan)
                cmd="fedrender__subcmd__help__subcmd__plan"
                ;;
            fedrender__subcmd__help,validate)
                cmd="fedrender__subcmd__help__subcmd__validate"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        fedrender)
            opts="-h -V --help --version build diff plan validate config completions man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__build)
            opts="-c -j -q -v -o -h --clusters --include --exclude --allow-exec --allow-network --tool-timeout --max-tool-output --kustomize --kubernetes-version --karmada-version --crds --strict --deny --warn --allow --jobs --quiet --verbose --message-format --cluster --cluster-selector --out --check --stdout --gitops --gitops-repo --gitops-revision --gitops-path --gitops-member-hpas --at-replicas --at --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --clusters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --include)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tool-output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kustomize)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubernetes-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --deny)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --warn)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --message-format)
                    COMPREPLY=($(compgen -W "human json github" -- "${cur}"))
                    return 0
                    ;;
                --cluster)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-selector)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gitops)
                    COMPREPLY=($(compgen -W "argocd flux" -- "${cur}"))
                    return 0
                    ;;
                --gitops-repo)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gitops-revision)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gitops-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --at-replicas)
                    COMPREPLY=($(compgen -W "min max" -- "${cur}"))
                    return 0
                    ;;
                --at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__completions)
            opts="-h --help bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__config)
            opts="-c -o -j -q -v -h --clusters --out --strict --deny --warn --allow --ignore-field --ignore-resource --jobs --quiet --verbose --message-format --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --clusters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --deny)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --warn)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --ignore-field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ignore-resource)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --message-format)
                    COMPREPLY=($(compgen -W "human json github" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__diff)
            opts="-c -j -q -v -h --clusters --include --exclude --allow-exec --allow-network --tool-timeout --max-tool-output --kustomize --kubernetes-version --karmada-version --crds --strict --deny --warn --allow --jobs --quiet --verbose --message-format --cluster --cluster-selector --against --base --base-clusters --format --title --max-bytes --show-secrets --ignore-field --ignore-resource --color --at-replicas --at --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --clusters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --include)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tool-output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kustomize)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubernetes-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --deny)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --warn)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --message-format)
                    COMPREPLY=($(compgen -W "human json github" -- "${cur}"))
                    return 0
                    ;;
                --cluster)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-selector)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --against)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base-clusters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "unified markdown json stat html" -- "${cur}"))
                    return 0
                    ;;
                --title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ignore-field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ignore-resource)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --at-replicas)
                    COMPREPLY=($(compgen -W "min max" -- "${cur}"))
                    return 0
                    ;;
                --at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__help)
            opts="build diff plan validate config completions man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__help__subcmd__build)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__help__subcmd__config)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__help__subcmd__diff)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__help__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__help__subcmd__plan)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__help__subcmd__validate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__man)
            opts="-h --help build diff plan validate config completions man"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__plan)
            opts="-c -j -q -v -h --clusters --include --exclude --allow-exec --allow-network --tool-timeout --max-tool-output --kustomize --kubernetes-version --karmada-version --crds --strict --deny --warn --allow --jobs --quiet --verbose --message-format --format --cluster --cluster-selector --kind --name --at-replicas --at --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --clusters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --include)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tool-output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kustomize)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubernetes-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --deny)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --warn)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --message-format)
                    COMPREPLY=($(compgen -W "human json github" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text table markdown json" -- "${cur}"))
                    return 0
                    ;;
                --cluster)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-selector)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kind)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --at-replicas)
                    COMPREPLY=($(compgen -W "min max" -- "${cur}"))
                    return 0
                    ;;
                --at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fedrender__subcmd__validate)
            opts="-c -j -q -v -h --clusters --include --exclude --allow-exec --allow-network --tool-timeout --max-tool-output --kustomize --kubernetes-version --karmada-version --crds --strict --deny --warn --allow --jobs --quiet --verbose --message-format --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --clusters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --include)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tool-output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kustomize)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubernetes-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --deny)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --warn)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -W "unknown-cluster targets-no-cluster overrides-nothing selects-nothing unplaced-template unplaced-replicas priority-tie shadowed-policy ignored-field not-modelled skipped-input dependencies-not-followed invalid-selector undefined-namespace schema-invalid unknown-field pruned-field removed-api deprecated-api unchecked-kind unknown-scope assumed-kubernetes-version disabled-api immutable-field pvc-shrink replicas-zero replica-shift pruned hpa-owns-replicas preserved-on-deletion policy-relaxed review-group-empty plaintext-secret sops-no-recipient sealed-secret-shared lazy-activation feature-gate-off deprecated-field mcs-no-service mcs-no-backends quota-exceeded over-capacity shared-resource" -- "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --message-format)
                    COMPREPLY=($(compgen -W "human json github" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _fedrender -o nosort -o bashdefault -o default fedrender
else
    complete -F _fedrender -o bashdefault -o default fedrender
fi
