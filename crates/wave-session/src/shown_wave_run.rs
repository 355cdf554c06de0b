//! When the machine views that hold their tallest height may give that room back.
//!
//! The divergence stack and the list of the last step's events grow and shrink from step to
//! step. Each shrink would move the registers below them, and a moved view is repainted and
//! re-rastered whole (about 0.8 ms of main-thread paint per push or pop on a 64-lane wave). So
//! those views keep the tallest height they have had (`components::held_height` in the app), and
//! give it back only when what they show starts over: the machine is reset (which every edit of
//! the source or configuration does, and every session that replaces another), another
//! workgroup or wave is shown, or the wave width changes. [`ShownWaveRun`] names that span.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::session::Session;

/// A number for each start of a machine ([`Session::reset`]) that no other start in the page
/// shares, whichever session it is in: after one session replaces another (an example opened,
/// a link followed), the new one's value differs from the old one's even though both count
/// from their creation.
pub(super) fn next_machine_start() -> u64 {
    static STARTS: AtomicU64 = AtomicU64::new(1);
    STARTS.fetch_add(1, Ordering::Relaxed)
}

/// One machine start, workgroup, wave and width as the views follow it: it changes exactly when
/// the held room should be given back (see the module comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShownWaveRun {
    machine_start: u64,
    workgroup: u32,
    wave: u32,
    width: u32,
}

impl Session {
    pub fn shown_wave_run(&self) -> ShownWaveRun {
        ShownWaveRun {
            machine_start: self.machine_start,
            workgroup: self.selection.workgroup,
            wave: self.selection.wave,
            width: self.wave_width(),
        }
    }
}
