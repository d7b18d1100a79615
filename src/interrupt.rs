//! SIGINT, SIGTERM and SIGHUP while a build writes its output tree or tools render sources.
//! Killed mid-write, a build would leave a half-updated tree, and killed while a tool runs,
//! fedrender would leave the tool running (it has a process group of its own); so while either
//! is under way, these signals are only recorded, the build notices ([`requested`]), kills its
//! tools or rolls back like any failed build, and the process then dies by the same signal
//! ([`end_by`]), as the shell and CI runners expect. Otherwise they end the process at once, as
//! by default: nothing needs undoing.

use std::sync::Mutex;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use signal_hook::consts::signal::{SIGHUP, SIGINT, SIGTERM};

const SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// True while no build is writing: a signal then takes its default action.
static ACT_AT_ONCE: AtomicBool = AtomicBool::new(true);
/// The signal received while writing, or 0.
static RECEIVED: AtomicUsize = AtomicUsize::new(0);
/// How many writes are under way (tests run builds on several threads).
static WRITERS: Mutex<usize> = Mutex::new(0);
static INSTALLED: OnceLock<()> = OnceLock::new();

/// Runs `work` (a write, tools) with the signals deferred (see the module documentation).
pub fn deferred<T>(work: impl FnOnce() -> T) -> T {
    INSTALLED.get_or_init(install);
    {
        let mut writers = WRITERS.lock().expect("no panic while counting writers");
        if *writers == 0 {
            RECEIVED.store(0, Ordering::SeqCst);
        }
        *writers += 1;
        ACT_AT_ONCE.store(false, Ordering::SeqCst);
    }
    let result = work();
    let mut writers = WRITERS.lock().expect("no panic while counting writers");
    *writers -= 1;
    if *writers == 0 {
        ACT_AT_ONCE.store(true, Ordering::SeqCst);
    }
    result
}

fn install() {
    for signal in SIGNALS {
        // A signal ignored when the process started (`nohup`, a background job of a script)
        // stays ignored, as every Unix program leaves it.
        if ignored(signal) {
            continue;
        }
        // Should registration fail, the signal keeps its default action: the next build
        // still cleans up what an interrupted one leaves.
        let _ = signal_hook::flag::register_conditional_default(signal, &ACT_AT_ONCE);
        let _ = signal_hook::flag::register_usize(signal, &RECEIVED, signal as usize);
    }
}

fn ignored(signal: i32) -> bool {
    // SAFETY: sigaction(2) with no new action only reads the current one into `current`,
    // a zeroed sigaction, which is a valid value of that plain C struct.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut current) == 0
            && current.sa_sigaction == libc::SIG_IGN
    }
}

/// The signal received since the current write began, if any.
pub fn requested() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal as i32),
    }
}

/// The error of a run stopped by `signal`, which the command line's caller ends by once it has
/// said what was left as it was.
pub fn interrupted(signal: i32) -> fedrender_engine::diagnostics::Rejected {
    let mut rejected = fedrender_engine::diagnostics::Rejected::from(
        fedrender_engine::diagnostics::Diagnostic::error(
            None,
            format!("interrupted by {}", name(signal)),
        ),
    );
    rejected.interrupted_by = Some(signal);
    rejected
}

/// A signal's name for messages.
pub fn name(signal: i32) -> &'static str {
    signal_hook::low_level::signal_name(signal).unwrap_or("a signal")
}

/// Ends the process by `signal` with its default action, once a build it interrupted has
/// rolled back.
pub fn end_by(signal: i32) {
    let _ = signal_hook::low_level::emulate_default_handler(signal);
}
