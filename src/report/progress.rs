//! The progress line: drawn on standard error from what the run records in the
//! [`fedrender_engine::progress::Progress`] it was handed, on a thread of its own, so that
//! drawing never slows or changes a run.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A one-line "working" note on a terminal, erased when the work is done; with --verbose also
/// when stderr is not a terminal.
pub struct Progress {
    /// Tells the ticker to stop; `None` when nothing is shown.
    ticker: Option<(Arc<AtomicBool>, std::thread::JoinHandle<()>)>,
    terminal: bool,
}

/// How often a terminal's progress line is redrawn, and how often a CI log gets a line.
const TERMINAL_TICK: Duration = Duration::from_millis(200);
const LOG_TICK: Duration = Duration::from_secs(10);

impl Progress {
    /// On a terminal, a progress line redrawn in place (stage, templates done, a bar); in a
    /// log, a plain line every ten seconds once a run takes that long. Nothing with --quiet.
    pub fn start(
        quiet: bool,
        verbose: bool,
        what: &str,
        recorded: &fedrender_engine::progress::Progress,
    ) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        if quiet {
            return Progress {
                ticker: None,
                terminal,
            };
        }
        if verbose && !terminal {
            say(&format!("fedrender: {what}…\n"));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let recorded = recorded.clone();
        let ticker = std::thread::spawn(move || {
            let started = Instant::now();
            let tick = if terminal { TERMINAL_TICK } else { LOG_TICK };
            let mut next = tick;
            while !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
                if started.elapsed() < next {
                    continue;
                }
                next += tick;
                let state = recorded.current();
                let Some(line) = progress_line(state, started.elapsed()) else {
                    continue;
                };
                if terminal {
                    say(&format!("\r\x1b[K{line}"));
                } else {
                    say(&format!("{line}\n"));
                }
            }
        });
        Progress {
            ticker: Some((stop, ticker)),
            terminal,
        }
    }

    pub fn finish(self) {
        if let Some((stop, ticker)) = self.ticker {
            stop.store(true, Ordering::Relaxed);
            let _ = ticker.join();
            if self.terminal {
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

/// `fedrender: rendering 1200/2000 templates [############        ] 3s`.
fn progress_line(
    state: Option<(fedrender_engine::progress::Stage, usize, usize)>,
    elapsed: Duration,
) -> Option<String> {
    let (stage, done, total) = state?;
    let seconds = elapsed.as_secs();
    if stage != fedrender_engine::progress::Stage::Rendering || total == 0 {
        return Some(format!("fedrender: {}… {seconds}s", stage.word()));
    }
    const WIDTH: usize = 20;
    let filled = (done.min(total) * WIDTH) / total;
    Some(format!(
        "fedrender: {} {done}/{total} templates [{}{}] {seconds}s",
        stage.word(),
        "#".repeat(filled),
        " ".repeat(WIDTH - filled)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fedrender_engine::progress::Stage;

    #[test]
    fn the_progress_line_shows_the_stage_and_templates_done() {
        let seconds = Duration::from_secs(3);
        assert_eq!(progress_line(None, seconds), None);
        assert_eq!(
            progress_line(Some((Stage::Reading, 0, 0)), seconds).unwrap(),
            "fedrender: reading the fleet… 3s"
        );
        assert_eq!(
            progress_line(Some((Stage::Rendering, 1000, 4000)), seconds).unwrap(),
            "fedrender: rendering 1000/4000 templates [#####               ] 3s"
        );
    }
}
