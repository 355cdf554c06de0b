//! `wave-trace`: the control-flow events of a run as one JSON document, format `"wave-trace"`,
//! version [`VERSION`]. The playground's "Download trace" and `wavesim run --trace-json FILE`
//! both write it with [`TraceWriter`], so a trace saved from the page and one from the command
//! line compare line for line. The schema is documented in `docs/trace-format.md`;
//! [`Trace`] reads it back.
//!
//! Masks are written as hexadecimal strings: a JSON number is a double, which cannot hold every
//! 64-lane mask exactly.

// Nothing here needs `unsafe`; the engine below keeps it behind validated kernels.
#![forbid(unsafe_code)]

use std::io::{self, Write};

use serde::{Deserialize, Serialize};
use wave_engine::machine::{Event, EventKind, ResolvedLaunch, Trap};
use wave_engine::program::Kernel;

/// The `format` field of every trace.
pub const FORMAT: &str = "wave-trace";
/// The `version` field this crate writes. A reader refuses a version it does not know.
pub const VERSION: u32 = 1;

/// A whole trace, as read back.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub format: String,
    pub version: u32,
    pub kernel: String,
    pub launch: TraceLaunch,
    /// The step the trace starts after: 0 for the whole run, more when only its last part is
    /// kept.
    pub first_step: u64,
    pub events: Vec<TraceEvent>,
    /// The step the trace ends at (the machine's step count then).
    pub last_step: u64,
    pub end: TraceEnd,
}

impl Trace {
    /// Reads a trace, refusing another format or a version this crate does not know.
    pub fn parse(text: &str) -> Result<Trace, String> {
        #[derive(Deserialize)]
        struct Head {
            format: String,
            version: u32,
        }
        let head: Head =
            serde_json::from_str(text).map_err(|e| format!("not a WAVE trace: {e}"))?;
        if head.format != FORMAT {
            return Err(format!(
                "not a WAVE trace: its format is \"{}\"",
                head.format
            ));
        }
        if head.version != VERSION {
            return Err(format!(
                "a trace of version {}; this reader knows version {VERSION}",
                head.version
            ));
        }
        serde_json::from_str(text).map_err(|e| format!("a damaged WAVE trace: {e}"))
    }
}

/// The launch the trace was taken with (the kernel's `.workgroup_size` applied).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceLaunch {
    pub grid: [u32; 3],
    pub workgroup: [u32; 3],
    pub wave_width: u32,
}

/// One control-flow event.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    /// The step count right after the instruction that caused it ran: the step the playground
    /// shows it at.
    pub step: u64,
    /// The workgroup's id in the grid.
    pub workgroup: [u32; 3],
    pub wave: u32,
    /// The instruction that caused it: its index, source line and text.
    pub pc: u32,
    pub line: u32,
    pub instruction: String,
    /// "push-if", "push-loop", "pop-if", "pop-loop", "diverge", "else", "skip", "break",
    /// "continue", "iterate", "halt", "barrier-wait", "barrier-release", "call", "return" or
    /// "wave-done".
    pub kind: String,
    /// The lanes it concerns, e.g. "0x0f" (see `docs/trace-format.md` for each kind).
    pub lanes: String,
    /// "diverge": the lanes that took the else side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub else_lanes: Option<String>,
    /// "skip": where the wave jumps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_pc: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_line: Option<u32>,
}

/// How the run stood when the trace ended.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum TraceEnd {
    /// Every workgroup finished.
    Finished,
    /// The run can go on (a trace saved in the middle of stepping).
    Paused,
    /// A trap stopped the run.
    Trapped {
        message: String,
        workgroup: [u32; 3],
        wave: u32,
        lane: Option<u32>,
        pc: u32,
        line: u32,
    },
}

impl TraceEnd {
    /// The end of a run that `trap` stopped in workgroup `workgroup` (its id) of `kernel`.
    pub fn trapped(trap: &Trap, workgroup: [u32; 3], kernel: &Kernel) -> TraceEnd {
        TraceEnd::Trapped {
            message: trap.kind.to_string(),
            workgroup,
            wave: trap.wave,
            lane: trap.lane,
            pc: trap.pc,
            line: kernel.lines.get(trap.pc as usize).copied().unwrap_or(0),
        }
    }
}

/// Writes a trace as the run goes: the head first, then each step's events, then the end.
pub struct TraceWriter<'k, W: Write> {
    out: W,
    kernel: &'k Kernel,
    source: &'k str,
    digits: usize,
    first_event: bool,
    events: u64,
}

