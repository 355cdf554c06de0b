//! wave-emu's barrier: released only when every wave of the workgroup waits at one.
//!
//! The reference keeps one bit per wave id in a `u64` and expects all of them set, all 64 from
//! 64 waves up. A wave that has halted never sets its bit, so once any wave has halted the
//! others wait forever: the reference calls that a deadlock (D18). And in a workgroup of more
//! than 64 waves, waves 64 and up have no bit: waves 0–63 alone decide the release, which then
//! lets every waiting wave go.

use super::super::wave::{Wave, WaveStatus};

/// The waves whose arrival the reference records.
const RECORDED_WAVES: usize = 64;

/// Whether the reference would release its barrier now.
pub(super) fn is_complete(waves: &[Wave]) -> bool {
    let recorded = &waves[..waves.len().min(RECORDED_WAVES)];
    !recorded.is_empty()
        && recorded
            .iter()
            .all(|wave| wave.status == WaveStatus::AtBarrier)
}

/// The wave a deadlock is reported at: the first one waiting at a barrier.
pub(super) fn first_waiting(waves: &[Wave]) -> usize {
    waves
        .iter()
        .position(|wave| wave.status == WaveStatus::AtBarrier)
        .unwrap_or(0)
}
