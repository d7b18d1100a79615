//! Running one tool (kustomize, helm, a declared command) within bounds the command line sets.
//! The fleet decides what a tool reads; it must not decide how long the job takes, how much
//! memory it needs, or what outlives it. So a tool:
//!
//! - is found on `PATH` through absolute entries only: a `.`, `bin` or empty entry would find
//!   a program the pull request committed beside the source (tools run in its directory);
//! - gets a clean environment (`PATH`, absolute entries only, and `HOME`), so it sees none of
//!   CI's secrets;
//! - runs in a process group of its own, which is killed as a whole when the tool takes longer
//!   than its time limit, prints more than its output limit, or fedrender is interrupted, and
//!   after the tool exits, so that nothing it started lives on;
//! - has its output kept in memory only up to [`SPOOL_IN_MEMORY`] and in an unnamed temporary
//!   file past that ([`Spool`]), so that the output limit bounds the disk a tool may fill, not
//!   fedrender's memory: the output is read into memory once, when the tool has exited within
//!   its limits.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::interrupt;

/// A tool's time limit unless the command line sets one: minutes, where a real chart or
/// kustomization takes seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);
/// What a tool may print unless the command line sets a limit: far beyond any real fleet's
/// chart, far short of a machine's memory.
pub const DEFAULT_MAX_OUTPUT: u64 = 256 << 20;
/// How much of a tool's standard error a message quotes.
const MAX_STDERR: usize = 64 << 10;
/// How much of a tool's standard output is kept in memory while it runs; the rest goes to a
/// temporary file.
pub const SPOOL_IN_MEMORY: usize = 64 << 10;
/// How often a running tool is checked on.
const POLL: Duration = Duration::from_millis(10);

/// The bounds of one run, from the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub timeout: Duration,
    pub max_output: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: DEFAULT_TIMEOUT,
            max_output: DEFAULT_MAX_OUTPUT,
        }
    }
}

/// Why a run gave no output.
#[derive(Debug, Clone, PartialEq)]
pub enum RunError {
    NotInstalled,
    /// How it failed (`exit status: 1`), and what it said.
    Failed {
        how: String,
        stderr: String,
    },
    TimedOut(Duration),
    TooMuchOutput(u64),
    Interrupted(i32),
}

/// The `PATH` entries a tool may be found in, and that a tool is given: absolute ones only.
pub fn trusted_path(path: &OsStr) -> OsString {
    let absolute: Vec<PathBuf> = std::env::split_paths(path)
        .filter(|dir| dir.is_absolute())
        .collect();
    std::env::join_paths(absolute).unwrap_or_default()
}

/// The program `name` as an absolute path: a bare name from the absolute entries of `path`,
/// a name with a slash relative to `base`. `None` when there is no such executable file.
pub fn find_program(name: &str, path: &OsStr, base: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |candidate: &Path| {
        std::fs::metadata(candidate)
            .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
    };
    if name.contains('/') {
        let candidate = base.join(name);
        let candidate = if candidate.is_absolute() {
            candidate
        } else {
            std::env::current_dir().ok()?.join(candidate)
        };
        return executable(&candidate).then_some(candidate);
    }
    if name.is_empty() {
        return None;
    }
    std::env::split_paths(&trusted_path(path))
        .map(|dir| dir.join(name))
        .find(|candidate| executable(candidate))
}

