//! No program player outlives fow, however fow ends (Unix).
//!
//! Every program runs under a guard: fow starts `/bin/sh` running [`GUARD`] in the
//! program's process group; the shell starts a watcher in the background and then
//! becomes the program (`exec`), so the program keeps the shell's process id, leads its
//! group and reports its own exit status. The watcher blocks reading one end of a
//! *lifeline* pipe whose other end only fow holds. The kernel closes that end when fow
//! ends, by a signal it cannot catch (`SIGKILL`) as much as by an orderly exit, Ctrl-C,
//! `SIGTERM` or `SIGHUP`: the watcher reads end-of-file and kills the whole process
//! group (the program, its children and grandchildren, itself) with `SIGKILL`, which no
//! process can ignore. At the end of a game fow kills the group itself, the watcher with
//! it. The watcher is the program's one extra child, a shell blocked in `read`; under
//! `sandbox=bwrap` it is outside the sandbox (the program there cannot see it).
//!
//! A parent-death signal would not do: the kernel sends it when the *thread* that
//! started the child ends, not the process, and it reaches one process, not a group. A
//! guard forked from fow without `exec` would keep a copy-on-write image of fow's memory
//! alive for a whole game; the shell is small.
//!
//! Between `fork` and `exec` fow also marks every descriptor past stdin, stdout and
//! stderr close-on-exec, so that a program inherits no descriptor that fow itself
//! inherited from its parent; the shell gets the lifeline as descriptor 3 and closes it
//! before it becomes the program.
//!
//! A process that leaves the program's group on purpose (`setsid`, `setpgid`) escapes
//! the group kill; under `sandbox=bwrap` it cannot, as the program's PID namespace ends
//! with it.

use std::io;
use std::process::Command;

/// The guard's script, run by `/bin/sh` with the program's command line as its
/// arguments and the lifeline on descriptor 3.
pub const GUARD: &str = r#"(exec 0<&- 1>&- 2>&-; read -r _ <&3; kill -KILL 0) &
exec 3<&- "$@"
"#;

/// The shell that runs [`GUARD`].
const SHELL: &str = "/bin/sh";

/// A command that runs `argv` under the guard.
#[cfg(target_os = "linux")]
pub(crate) fn command(argv: &[String]) -> io::Result<Command> {
    use std::os::unix::process::CommandExt;
    let line = lifeline()?;
    let mut cmd = Command::new(SHELL);
    cmd.arg("-c").arg(GUARD).arg("fow-guard").args(argv);
    // SAFETY: the closure makes only async-signal-safe system calls on integers.
    unsafe {
        cmd.pre_exec(move || {
            cloexec_from(3);
            // dup2 to another number leaves the copy open across exec (the lifeline is
            // numbered 10 or more).
            if libc::dup2(line, 3) < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    Ok(cmd)
}

/// Off Linux: the program runs without a guard.
#[cfg(not(target_os = "linux"))]
pub(crate) fn command(argv: &[String]) -> io::Result<Command> {
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..]);
    Ok(cmd)
}

/// A pipe whose two ends are numbered 10 or more and close on `exec`.
#[cfg(target_os = "linux")]
fn pipe() -> io::Result<(std::os::fd::OwnedFd, std::os::fd::OwnedFd)> {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: pipe2 writes two descriptors into `fds`; fcntl and close take integers.
    unsafe {
        if libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return Err(io::Error::last_os_error());
        }
        let mut high = [0; 2];
        for (h, fd) in high.iter_mut().zip(fds) {
            *h = libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 10);
            libc::close(fd);
        }
        if high.iter().any(|&h| h < 0) {
            return Err(io::Error::last_os_error());
        }
        Ok((OwnedFd::from_raw_fd(high[0]), OwnedFd::from_raw_fd(high[1])))
    }
}

/// The read end of the lifeline. Its write end is made once and never closed, so it
/// stays open exactly as long as fow runs.
#[cfg(target_os = "linux")]
fn lifeline() -> io::Result<std::os::fd::RawFd> {
    use std::os::fd::IntoRawFd;
    use std::sync::OnceLock;
    static LIFELINE: OnceLock<Option<std::os::fd::RawFd>> = OnceLock::new();
    LIFELINE
        .get_or_init(|| {
            let (read, write) = pipe().ok()?;
            // Deliberately leaked: the write end lives as long as this process.
            let _ = write.into_raw_fd();
            Some(read.into_raw_fd())
        })
        .ok_or_else(|| io::Error::other("cannot make the lifeline pipe"))
}

/// Marks every descriptor from `first` on close-on-exec (in the child, before `exec`).
#[cfg(target_os = "linux")]
fn cloexec_from(first: libc::c_uint) {
    /// `CLOSE_RANGE_CLOEXEC` from `<linux/close_range.h>`: mark, do not close.
    const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;
    // SAFETY: close_range, getrlimit and fcntl take integers and a struct owned here.
    unsafe {
        if libc::syscall(
            libc::SYS_close_range,
            first,
            libc::c_uint::MAX,
            CLOSE_RANGE_CLOEXEC,
        ) == 0
        {
            return;
        }
        // Kernels before 5.11: one descriptor at a time, up to the limit.
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
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
