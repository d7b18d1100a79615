//! A chart's hooks among the objects it rendered: Helm marks them with an annotation, and a
//! rendered tree, which has no release to run them around, decides what becomes of each
//! (helm pkg/release/hook.go for the events; Argo CD's hook docs for what a sync makes of them).

use crate::diagnostics::Diagnostic;
use crate::documents::RawDocument;
use crate::fleet::SourceRun;
use crate::lint::Lint;

/// The annotation that makes an object of a chart a Helm hook.
const HOOK_ANNOTATION: &str = "helm.sh/hook";
/// The hook events of `helm test`.
const TEST_HOOKS: [&str; 3] = ["test", "test-success", "test-failure"];

/// Sorts out the hooks among the objects charts rendered. `helm install` never creates a test
/// hook (it runs on `helm test`), and Argo CD ignores them, so they are left out unless the
/// declaration keeps them (`skipTests: false`). Other hooks (`pre-install`, `post-upgrade` …)
/// run around a release's life, which a rendered tree does not have: Argo CD runs them as sync
/// hooks, Karmada propagates them as ordinary objects, and so does fedrender, naming each in
/// `plan` and in a warning.
pub(crate) fn sort_out_helm_hooks(
    runs: &mut [SourceRun],
    documents: &mut Vec<RawDocument>,
    warnings: &mut Vec<Diagnostic>,
) {
    let mut left_out = vec![false; documents.len()];
    for run in runs.iter_mut().filter(|run| run.tool == "helm") {
        let file = run.output_name();
        for (index, document) in documents.iter().enumerate() {
            if *document.origin.file != *file {
                continue;
            }
            let Some(events) = document.value["metadata"]["annotations"][HOOK_ANNOTATION].as_str()
            else {
                continue;
            };
            let events: Vec<&str> = events.split(',').map(str::trim).collect();
            let described = format!(
                "{} {}{} ({})",
                document.value["kind"].as_str().unwrap_or("object"),
                document.value["metadata"]["namespace"]
                    .as_str()
                    .map_or(String::new(), |namespace| format!("{namespace}/")),
                document.value["metadata"]["name"].as_str().unwrap_or(""),
                events.join(", ")
            );
            if events.iter().any(|event| TEST_HOOKS.contains(event)) && !run.keeps_test_hooks {
                left_out[index] = true;
                run.left_out_tests.push(described);
                continue;
            }
            warnings.push(Diagnostic::warning(
                Lint::NotModelled,
                Some(document.origin.clone()),
                format!(
                    "{described} is a Helm hook of {}: helm runs it around an install or \
                     upgrade and Argo CD as a sync hook, while Karmada propagates it as an \
                     ordinary object, and so does fedrender",
                    run.source
                ),
            ));
            run.hooks.push(described);
        }
    }
    let mut index = 0;
    documents.retain(|_| {
        let keep = !left_out[index];
        index += 1;
        keep
    });
}
