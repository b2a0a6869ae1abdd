//! Ctrl-C (SIGINT) for the commands that stop cleanly on it ([`catch_interrupt`]): `fow
//! play` saves its game (a [`crate::HumanPlayer`] reading through [`crate::Interruptible`]
//! stops at once), `fow web` stops serving and saves the games being played. The first
//! Ctrl-C sets [`INTERRUPTED`], a second one exits at once.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first Ctrl-C (SIGINT).
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The SIGINT handler: the first Ctrl-C sets [`INTERRUPTED`] (at `fow play` the human's
/// pending read fails, and the game is saved as left), a second one exits at once.
extern "C" fn on_interrupt(_: libc::c_int) {
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // Only async-signal-safe calls here.
        unsafe { libc::_exit(130) };
    }
}

/// Catches Ctrl-C from now on, without `SA_RESTART`, so that a read waiting for input
/// (the human's next line at `fow play`) is interrupted.
pub fn catch_interrupt() -> Result<(), fow_records::RecordError> {
    // SAFETY: a zeroed sigaction is a valid value; the handler only touches an atomic
    // and calls _exit.
    let done = unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = 0;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut())
    };
    if done != 0 {
        return Err(fow_records::RecordError::System(format!(
            "cannot catch Ctrl-C: {}",
            std::io::Error::last_os_error()
        )));
    }
    Ok(())
}
