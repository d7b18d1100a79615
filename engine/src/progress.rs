//! How far a run has got, for the progress line: the stage and, while rendering or writing, how
//! many templates (files) are done out of how many. The caller hands a [`Progress`] in with the run's
//! [`Options`](crate::run::Options) and reads it from another thread while the pipeline records
//! in it. Recording never changes the output.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

/// A stage of a run, as the progress line names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Reading the fleet's files and running its tools (the shell's part).
    Reading,
    /// Binding and scheduling every template.
    Placing,
    /// Building every object.
    Rendering,
    /// Putting the rendered files in place in the output tree (the shell's part).
    Writing,
}

impl Stage {
    /// The stage in the words of the progress line.
    pub fn word(self) -> &'static str {
        match self {
            Stage::Reading => "reading the fleet",
            Stage::Placing => "placing templates",
            Stage::Rendering => "rendering",
            Stage::Writing => "writing",
        }
    }

    /// What the stage counts, when it counts: templates rendered, files put in place.
    pub fn unit(self) -> Option<&'static str> {
        match self {
            Stage::Rendering => Some("templates"),
            Stage::Writing => Some("files"),
            Stage::Reading | Stage::Placing => None,
        }
    }
}

/// Where one run records how far it has got: cheap to clone, each clone the same record, so
/// the caller keeps one to read while the run writes through another. A run given none records
/// into one nobody reads.
#[derive(Debug, Clone, Default)]
pub struct Progress(Arc<Record>);

#[derive(Debug, Default)]
struct Record {
    stage: AtomicU8,
    done: AtomicUsize,
    total: AtomicUsize,
    files: AtomicUsize,
}

impl Progress {
    /// Records that a stage began, with `total` templates (or files) to go.
    pub fn begin(&self, stage: Stage, total: usize) {
        self.0.done.store(0, Ordering::Relaxed);
        self.0.total.store(total, Ordering::Relaxed);
        self.0.stage.store(stage as u8 + 1, Ordering::Relaxed);
    }

    /// Records that `count` more templates (or files) are done.
    pub fn advance(&self, count: usize) {
        self.0.done.fetch_add(count, Ordering::Relaxed);
    }

    /// Records that one more file of the output is written. The writer counts its files as the
    /// render hands them over, a chunk of templates at a time: while a chunk's files are written,
    /// the templates done stand still, and the files written are what moves.
    pub fn file_written(&self) {
        self.0.files.fetch_add(1, Ordering::Relaxed);
    }

    /// How many files of the output are written so far.
    pub fn files_written(&self) -> usize {
        self.0.files.load(Ordering::Relaxed)
    }

    /// The current stage with templates done and in all; `None` before the first stage.
    pub fn current(&self) -> Option<(Stage, usize, usize)> {
        let stage = match self.0.stage.load(Ordering::Relaxed) {
            1 => Stage::Reading,
            2 => Stage::Placing,
            3 => Stage::Rendering,
            4 => Stage::Writing,
            _ => return None,
        };
        Some((
            stage,
            self.0.done.load(Ordering::Relaxed),
            self.0.total.load(Ordering::Relaxed),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_reads_what_the_run_records() {
        let run = Progress::default();
        let reader = run.clone();
        assert_eq!(reader.current(), None);
        run.begin(Stage::Rendering, 10);
        run.advance(3);
        run.advance(4);
        assert_eq!(reader.current(), Some((Stage::Rendering, 7, 10)));
        run.begin(Stage::Placing, 0);
        assert_eq!(reader.current(), Some((Stage::Placing, 0, 0)));
        assert_eq!(Progress::default().current(), None);
    }
}
