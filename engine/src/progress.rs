//! How far a run has got, for the progress line: the stage and, while rendering, how many
//! templates are done out of how many. The pipeline records it here as it goes; the command
//! line reads it from another thread. Recording never changes the output.

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Reading,
    Placing,
    Rendering,
}

impl Stage {
    pub fn word(self) -> &'static str {
        match self {
            Stage::Reading => "reading the fleet",
            Stage::Placing => "placing templates",
            Stage::Rendering => "rendering",
        }
    }
}

static STAGE: AtomicU8 = AtomicU8::new(0);
static DONE: AtomicUsize = AtomicUsize::new(0);
static TOTAL: AtomicUsize = AtomicUsize::new(0);

/// Records that a stage began; rendering with `total` templates to go.
pub fn begin(stage: Stage, total: usize) {
    DONE.store(0, Ordering::Relaxed);
    TOTAL.store(total, Ordering::Relaxed);
    STAGE.store(stage as u8 + 1, Ordering::Relaxed);
}

/// Records that `count` more templates are done.
pub fn advance(count: usize) {
    DONE.fetch_add(count, Ordering::Relaxed);
}

/// The current stage with templates done and in all; `None` before the first stage.
pub fn current() -> Option<(Stage, usize, usize)> {
    let stage = match STAGE.load(Ordering::Relaxed) {
        1 => Stage::Reading,
        2 => Stage::Placing,
        3 => Stage::Rendering,
        _ => return None,
    };
    Some((
        stage,
        DONE.load(Ordering::Relaxed),
        TOTAL.load(Ordering::Relaxed),
    ))
}
