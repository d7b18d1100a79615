//! `fedrender plan`: why every template went where it went, as text or JSON, or where it went
//! as a matrix of objects and clusters, for the whole fleet or the clusters, kinds and names
//! asked for.

use super::terminal::{
    message_format, rejected, report, say, stdout_error, usage_error, write_stdout,
};
use crate::cli::{PlanArgs, PlanFormat};
use crate::exit_code;
use crate::report::messages;
use crate::report::plan as plan_report;
use crate::source::fleet::run_fleet;

/// The flags become the options; the fleet is explained, and the plan printed for what the
/// filters keep (a filter naming nothing known is an error).
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
        explain: true,
        moment: args.moment.moment(),
        ..options
    };
    let outcome = run_fleet(&source, &options, |run| run.summary());
    let rendered = match report(outcome, &input.run, "nothing was planned") {
        Ok(rendered) => rendered,
        Err(code) => return code,
    };
    let filter = plan_report::PlanFilter {
        clusters: (!options.clusters.is_everything()).then(|| rendered.cluster_names.clone()),
        kind: args.kind.clone(),
        name: args.name.clone(),
    };
    let problems = filter.unknown_values(&rendered.plan);
    if !problems.is_empty() {
        for problem in &problems {
            say(&messages::error_text(problem, format));
        }
        return exit_code::ERROR;
    }
    let text = match args.format {
        PlanFormat::Text => {
            messages::for_people(&plan_report::text(&rendered, &filter), format).into_owned()
        }
        PlanFormat::Table => {
            messages::for_people(&plan_report::table(&rendered, &filter), format).into_owned()
        }
        PlanFormat::Markdown => plan_report::markdown(&rendered, &filter),
        PlanFormat::Json => {
            // Entry by entry: a big fleet's whole plan as one text took gigabytes.
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            return match plan_report::write_json(&rendered, &filter, &mut out) {
                Ok(()) => exit_code::OK,
                Err(error) => stdout_error(&error, format),
            };
        }
    };
    write_stdout(&text, format)
}
