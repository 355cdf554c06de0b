//! Which rules a machine follows: the WAVE spec, or the reference emulator's departures from it.

/// The rules a [`Machine`](super::Machine) runs a kernel by, chosen once per machine before it
/// runs ([`Machine::set_behaviour`](super::Machine::set_behaviour)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Behaviour {
    /// WAVE spec v0.4 (docs/spec-departures.md says where it differs from the reference): lanes
    /// that leave a construct early wait where the spec says, a path no lane takes is skipped,
    /// `halt` ends only the lanes that run it. The default, and the fast one.
    #[default]
    Spec,
    /// What `wave-emu` 0.1.2 does, departures D1–D3, D6–D9, D12 and D18 included
    /// (`machine::reference`): its frames, no skipping of empty paths, whole-wave `halt`, its
    /// instruction limit, barrier deadlock and statistics. For checking a kernel against the
    /// reference tool, or showing where the two differ.
    WaveEmu,
}

impl Behaviour {
    /// A stable name: "spec" or "wave-emu".
    pub fn name(self) -> &'static str {
        match self {
            Behaviour::Spec => "spec",
            Behaviour::WaveEmu => "wave-emu",
        }
    }
}
