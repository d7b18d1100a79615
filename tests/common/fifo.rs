//! Whether a run opened a named pipe (FIFO), told without a clock. Each FIFO gets a writer that
//! waits for a reader, so that a run that opens one reads nothing and goes on instead of
//! hanging, and an inotify watch that records every open of it: until this process releases
//! the writers itself, an open can only be the run's.
#![cfg(target_os = "linux")]

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

/// Writers waiting at FIFOs and a watch of their opens, from before a run until
/// [`FifoWatch::opened`].
pub struct FifoWatch {
    inotify: OwnedFd,
    /// Each FIFO, its watch descriptor and its writer.
    fifos: Vec<(PathBuf, i32, JoinHandle<()>)>,
}

impl FifoWatch {
    pub fn new(fifos: &[&Path]) -> FifoWatch {
        // SAFETY: inotify_init1 takes flags only; a non-negative result is a new descriptor.
        let fd = unsafe { libc::inotify_init1(libc::IN_CLOEXEC | libc::IN_NONBLOCK) };
        assert!(
            fd >= 0,
            "inotify_init1: {}",
            std::io::Error::last_os_error()
        );
        // SAFETY: just created, owned by nothing else.
        let inotify = unsafe { OwnedFd::from_raw_fd(fd) };
        let fifos = fifos
            .iter()
            .map(|fifo| {
                let path = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
                // SAFETY: a valid inotify descriptor and a NUL-terminated path; watching
                // looks the path up without opening the FIFO.
                let wd = unsafe { libc::inotify_add_watch(fd, path.as_ptr(), libc::IN_OPEN) };
                assert!(wd >= 0, "inotify_add_watch {}", fifo.display());
                let fifo = fifo.to_path_buf();
                let at = fifo.clone();
                // Blocks until a reader opens the FIFO, then closes it: the reader reads nothing.
                let writer = std::thread::spawn(move || {
                    let _ = std::fs::OpenOptions::new().write(true).open(&at);
                });
                (fifo, wd, writer)
            })
            .collect();
        FifoWatch { inotify, fifos }
    }

    /// Once the run has ended: the FIFOs it opened. Then the writers still waiting are
    /// released, by this process opening each FIFO itself.
    pub fn opened(self) -> Vec<PathBuf> {
        let mut opened_wds = Vec::new();
        let mut buffer = vec![0u8; 64 << 10];
        loop {
            // SAFETY: reading into a buffer of the given length.
            let read = unsafe {
                libc::read(
                    self.inotify.as_raw_fd(),
                    buffer.as_mut_ptr().cast(),
                    buffer.len(),
                )
            };
            if read <= 0 {
                break;
            }
            let mut at = 0;
            while at < read as usize {
                // SAFETY: the kernel writes whole events; the header is read unaligned.
                let event: libc::inotify_event = unsafe {
                    std::ptr::read_unaligned(buffer[at..].as_ptr().cast::<libc::inotify_event>())
                };
                if event.mask & libc::IN_OPEN != 0 {
                    opened_wds.push(event.wd);
                }
                at += std::mem::size_of::<libc::inotify_event>() + event.len as usize;
            }
        }
        let mut opened = Vec::new();
        for (fifo, wd, writer) in self.fifos {
            if opened_wds.contains(&wd) {
                opened.push(fifo.clone());
            }
            if !writer.is_finished() {
                use std::os::unix::fs::OpenOptionsExt;
                let _reader = std::fs::OpenOptions::new()
                    .read(true)
                    .custom_flags(libc::O_NONBLOCK)
                    .open(&fifo)
                    .unwrap();
                writer.join().unwrap();
            }
        }
        opened
    }
}