/// Runs `program` with `args` in `dir`, standard input `stdin`, within `limits`; its standard
/// output as text.
pub fn run(
    program: &Path,
    args: &[String],
    dir: &Path,
    stdin: Option<&str>,
    limits: Limits,
) -> Result<String, RunError> {
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(dir)
        .env_clear()
        .process_group(0)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command.env(
        "PATH",
        trusted_path(&std::env::var_os("PATH").unwrap_or_default()),
    );
    if let Some(home) = std::env::var_os("HOME") {
        command.env("HOME", home);
    }
    let mut child = command.spawn().map_err(|error| match error.kind() {
        std::io::ErrorKind::NotFound => RunError::NotInstalled,
        _ => RunError::Failed {
            how: format!("could not start: {error}"),
            stderr: String::new(),
        },
    })?;
    let group = Group(child.id() as i32);
    let too_much = Arc::new(AtomicBool::new(false));
    let writer = match (stdin, child.stdin.take()) {
        (Some(text), Some(mut pipe)) => {
            let text = text.to_string();
            // A thread of its own, so that a tool that writes before it has read everything
            // cannot block on a full pipe while fedrender blocks writing to it.
            Some(std::thread::spawn(move || {
                let _ = pipe.write_all(text.as_bytes());
            }))
        }
        _ => None,
    };
    let stdout = child.stdout.take().expect("piped");
    let stderr = child.stderr.take().expect("piped");
    let output_reader = {
        let too_much = Arc::clone(&too_much);
        let max = limits.max_output;
        std::thread::spawn(move || {
            let mut spool = Spool::new();
            copy_capped(stdout, &mut spool, max, &too_much).map(|()| spool)
        })
    };
    let error_reader = std::thread::spawn(move || {
        let mut kept = Vec::new();
        copy_capped(
            stderr,
            &mut kept,
            MAX_STDERR as u64,
            &AtomicBool::new(false),
        )
        .map(|()| kept)
    });
    let started = Instant::now();
    let stopped = loop {
        if exited(&child) {
            break None;
        }
        if too_much.load(Ordering::SeqCst) {
            break Some(RunError::TooMuchOutput(limits.max_output));
        }
        if let Some(signal) = interrupt::requested() {
            break Some(RunError::Interrupted(signal));
        }
        if started.elapsed() >= limits.timeout {
            break Some(RunError::TimedOut(limits.timeout));
        }
        std::thread::sleep(POLL);
    };
    // Whatever the tool started goes with it; the group outlives its leader only until the
    // leader is reaped, so it is killed first.
    group.kill();
    let status = child.wait();
    let output = output_reader.join().expect("the reader does not panic");
    let stderr = error_reader
        .join()
        .expect("the reader does not panic")
        .unwrap_or_default();
    if let Some(writer) = writer {
        // A tool that exits without reading its input fails below, or did not need it.
        let _ = writer.join();
    }
    if let Some(stopped) = stopped {
        return Err(stopped);
    }
    let status = status.map_err(|error| RunError::Failed {
        how: format!("could not be waited for: {error}"),
        stderr: String::new(),
    })?;
    if !status.success() {
        return Err(RunError::Failed {
            how: status.to_string(),
            stderr: String::from_utf8_lossy(&stderr).trim_end().to_string(),
        });
    }
    let cannot_keep = |error: std::io::Error| RunError::Failed {
        how: format!("its output could not be kept in a temporary file: {error}"),
        stderr: String::new(),
    };
    let output = output.map_err(cannot_keep)?;
    output.into_string().map_err(|error| match error.kind() {
        std::io::ErrorKind::InvalidData => RunError::Failed {
            how: "its output is not UTF-8".to_string(),
            stderr: String::new(),
        },
        _ => cannot_keep(error),
    })
}

/// Whether the child has exited, without reaping it (so its process group id stays its own
/// until the group is killed).
fn exited(child: &Child) -> bool {
    // SAFETY: waitid(2) with WNOWAIT only reads the child's state into `info`, a zeroed
    // siginfo_t, a plain C struct for which all zeroes is a valid value.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let done = libc::waitid(
            libc::P_PID,
            child.id(),
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        done == 0 && info.si_pid() != 0
    }
}

/// A tool's process group.
struct Group(i32);

impl Group {
    fn kill(&self) {
        // SAFETY: killpg(2) sends a signal; the group is the child's, which is not yet reaped.
        unsafe {
            libc::killpg(self.0, libc::SIGKILL);
        }
    }
}

/// Reads `pipe` to its end, writing the first `max` bytes to `kept`; past them sets `too_much`
/// and keeps draining, so the writer is never blocked on a full pipe before it is killed. A
/// read error ends the copy as the pipe's end does; a write error is returned once the pipe is
/// drained.
fn copy_capped(
    mut pipe: impl Read,
    kept: &mut impl Write,
    max: u64,
    too_much: &AtomicBool,
) -> std::io::Result<()> {
    let mut buffer = vec![0u8; SPOOL_IN_MEMORY];
    let mut written = 0u64;
    let mut failed = None;
    loop {
        match pipe.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(read) => {
                let room = usize::try_from(max.saturating_sub(written)).unwrap_or(usize::MAX);
                let keep = read.min(room);
                if failed.is_none()
                    && keep > 0
                    && let Err(error) = kept.write_all(&buffer[..keep])
                {
                    failed = Some(error);
                }
                written += keep as u64;
                if read > room {
                    too_much.store(true, Ordering::SeqCst);
                }
            }
        }
    }
    failed.map_or(Ok(()), Err)
}