impl<'k, W: Write> TraceWriter<'k, W> {
    /// Writes the head of a trace of `kernel` (compiled from `source`) that starts after step
    /// `first_step`.
    pub fn new(
        mut out: W,
        kernel: &'k Kernel,
        source: &'k str,
        launch: &ResolvedLaunch,
        first_step: u64,
    ) -> io::Result<Self> {
        let launch = TraceLaunch {
            grid: launch.grid,
            workgroup: launch.workgroup,
            wave_width: launch.wave_width,
        };
        write!(
            out,
            "{{\n\"format\": \"{FORMAT}\",\n\"version\": {VERSION},\n\"kernel\": "
        )?;
        serde_json::to_writer(&mut out, &kernel.name)?;
        out.write_all(b",\n\"launch\": ")?;
        serde_json::to_writer(&mut out, &launch)?;
        write!(out, ",\n\"first_step\": {first_step},\n\"events\": [")?;
        Ok(TraceWriter {
            out,
            kernel,
            source,
            digits: launch.wave_width.div_ceil(4).max(1) as usize,
            first_event: true,
            events: 0,
        })
    }

    /// Writes the events of one step: `step` is the step count right after its instruction
    /// ran, `workgroup` the id of the workgroup it ran in.
    pub fn step(&mut self, step: u64, workgroup: [u32; 3], events: &[Event]) -> io::Result<()> {
        for event in events {
            let record = self.record(step, workgroup, event);
            self.out
                .write_all(if self.first_event { b"\n" } else { b",\n" })?;
            serde_json::to_writer(&mut self.out, &record)?;
            self.first_event = false;
            self.events += 1;
        }
        Ok(())
    }

    /// Events written so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Writes the end and hands the output back.
    pub fn finish(mut self, last_step: u64, end: &TraceEnd) -> io::Result<W> {
        let close = if self.first_event { "]" } else { "\n]" };
        write!(self.out, "{close},\n\"last_step\": {last_step},\n\"end\": ")?;
        serde_json::to_writer(&mut self.out, end)?;
        self.out.write_all(b"\n}\n")?;
        self.out.flush()?;
        Ok(self.out)
    }

    /// The source line of instruction `pc` (0 when unknown).
    pub fn line(&self, pc: u32) -> u32 {
        self.kernel.lines.get(pc as usize).copied().unwrap_or(0)
    }

    fn mask(&self, mask: u64) -> String {
        format!("0x{mask:0width$x}", width = self.digits)
    }

    fn record(&self, step: u64, workgroup: [u32; 3], event: &Event) -> TraceEvent {
        let (else_lanes, to) = match event.kind {
            EventKind::Diverge { other } => (Some(self.mask(other)), None),
            EventKind::Skip { to } => (None, Some(to)),
            _ => (None, None),
        };
        TraceEvent {
            step,
            workgroup,
            wave: event.wave,
            pc: event.pc,
            line: self.line(event.pc),
            instruction: instruction_text(self.kernel, self.source, event.pc).to_string(),
            kind: event.kind.name().to_string(),
            lanes: self.mask(event.mask),
            else_lanes,
            to_pc: to,
            to_line: to.map(|to| self.line(to)),
        }
    }
}

/// The source text of instruction `pc` (its statement, trimmed), or "?" when unknown.
pub fn instruction_text<'s>(kernel: &Kernel, source: &'s str, pc: u32) -> &'s str {
    kernel
        .spans
        .get(pc as usize)
        .and_then(|span| source.get(span.start as usize..span.end as usize))
        .map_or("?", str::trim)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_refuses_other_formats_and_versions_with_a_reason() {
        let other = r#"{"format": "chrome-trace", "version": 1}"#;
        assert!(Trace::parse(other)
            .unwrap_err()
            .contains("\"chrome-trace\""));
        let newer = r#"{"format": "wave-trace", "version": 2}"#;
        assert!(Trace::parse(newer).unwrap_err().contains("version 2"));
        let damaged = r#"{"format": "wave-trace", "version": 1, "kernel": 3}"#;
        assert!(Trace::parse(damaged).unwrap_err().starts_with("a damaged"));
        assert!(Trace::parse("not json")
            .unwrap_err()
            .starts_with("not a WAVE trace"));
    }

    #[test]
    fn an_empty_trace_is_a_valid_document() {
        let kernel = wave_engine::compile(".kernel k\n    halt\n.end\n")
            .program
            .expect("compiles")
            .kernels
            .remove(0);
        let machine = wave_engine::machine::Machine::new(
            &kernel,
            &wave_engine::machine::LaunchConfig::default(),
        )
        .expect("a machine");
        let writer = TraceWriter::new(Vec::new(), &kernel, "", machine.launch(), 0).unwrap();
        let bytes = writer.finish(0, &TraceEnd::Paused).unwrap();
        let trace = Trace::parse(std::str::from_utf8(&bytes).unwrap()).unwrap();
        assert!(trace.events.is_empty());
        assert_eq!((trace.kernel.as_str(), trace.end), ("k", TraceEnd::Paused));
    }
}
