//! No program player outlives fow, however fow ends (Linux).
//!
//! Every program runs under a small guard process that fow forks for it: the guard is
//! the process fow starts (and the leader of the program's process group), the program
//! its only child. The guard waits for one of two things:
//!
//! - the program ends: the guard reaps it and ends with the same status, so fow sees the
//!   program's own exit status;
//! - fow ends: every guard holds the read end of one *lifeline* pipe whose write end only
//!   fow holds. The kernel closes it when fow ends, by a signal it cannot catch
//!   (`SIGKILL`) as much as by an orderly exit, Ctrl-C, `SIGTERM` or `SIGHUP`. The guard
//!   reads end-of-file and kills its whole process group (the program, its children and
//!   grandchildren, and itself) with `SIGKILL`, which no process can ignore.
//!
//! A parent-death signal would not do: the kernel sends it when the *thread* that
//! started the child ends, not the process, and it reaches one process, not a group.
//!
//! Between the fork and the program's start the guard only makes system calls that are
//! safe after `fork` in a threaded process (no allocation, no locks). The same step
//! marks every descriptor past stdin, stdout and stderr close-on-exec, so a program
//! inherits no descriptor that fow itself inherited from its own parent.
//!
//! A process that leaves the program's group on purpose (`setsid`, `setpgid`) escapes
//! the group kill; under `sandbox=bwrap` it cannot, as the program's PID namespace ends
//! with it.

#[cfg(target_os = "linux")]
pub(crate) use linux::install;

#[cfg(not(target_os = "linux"))]
pub(crate) use other::install;

#[cfg(target_os = "linux")]
mod linux {
    use std::io::{self, Read};
    use std::os::fd::{FromRawFd, OwnedFd, RawFd};
    use std::os::unix::process::CommandExt;
    use std::process::Command;
    use std::sync::OnceLock;

    /// `CLOSE_RANGE_CLOEXEC` from `<linux/close_range.h>`: mark, do not close.
    const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;

    /// The read end of the lifeline (close-on-exec in fow); the write end is kept open,
    /// never used and never closed, so that it closes exactly when fow ends.
    static LIFELINE: OnceLock<Option<RawFd>> = OnceLock::new();

