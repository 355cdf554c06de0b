//! The editor's text recompiled a few lines per task, so that a long kernel's recompile never
//! holds the page's main thread for long: the front end reads lines until a time budget is
//! spent, and the next task goes on; lowering the program and resetting the machine
//! ([`Session::set_compiled`](crate::Session::set_compiled)) is the last task.

use wave_engine::compile::CompileJob;
use wave_engine::Compiled;

/// Work per task before handing the main thread back.
pub const COMPILE_SLICE_MS: f64 = 8.0;
/// Lines read between two looks at the clock.
const LINES_PER_LOOK: usize = 256;

/// A recompile under way.
pub struct Recompile {
    job: CompileJob,
    started: f64,
    slices: u32,
    longest_slice_ms: f64,
}

/// What a finished recompile took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecompileTimes {
    /// When the first slice began.
    pub started: f64,
    /// Tasks, the last one (lowering) included.
    pub slices: u32,
    /// The longest of them.
    pub longest_slice_ms: f64,
}

impl Recompile {
    /// A recompile of `source`, begun at `now` (ms).
    pub fn new(source: String, now: f64) -> Recompile {
        Recompile {
            job: CompileJob::new(source),
            started: now,
            slices: 0,
            longest_slice_ms: 0.0,
        }
    }

    /// Reads lines until `budget_ms` have passed on `clock` or every line is read. True when
    /// only [`Recompile::finish`] is left.
    pub fn slice(&mut self, clock: impl Fn() -> f64, budget_ms: f64) -> bool {
        let begun = clock();
        let done = loop {
            if self.job.advance(LINES_PER_LOOK) {
                break true;
            }
            if clock() - begun >= budget_ms {
                break false;
            }
        };
        self.note_slice(clock() - begun);
        done
    }

    /// Reads what is left and lowers the program: the source and its compile, and the times.
    pub fn finish(self, clock: impl Fn() -> f64) -> (String, Compiled, RecompileTimes) {
        let begun = clock();
        let (source, compiled) = self.job.finish();
        let times = RecompileTimes {
            started: self.started,
            slices: self.slices + 1,
            longest_slice_ms: self.longest_slice_ms.max(clock() - begun),
        };
        (source, compiled, times)
    }

    fn note_slice(&mut self, ms: f64) {
        self.slices += 1;
        self.longest_slice_ms = self.longest_slice_ms.max(ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_long_source_takes_several_slices_and_compiles_as_in_one_go() {
        let mut source = String::from(".kernel k\n.registers 4\n");
        for i in 0..2000 {
            source.push_str(&format!("    mov_imm r1, {i}\n"));
        }
        source.push_str("    bogus r1\n    halt\n.end\n");
        // A clock that moves 1 ms each time it is read: a slice reads it once per 256 lines.
        let time = Cell::new(0.0);
        let clock = || {
            time.set(time.get() + 1.0);
            time.get()
        };
        let mut recompile = Recompile::new(source.clone(), 0.0);
        let mut slices = 0;
        while !recompile.slice(clock, 2.0) {
            slices += 1;
            assert!(slices < 100, "the recompile never ends");
        }
        assert!(slices >= 2, "{slices} slices before the last");
        let (back, compiled, times) = recompile.finish(clock);
        assert_eq!(back, source);
        assert_eq!(compiled, wave_engine::compile(&source));
        assert_eq!(compiled.diagnostics.len(), 1);
        assert_eq!(times.slices, slices + 2);
    }
}