/// A tool's standard output as it arrives: in memory up to [`SPOOL_IN_MEMORY`] bytes, then in
/// an unnamed temporary file, so that memory stays at that whatever the tool prints; read back
/// whole once the tool has finished within its limits.
struct Spool {
    memory: Vec<u8>,
    file: Option<File>,
    /// The most the spool has held in memory (its buffer's capacity), for the tests.
    #[cfg(test)]
    peak_in_memory: usize,
}

impl Spool {
    fn new() -> Spool {
        Spool {
            memory: Vec::new(),
            file: None,
            #[cfg(test)]
            peak_in_memory: 0,
        }
    }

    /// Everything written, as text: `InvalidData` when it is not UTF-8.
    fn into_string(self) -> std::io::Result<String> {
        let Some(mut file) = self.file else {
            return String::from_utf8(self.memory)
                .map_err(|error| std::io::Error::new(std::io::ErrorKind::InvalidData, error));
        };
        let size = file.stream_position()?;
        file.rewind()?;
        let mut text = String::with_capacity(usize::try_from(size).unwrap_or(0));
        file.read_to_string(&mut text)?;
        Ok(text)
    }
}

impl Write for Spool {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if let Some(file) = &mut self.file {
            return file.write(bytes);
        }
        if self.memory.len() + bytes.len() <= SPOOL_IN_MEMORY {
            if self.memory.capacity() == 0 {
                self.memory.reserve_exact(SPOOL_IN_MEMORY);
            }
            self.memory.extend_from_slice(bytes);
            #[cfg(test)]
            {
                self.peak_in_memory = self.peak_in_memory.max(self.memory.capacity());
            }
            return Ok(bytes.len());
        }
        let mut file = temporary_file()?;
        file.write_all(&self.memory)?;
        self.memory = Vec::new();
        let written = file.write(bytes)?;
        self.file = Some(file);
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(file) => file.flush(),
            None => Ok(()),
        }
    }
}

