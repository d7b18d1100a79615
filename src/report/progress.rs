//! The progress line: drawn on standard error from what the run records in the
//! [`fedrender_engine::progress::Progress`] it was handed, on a thread of its own, so that
//! drawing never slows or changes a run.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use fedrender_engine::progress::Stage;

use crate::report::messages::MessageFormat;

/// A one-line "working" note on a terminal, erased when the work is done; with --verbose also
/// when stderr is not a terminal.
pub struct Progress {
    /// Tells the ticker to stop; `None` when nothing is shown.
    ticker: Option<(Arc<AtomicBool>, std::thread::JoinHandle<()>)>,
    redrawn: bool,
}

/// How often a terminal's progress line is redrawn, and how often a CI log gets a line.
const TERMINAL_TICK: Duration = Duration::from_millis(200);
const LOG_TICK: Duration = Duration::from_secs(10);

/// What a run records: its stage, with done and in all for a stage that counts, and the files
/// of the output written so far.
type State = (Stage, usize, usize, usize);

fn state(recorded: &fedrender_engine::progress::Progress) -> Option<State> {
    let (stage, done, total) = recorded.current()?;
    Some((stage, done, total, recorded.files_written()))
}

impl Progress {
    /// On a terminal, a progress line redrawn in place (stage, templates or files done, a
    /// bar); in a log, a line every ten seconds once a run takes that long, when the run moved
    /// since the last one (a new stage, more done). With `--message-format json` those lines
    /// are JSON objects (`"level": "progress"`), never redrawn. Nothing with --quiet.
    pub fn start(
        quiet: bool,
        verbose: bool,
        what: &str,
        recorded: &fedrender_engine::progress::Progress,
        format: MessageFormat,
    ) -> Progress {
        let redrawn = std::io::stderr().is_terminal() && format != MessageFormat::Json;
        if quiet {
            return Progress {
                ticker: None,
                redrawn,
            };
        }
        if verbose && !redrawn && format != MessageFormat::Json {
            say(&format!("fedrender: {what}…\n"));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let recorded = recorded.clone();
        let ticker = std::thread::spawn(move || {
            let started = Instant::now();
            let tick = if redrawn { TERMINAL_TICK } else { LOG_TICK };
            let mut next = tick;
            let mut last_logged = None;
            while !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
                if started.elapsed() < next {
                    continue;
                }
                next += tick;
                let state = state(&recorded);
                if redrawn {
                    if let Some(line) = progress_line(state, started.elapsed()) {
                        say(&format!("\r\x1b[K{line}"));
                    }
                } else if let Some(line) =
                    log_line(state, &mut last_logged, started.elapsed(), format)
                {
                    say(&format!("{line}\n"));
                }
            }
        });
        Progress {
            ticker: Some((stop, ticker)),
            redrawn,
        }
    }

    pub fn finish(self) {
        if let Some((stop, ticker)) = self.ticker {
            stop.store(true, Ordering::Relaxed);
            let _ = ticker.join();
            if self.redrawn {
                say("\r\x1b[K");
            }
        }
    }
}

/// Draws on standard error, ignoring a failure: a closed standard error (`2>&1 | head`) must not
/// stop a run, least of all a build halfway through replacing files.
fn say(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// `fedrender: rendering 1200/2000 templates [############        ] 3s`, and `, 51200 files
/// written` once the render hands files over.
fn progress_line(state: Option<State>, elapsed: Duration) -> Option<String> {
    let (stage, done, total, files) = state?;
    let seconds = elapsed.as_secs();
    let Some(unit) = stage.unit().filter(|_| total > 0) else {
        return Some(format!("fedrender: {}… {seconds}s", stage.word()));
    };
    const WIDTH: usize = 20;
    let filled = (done.min(total) * WIDTH) / total;
    let written = match (stage, files) {
        (Stage::Rendering, 1..) => format!(", {files} files written"),
        _ => String::new(),
    };
    Some(format!(
        "fedrender: {} {done}/{total} {unit} [{}{}]{written} {seconds}s",
        stage.word(),
        "#".repeat(filled),
        " ".repeat(WIDTH - filled)
    ))
}

/// A log's next line, when the run moved since `last_logged` (which it then records): a line
/// that says what the last one said tells a reader of the log nothing, every ten seconds.
fn log_line(
    state: Option<State>,
    last_logged: &mut Option<State>,
    elapsed: Duration,
    format: MessageFormat,
) -> Option<String> {
    let state = state?;
    if *last_logged == Some(state) {
        return None;
    }
    *last_logged = Some(state);
    let (stage, done, total, files) = state;
    match format {
        MessageFormat::Json => Some(
            serde_json::json!({
                "level": "progress",
                "stage": stage.word(),
                "done": stage.unit().map(|_| done),
                "total": stage.unit().map(|_| total),
                "unit": stage.unit(),
                "filesWritten": files,
                "seconds": elapsed.as_secs(),
            })
            .to_string(),
        ),
        _ => progress_line(Some(state), elapsed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_shows_the_stage_and_templates_or_files_done() {
        let seconds = Duration::from_secs(3);
        assert_eq!(progress_line(None, seconds), None);
        assert_eq!(
            progress_line(Some((Stage::Reading, 0, 0, 0)), seconds).unwrap(),
            "fedrender: reading the fleet… 3s"
        );
        assert_eq!(
            progress_line(Some((Stage::Rendering, 1000, 4000, 0)), seconds).unwrap(),
            "fedrender: rendering 1000/4000 templates [#####               ] 3s"
        );
        assert_eq!(
            progress_line(Some((Stage::Writing, 10, 20, 99)), seconds).unwrap(),
            "fedrender: writing 10/20 files [##########          ] 3s"
        );
    }

    #[test]
    fn a_log_gets_a_line_only_when_the_run_moved() {
        let mut last = None;
        let at = |seconds| Duration::from_secs(seconds);
        let human = MessageFormat::Human;
        let rendering = |done, files| Some((Stage::Rendering, done, 2000, files));
        assert!(log_line(rendering(100, 0), &mut last, at(10), human).is_some());
        assert_eq!(log_line(rendering(100, 0), &mut last, at(20), human), None);
        assert!(log_line(rendering(101, 0), &mut last, at(30), human).is_some());
        // A chunk's files being written is the run moving, its templates standing still.
        assert_eq!(
            log_line(rendering(101, 5000), &mut last, at(40), human).unwrap(),
            "fedrender: rendering 101/2000 templates [#                   ], 5000 files written 40s"
        );
        let writing = Some((Stage::Writing, 0, 50, 5000));
        assert!(log_line(writing, &mut last, at(40), human).is_some());
        assert_eq!(log_line(None, &mut last, at(50), human), None);

        let mut last = None;
        let json = log_line(rendering(7, 0), &mut last, at(10), MessageFormat::Json).unwrap();
        let object: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(object["level"], "progress");
        assert_eq!(object["stage"], "rendering");
        assert_eq!(
            (object["done"].clone(), object["total"].clone()),
            (7.into(), 2000.into())
        );
        let reading = log_line(
            Some((Stage::Reading, 0, 0, 0)),
            &mut last,
            at(20),
            MessageFormat::Json,
        );
        let object: serde_json::Value = serde_json::from_str(&reading.unwrap()).unwrap();
        assert_eq!(object["done"], serde_json::Value::Null);
    }
}
