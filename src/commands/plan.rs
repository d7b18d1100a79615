//! `fedrender plan`: why every template went where it went, as text or JSON, or where it went
//! as a matrix of objects and clusters, for the whole fleet or the clusters, kinds and names
//! asked for.

use std::io;

use super::terminal::{message_format, rejected, report, say, stdout_error, usage_error};
use crate::cli::{PlanArgs, PlanFormat};
use crate::exit_code;
use crate::report::github::InertWriter;
use crate::report::messages::{self, MessageFormat};
use crate::report::plan as plan_report;
use crate::source::fleet::run_fleet;
use fedrender_engine::object::ObjectKey;
use fedrender_engine::render::plan::PlanEntry;

/// How a plan ended once the fleet was rendered.
enum Planned {
    /// Written to standard output (or not, for this reason).
    Written(io::Result<()>),
    /// A filter names nothing the fleet holds: each with the nearest that would.
    UnknownFilters(Vec<String>),
}

/// The flags become the options; the fleet is explained, and the plan printed for what the
/// filters keep (a filter naming nothing known is an error). The plan is written entry by
/// entry as the run explains them, so that it holds one chunk of the fleet's story.
pub fn run(args: &PlanArgs) -> i32 {
    let input = &args.input;
    let format = message_format(&input.run);
    let defaults = match input.defaults() {
        Ok(defaults) => defaults,
        Err(refused) => return rejected(refused, &input.run, "nothing was planned"),
    };
    let (source, options) = match input.fleet_source_and_options_for(&args.clusters, &defaults) {
        Ok(checked) => checked,
        Err(message) => return usage_error(&message, format),
    };
    let options = fedrender_engine::run::Options {
        moment: args.moment.moment(),
        ..options
    };
    let outcome = run_fleet(&source, &options, |run| {
        let summary = run.summary()?;
        let filter = plan_report::PlanFilter {
            clusters: (!options.clusters.is_everything()).then(|| summary.cluster_names.clone()),
            kind: args.kind.clone(),
            name: args.name.clone(),
        };
        let keys: Vec<&ObjectKey> = run.object_keys().collect();
        let problems = filter.unknown_values(&keys);
        if !problems.is_empty() {
            return Ok(Planned::UnknownFilters(problems));
        }
        let entries = |each: &mut dyn FnMut(PlanEntry) -> io::Result<()>| {
            run.explain_each(|key| filter.chooses(key), each)
        };
        let mut stdout = io::BufWriter::new(io::stdout().lock());
        let written = match args.format {
            // Text for people, in a GitHub log between stop-commands markers: it holds names
            // from the fleet.
            PlanFormat::Text | PlanFormat::Table if format == MessageFormat::Github => {
                let mut out = InertWriter::new(stdout);
                let written = if args.format == PlanFormat::Text {
                    plan_report::write_text(&summary, &filter, &entries, &mut out)
                } else {
                    plan_report::write_table(&summary, &filter, &entries, &mut out)
                };
                written.and_then(|()| out.finish())
            }
            PlanFormat::Text => plan_report::write_text(&summary, &filter, &entries, &mut stdout),
            PlanFormat::Table => plan_report::write_table(&summary, &filter, &entries, &mut stdout),
            PlanFormat::Markdown => {
                plan_report::write_markdown(&summary, &filter, &entries, &mut stdout)
            }
            PlanFormat::Json => plan_report::write_json(&summary, &filter, &entries, &mut stdout),
        };
        Ok(Planned::Written(written))
    });
    match report(outcome, &input.run, "nothing was planned") {
        Ok(Planned::Written(Ok(()))) => exit_code::OK,
        Ok(Planned::Written(Err(error))) => stdout_error(&error, format),
        Ok(Planned::UnknownFilters(problems)) => {
            for problem in &problems {
                say(&messages::error_text(problem, format));
            }
            exit_code::ERROR
        }
        Err(code) => code,
    }
}