/// A new file in the temporary directory that only this process can reach: created with a name
/// no file had (`create_new` does not follow a link planted there), readable by its owner
/// only, and unlinked at once, so it is gone when the handle is closed, however fedrender ends.
fn temporary_file() -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    use std::sync::atomic::AtomicU64;
    static CREATED: AtomicU64 = AtomicU64::new(0);
    let directory = std::env::temp_dir();
    let mut last_error = None;
    for _ in 0..16 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.subsec_nanos());
        let path = directory.join(format!(
            ".fedrender-tool-output-{}-{}-{nanos}",
            std::process::id(),
            CREATED.fetch_add(1, Ordering::Relaxed)
        ));
        match std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
        {
            Ok(file) => {
                std::fs::remove_file(&path)?;
                return Ok(file);
            }
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
                last_error = Some(error);
            }
            Err(error) => return Err(error),
        }
    }
    Err(last_error.unwrap_or_else(|| std::io::Error::other("no free temporary file name")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str, limits: Limits) -> Result<String, RunError> {
        let sh = find_program("sh", &std::env::var_os("PATH").unwrap(), Path::new("."))
            .expect("sh is installed");
        run(
            &sh,
            &["-c".to_string(), script.to_string()],
            Path::new("."),
            None,
            limits,
        )
    }

    #[test]
    fn relative_path_entries_are_never_searched() {
        let dir = std::env::temp_dir().join(format!("fedrender-path-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        let tool = dir.join("bin/mytool");
        std::fs::write(&tool, "#!/bin/sh\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        let relative = OsString::from("bin:.:");
        assert_eq!(find_program("mytool", &relative, &dir), None);
        let absolute = std::env::join_paths([dir.join("bin")]).unwrap();
        assert_eq!(find_program("mytool", &absolute, &dir), Some(tool.clone()));
        assert_eq!(find_program("bin/mytool", &relative, &dir), Some(tool));
        assert_eq!(
            trusted_path(OsStr::new("/usr/bin::bin:.:/bin:")),
            OsString::from("/usr/bin:/bin")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_tool_that_never_exits_is_killed_with_what_it_started() {
        let limits = Limits {
            timeout: Duration::from_millis(300),
            ..Limits::default()
        };
        // The background job holds the output pipe open, so the call returns only once the
        // job is gone: killed with the group, it leaves no mark; left to live out its sleep,
        // it would leave one before the call returned.
        let mark = std::env::temp_dir().join(format!("fedrender-run-mark-{}", std::process::id()));
        let _ = std::fs::remove_file(&mark);
        let script = format!("(sleep 60; touch '{}') & sleep 60", mark.display());
        let error = shell(&script, limits).unwrap_err();
        assert_eq!(error, RunError::TimedOut(limits.timeout));
        assert!(!mark.exists(), "the background job lived on");
    }

    #[test]
    fn output_past_the_limit_stops_the_tool() {
        let limits = Limits {
            max_output: 1 << 20,
            ..Limits::default()
        };
        let error = shell(
            "while :; do echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; done",
            limits,
        )
        .unwrap_err();
        assert_eq!(error, RunError::TooMuchOutput(1 << 20));
        assert_eq!(shell("echo ok", limits).unwrap(), "ok\n");
    }

    /// Ten MiB through the spool: it never holds more than its small buffer in memory, and
    /// gives back every byte; output within the buffer never touches a file.
    #[test]
    fn a_tools_output_is_kept_in_a_file_past_a_small_buffer() {
        let mut spool = Spool::new();
        let ten_mib = std::io::repeat(b'a').take(10 << 20);
        copy_capped(ten_mib, &mut spool, 64 << 20, &AtomicBool::new(false)).unwrap();
        assert!(spool.file.is_some());
        assert!(
            spool.peak_in_memory <= SPOOL_IN_MEMORY,
            "{} bytes in memory",
            spool.peak_in_memory
        );
        let text = spool.into_string().unwrap();
        assert_eq!(text.len(), 10 << 20);
        assert!(text.bytes().all(|byte| byte == b'a'));

        let mut small = Spool::new();
        copy_capped(
            &b"kind: ConfigMap\n"[..],
            &mut small,
            64 << 20,
            &AtomicBool::new(false),
        )
        .unwrap();
        assert!(small.file.is_none());
        assert_eq!(small.into_string().unwrap(), "kind: ConfigMap\n");
    }

    /// Past the limit nothing more is kept, and the reader says so.
    #[test]
    fn the_spool_keeps_nothing_past_the_limit() {
        let mut spool = Spool::new();
        let too_much = AtomicBool::new(false);
        copy_capped(
            std::io::repeat(b'a').take(3 << 20),
            &mut spool,
            1 << 20,
            &too_much,
        )
        .unwrap();
        assert!(too_much.load(Ordering::SeqCst));
        assert!(spool.peak_in_memory <= SPOOL_IN_MEMORY);
        assert_eq!(spool.into_string().unwrap().len(), 1 << 20);
        let mut bytes = Spool::new();
        bytes.write_all(&[b'a', 0xff, b'b']).unwrap();
        assert_eq!(
            bytes.into_string().unwrap_err().kind(),
            std::io::ErrorKind::InvalidData
        );
    }

    #[test]
    fn a_failing_tool_says_how_and_what_it_printed() {
        let error = shell("echo oops >&2; exit 3", Limits::default()).unwrap_err();
        assert_eq!(
            error,
            RunError::Failed {
                how: "exit status: 3".to_string(),
                stderr: "oops".to_string()
            }
        );
    }

    #[test]
    fn a_tool_sees_only_path_and_home() {
        let output = shell("env | cut -d= -f1 | sort | tr '\\n' ' '", Limits::default()).unwrap();
        let names: Vec<&str> = output.split_whitespace().collect();
        assert!(
            names
                .iter()
                .all(|name| ["PATH", "HOME", "PWD", "SHLVL", "_", "OLDPWD"].contains(name)),
            "{names:?}"
        );
    }
}
