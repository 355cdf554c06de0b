//! One generated program checked in `Behaviour::WaveEmu`: our machine against wave-emu 0.1.2
//! (the whole device memory, how the run ended, a failure's error text word for word, and on a
//! finished run every statistic), and against our own spec mode, which it must match exactly
//! when it reported no departure.

use super::gen::Case;
use super::harness::{compile_kernel, lane_figures, oracle_ending, ours_ending, Ending, Launch};
use wave_engine::machine::{Behaviour, Departure};

/// Wave-instructions allowed per workgroup in both machines. The generated programs that end
/// need at most a few thousand; the ones wave-emu never ends (a `continue` with no lane left
/// jumps back for ever, D2) stop here instead of at the usual ten million.
pub const LIMIT: u64 = 20_000;

/// What a case did, for the coverage summary.
pub struct Seen {
    /// "finished", or the failure's name.
    pub ending: &'static str,
    pub departures: Vec<Departure>,
}

/// Runs `case` (a `Profile::WaveEmu` program) on both machines; `Err` says how they differ.
pub fn check(case: &Case, launch: &Launch) -> Result<Seen, String> {
    let kernel = compile_kernel(&case.source)?;
    let (ours, recorded) = ours_ending(&kernel, launch, Behaviour::WaveEmu, LIMIT)?;
    let oracle = oracle_ending(&case.oracle_source(), launch, LIMIT)?;
    if ours.ending != oracle.ending {
        return Err(format!(
            "the runs end differently:\nours     {:?}\nwave-emu {:?}",
            ours.ending, oracle.ending
        ));
    }
    // A failure must read as the reference's, word for word: `wavesim run --compat wave-emu`
    // prints this text.
    if ours.error_text != oracle.error_text {
        return Err(format!(
            "the runs fail with other words:\nours     {:?}\nwave-emu {:?}",
            ours.error_text, oracle.error_text
        ));
    }
    if let Some((offset, mine, theirs, count)) =
        super::harness::first_difference(&ours.memory, &oracle.memory)
    {
        return Err(format!(
            "device memory differs in {count} word(s); first at byte {offset:#x} ({}): \
             ours {mine:#010x}, wave-emu {theirs:#010x} (both ended {:?})",
            case.layout.describe(offset),
            ours.ending
        ));
    }
    let mut departures: Vec<Departure> = Vec::new();
    for event in &recorded.departures {
        if !departures.contains(&event.departure) {
            departures.push(event.departure);
        }
    }
    // A run that departs nowhere is a spec run: the departures must account for every
    // difference in memory, in how the run ends and in the per-lane figures. (A barrier deadlock
    // is the one departure reported as a trap.) Instruction counts may differ without one: when
    // the last lanes of a wave halt inside a construct, spec mode still runs the `endif` or
    // `endloop` it jumps to as a step of its own, where the reference ends the wave at once.
    let deadlocked = ours.ending == Ending::Failed("barrier deadlock");
    if departures.is_empty() && !deadlocked {
        let (spec, _) = ours_ending(&kernel, launch, Behaviour::Spec, LIMIT)?;
        if per_lane(&spec.ending) != per_lane(&ours.ending) || spec.memory != ours.memory {
            return Err(format!(
                "no departure was reported, yet spec mode ends otherwise (memory equal: {}):\n\
                 spec     {:?}\nwave-emu {:?}",
                spec.memory == ours.memory,
                spec.ending,
                ours.ending
            ));
        }
    }
    Ok(Seen {
        ending: match ours.ending {
            Ending::Finished(_) => "finished",
            Ending::Failed(name) => name,
        },
        departures,
    })
}

/// How a run ended, with only the per-lane figures of a finished run's statistics.
fn per_lane(ending: &Ending) -> Ending {
    match ending {
        Ending::Finished(stats) => Ending::Finished(lane_figures(stats)),
        failed => failed.clone(),
    }
}
