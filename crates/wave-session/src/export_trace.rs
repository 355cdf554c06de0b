//! "Download trace": the control-flow events of the run so far as a `wave-trace` JSON document
//! (the format `wavesim run --trace-json` writes), rebuilt by replaying the history one
//! instruction at a time.

use wave_engine::machine::Arrival;
use wave_trace::{TraceEnd, TraceWriter};

use crate::build::Build;
use crate::run::Run;

/// Most steps one trace replays: a longer run keeps its last this many, so saving stays quick
/// in the page (about a second of replay) and the file stays a size an editor opens.
pub const MAX_TRACE_STEPS: u64 = 200_000;

/// A trace ready to save.
#[derive(Clone, Debug)]
pub struct TraceExport {
    pub json: String,
    /// The steps it covers: after `first_step` up to `last_step`.
    pub first_step: u64,
    pub last_step: u64,
    pub events: u64,
}

/// The events of steps up to now (the last [`MAX_TRACE_STEPS`] of them) as JSON. Leaves the
/// machine where it stands. `Err` says why there is nothing to trace.
pub(crate) fn trace_json(build: &Build, run: &mut Run) -> Result<TraceExport, String> {
    let now = run.step_count();
    let first = now.saturating_sub(MAX_TRACE_STEPS);
    // Instruction texts come from the source the kernel was compiled from: while an edit
    // has not compiled, the texts are left out ("?") rather than taken from other lines.
    let source = if build.program_current() {
        build.source()
    } else {
        ""
    };
    let (Some(kernel), Some((machine, history))) = (build.kernel(), run.machine_and_history())
    else {
        return Err("Nothing has run: fix the kernel or the launch first".to_string());
    };
    let launch = machine.launch().clone();
    let mut writer =
        TraceWriter::new(Vec::new(), kernel, source, &launch, first).map_err(|e| e.to_string())?;
    let mut failed = None;
    history.replay_each(machine, first, now, |replayed| {
        if let Err(e) = writer.step(replayed.step + 1, replayed.workgroup_id, replayed.events) {
            failed.get_or_insert(e);
        }
    });
    if history.go_to(machine, now, u64::MAX) != Arrival::Arrived {
        return Err("The run could not be replayed to this step".to_string());
    }
    if let Some(e) = failed {
        return Err(e.to_string());
    }
    let end = match machine.trap() {
        Some(trap) => TraceEnd::trapped(&trap, machine.workgroup().id(), kernel),
        None if machine.is_finished() => TraceEnd::Finished,
        None => TraceEnd::Paused,
    };
    let events = writer.events();
    let bytes = writer.finish(now, &end).map_err(|e| e.to_string())?;
    Ok(TraceExport {
        json: String::from_utf8(bytes).map_err(|e| e.to_string())?,
        first_step: first,
        last_step: now,
        events,
    })
}
