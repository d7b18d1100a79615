//! Argo CD ApplicationSets, the beginning of their support (issue 54). So far the templates,
//! rendered as the ApplicationSet controller's `applicationset/utils` renders them:
//! [`template::render_flat`] and [`template::replace_flat`] for the default fasttemplate `{{ }}`
//! replacement over flat parameters, and [`template::render`] / [`template::replace`] with
//! `goTemplate: true` for Go's text/template ([`template::go`]) over nested parameters, with
//! `goTemplateOptions`, the sprig functions Argo CD enables and its own. Every string of a
//! template and every key of its maps is rendered, with the controller's messages.
//!
//! Not here yet: `templatePatch`, the strategic merge of a generator's `template` into
//! `spec.template`, the generators, the Applications' sources, and any wiring to the command
//! line. Judged against Argo CD's own code: `testdata/references/argocd-templates/`.

pub mod template;