    fn lifeline() -> Option<RawFd> {
        *LIFELINE.get_or_init(|| {
            let mut fds = [0 as libc::c_int; 2];
            // SAFETY: pipe2 writes two descriptors into `fds`.
            if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
                return None;
            }
            // fds[1] is deliberately leaked: it must stay open for fow's whole life.
            Some(fds[0])
        })
    }

    /// Where the guard reports the program's process id, read once it is started.
    pub(crate) struct Started(Option<std::fs::File>);

    impl Started {
        /// The program's process id (`None` if the guard could not start it or was not
        /// installed).
        pub(crate) fn program_pid(mut self) -> Option<u32> {
            let mut buf = [0u8; 4];
            let f = self.0.as_mut()?;
            f.read_exact(&mut buf).ok()?;
            Some(u32::from_ne_bytes(buf))
        }
    }

    /// Makes `cmd` start under a guard (see the module documentation). Call before
    /// `spawn`; then [`Started::program_pid`] gives the program's id.
    pub(crate) fn install(cmd: &mut Command) -> io::Result<Started> {
        let Some(line) = lifeline() else {
            return Err(io::Error::other("cannot make the lifeline pipe"));
        };
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe2 writes two descriptors into `fds`.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: both descriptors were just made and are owned here.
        let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        let report: RawFd = std::os::fd::AsRawFd::as_raw_fd(&write);
        // The write end must stay open until the child has forked: it is dropped with
        // the closure, which lives in `cmd`.
        let keep = write;
        // SAFETY: the closure makes only async-signal-safe system calls (see `split`).
        unsafe {
            cmd.pre_exec(move || {
                let _ = &keep;
                split(line, report)
            });
        }
        Ok(Started(Some(std::fs::File::from(read))))
    }

    /// Runs in the child between `fork` and `exec`: marks inherited descriptors
    /// close-on-exec, forks the program (which returns to `exec`) and becomes its guard.
    fn split(line: RawFd, report: RawFd) -> io::Result<()> {
        cloexec_from(3);
        // SAFETY: fork in a single-threaded child; both sides continue with
        // async-signal-safe calls only.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        if pid == 0 {
            return Ok(());
        }
        guard(pid, line, report)
    }

    /// Marks every descriptor from `first` on close-on-exec.
    fn cloexec_from(first: libc::c_uint) {
        // SAFETY: close_range takes plain integers.
        let r = unsafe {
            libc::syscall(
                libc::SYS_close_range,
                first,
                libc::c_uint::MAX,
                CLOSE_RANGE_CLOEXEC,
            )
        };
        if r == 0 {
            return;
        }
        // Kernels before 5.11: one descriptor at a time, up to the limit.
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes into `lim`; fcntl takes plain integers.
        unsafe {
            let top = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 {
                lim.rlim_cur.min(1 << 16) as libc::c_int
            } else {
                1024
            };
            for fd in first as libc::c_int..top {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            }
        }
    }

    /// The guard: keeps only the lifeline, reports the program's id, then waits for the
    /// program's end (ends the same way) or fow's (kills the group).
    fn guard(program: libc::pid_t, line: RawFd, report: RawFd) -> ! {
        // SAFETY: plain system calls on integers and on buffers owned here.
        unsafe {
            let bytes = (program as u32).to_ne_bytes();
            libc::write(report, bytes.as_ptr().cast(), bytes.len());
            // The program's stdin, stdout and stderr must close when the program ends:
            // the guard keeps no copy. Then every descriptor but the lifeline goes.
            for fd in 0..3 {
                libc::close(fd);
            }
            let line = line as libc::c_uint;
            if line > 3 {
                libc::syscall(libc::SYS_close_range, 3 as libc::c_uint, line - 1, 0);
            }
            if libc::syscall(libc::SYS_close_range, line + 1, libc::c_uint::MAX, 0) != 0 {
                libc::close(report);
            }
            let pidfd = libc::syscall(libc::SYS_pidfd_open, program, 0) as libc::c_int;
            loop {
                let mut fds = [
                    libc::pollfd {
                        fd: line as libc::c_int,
                        events: libc::POLLIN,
                        revents: 0,
                    },
                    libc::pollfd {
                        fd: pidfd,
                        events: libc::POLLIN,
                        revents: 0,
                    },
                ];
                // Without a pidfd (kernels before 5.3): look at the program every 50 ms.
                let (n, wait) = if pidfd >= 0 { (2, -1) } else { (1, 50) };
                let r = libc::poll(fds.as_mut_ptr(), n, wait);
                if r < 0 {
                    continue; // EINTR
                }
                if fds[0].revents != 0 {
                    // fow has ended: end everything in the group, this guard included.
                    libc::kill(0, libc::SIGKILL);
                    libc::_exit(137);
                }
                let mut status = 0;
                if libc::waitpid(program, &mut status, libc::WNOHANG) == program {
                    if libc::WIFSIGNALED(status) {
                        let sig = libc::WTERMSIG(status);
                        libc::signal(sig, libc::SIG_DFL);
                        libc::kill(libc::getpid(), sig);
                        libc::_exit(128 + sig);
                    }
                    libc::_exit(libc::WEXITSTATUS(status));
                }
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod other {
    use std::io;
    use std::process::Command;

    /// No guard off Linux: the program's id is the child's.
    pub(crate) struct Started;

    impl Started {
        pub(crate) fn program_pid(self) -> Option<u32> {
            None
        }
    }

    pub(crate) fn install(_cmd: &mut Command) -> io::Result<Started> {
        Ok(Started)
    }
}
