//! The halt flags of the runs under way in this process: Ctrl-C in the interpreter, or a
//! Python bot that raised `KeyboardInterrupt`, halts them (`fow_arena::Run::play_until`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The halt flags of the runs under way in this process.
static ACTIVE: Mutex<Vec<Arc<AtomicBool>>> = Mutex::new(Vec::new());

/// Halts every run under way, as Ctrl-C does (a Python bot that raised
/// `KeyboardInterrupt`).
pub fn interrupt_runs() {
    for flag in ACTIVE.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        flag.store(true, Ordering::SeqCst);
    }
}

/// A run's halt flag, listed in [`ACTIVE`] while it lives.
pub struct Halt(pub Arc<AtomicBool>);

impl Halt {
    /// A new flag, listed while it lives.
    pub fn new() -> Halt {
        let flag = Arc::new(AtomicBool::new(false));
        ACTIVE
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(flag.clone());
        Halt(flag)
    }
}

impl Drop for Halt {
    fn drop(&mut self) {
        ACTIVE
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|f| !Arc::ptr_eq(f, &self.0));
    }
}
