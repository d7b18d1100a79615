//! Argo CD ApplicationSets, the beginning of their support (issue 54): so far the templates,
//! rendered as the ApplicationSet controller's `applicationset/utils` renders them — the
//! default fasttemplate `{{ }}` replacement and `goTemplate: true` with Go's text/template, the
//! sprig functions Argo CD enables and its own. No generator, no source and no command-line
//! wiring yet; see [`template`] for what is there and what is not.

pub mod template;
