//! Compare mode's table: two sessions' runs side by side, as the engine measures and compares
//! them (`wave_engine::compare`), with what the page says around the table.

use wave_engine::compare::{compare_memory, Comparison, RunMeasures};
use wave_engine::machine::Machine;
use wave_engine::program::Kernel;

/// How many differing words the memory sentence names before it only counts them.
pub const MEMORY_DIFFERENCES_SHOWN: usize = 4;

/// The comparison of run A and run B, ready for a table with the accessible name "Comparison".
#[derive(Clone, Debug, PartialEq)]
pub struct ComparisonView {
    /// One row per measure, in the engine's order; `differs` marks the cells to highlight.
    pub rows: Vec<wave_engine::compare::Row>,
    /// The sentence under the table, e.g. "B issues 38 % fewer wave-instructions; …".
    pub headline: String,
    /// When exactly one run has ended (finished or trapped), e.g. "Run A has finished; Run B goes
    /// on alone."
    pub alone: Option<String>,
    /// When both runs have finished: whether they left the same device memory, in a sentence.
    pub memory: Option<String>,
    /// Both runs finished and their device memories differ.
    pub results_differ: bool,
}

/// How far one run has gone, for the sentence about a run going on alone.
fn ending(machine: &Machine) -> Option<&'static str> {
    if machine.is_finished() {
        Some("has finished")
    } else if machine.trap().is_some() {
        Some("has trapped")
    } else {
        None
    }
}

/// The comparison of run A and run B, each a machine and the kernel it runs, as far as each has
/// gone. `Session`'s runs are compared through `crate::comparison` (the function), which hands
/// their machines here: this module sits below the session façade.
pub fn between(a: (&Machine, &Kernel), b: (&Machine, &Kernel)) -> ComparisonView {
    let ((machine_a, kernel_a), (machine_b, kernel_b)) = (a, b);
    let compared = Comparison::new(
        RunMeasures::of(machine_a, kernel_a),
        RunMeasures::of(machine_b, kernel_b),
    );
    let alone = match (ending(machine_a), ending(machine_b)) {
        (Some(how), None) => Some(format!("Run A {how}; Run B goes on alone.")),
        (None, Some(how)) => Some(format!("Run B {how}; Run A goes on alone.")),
        _ => None,
    };
    // Results are compared only when both are complete: a trapped or unfinished run's memory
    // is not its result.
    let verdict = (machine_a.is_finished() && machine_b.is_finished()).then(|| {
        compare_memory(
            machine_a.device().bytes(),
            machine_b.device().bytes(),
            MEMORY_DIFFERENCES_SHOWN,
        )
    });
    ComparisonView {
        rows: compared.rows(),
        headline: compared.headline(),
        alone,
        results_differ: verdict.as_ref().is_some_and(|v| v.differs()),
        memory: verdict.map(|v| v.sentence()),
    }
}

#[cfg(test)]
mod tests {
    use crate::comparison;
    use crate::examples::small_form;
    use crate::{RunProgress, Session};
    use wave_engine::compare::Measure;

    /// Eight threads: each stores its id at id*4, every lane active.
    const STRAIGHT: &str = "\
.kernel straight
    mov_sr  r0, sr_thread_id_x
    mov_imm r1, 4
    imul    r2, r0, r1
    device_store_u32 r2, r0
    halt
.end
";

    /// The same stores, but threads below 2 take a detour first: a split wave, one result the
    /// same, and two more instructions.
    const DETOUR: &str = "\
.kernel detour
    mov_sr  r0, sr_thread_id_x
    mov_imm r1, 2
    icmp_lt p1, r0, r1
    if p1
        mov_imm r3, 0
    endif
    mov_imm r1, 4
    imul    r2, r0, r1
    device_store_u32 r2, r0
    halt
.end
";

    /// Stores its id plus one: a different result.
    const OFF_BY_ONE: &str = "\
.kernel off_by_one
    mov_sr  r0, sr_thread_id_x
    mov_imm r1, 4
    imul    r2, r0, r1
    mov_imm r3, 1
    iadd    r0, r0, r3
    device_store_u32 r2, r0
    halt
.end
";

    fn session(source: &str) -> Session {
        Session::new(source, small_form(8, 8, 256))
    }

    fn finished(source: &str) -> Session {
        let mut s = session(source);
        assert_eq!(s.run_all(), RunProgress::Finished);
        s
    }

    #[test]
    fn none_without_a_machine_on_either_side() {
        let broken = session(".kernel broken\n    frobnicate r0\n.end\n");
        assert!(broken.machine().is_none());
        let good = finished(STRAIGHT);
        assert_eq!(comparison(&broken, &good), None);
        assert_eq!(comparison(&good, &broken), None);
    }

    #[test]
    fn two_finished_runs_with_equal_results() {
        let (a, b) = (finished(DETOUR), finished(STRAIGHT));
        let view = comparison(&a, &b).expect("both have machines");
        let cells: Vec<(Measure, &str, &str, bool)> = view
            .rows
            .iter()
            .map(|r| (r.measure, r.a.as_str(), r.b.as_str(), r.differs))
            .collect();
        // The detour is ten instructions in one wave, of which two (the mov_imm and the endif)
        // run with 2 of 8 lanes: 68 of 80 lane slots.
        assert_eq!(
            cells,
            [
                (Measure::WaveInstructions, "10", "5", true),
                (Measure::SimdEfficiency, "85.0%", "100.0%", true),
                (Measure::DivergentBranches, "1", "0", true),
                (Measure::DeepestStack, "1", "0", true),
                (Measure::BarrierWaits, "0", "0", false),
                (Measure::MemoryReads, "0", "0", false),
                (Measure::MemoryWrites, "8", "8", false),
            ]
        );
        assert_eq!(
            view.headline,
            "B issues 50 % fewer wave-instructions; its SIMD efficiency is 100 % against 85 %."
        );
        assert_eq!(view.alone, None);
        assert_eq!(
            view.memory.as_deref(),
            Some("Results equal: device memory matches (256 bytes).")
        );
        assert!(!view.results_differ);
    }

    #[test]
    fn differing_results_are_named_by_address() {
        let (a, b) = (finished(STRAIGHT), finished(OFF_BY_ONE));
        let view = comparison(&a, &b).expect("both have machines");
        assert!(view.results_differ);
        assert_eq!(
            view.memory.as_deref(),
            Some(
                "Results differ at 8 words, the first 4: 0x0000 A 0 B 1; 0x0004 A 1 B 2; \
                 0x0008 A 2 B 3; 0x000c A 3 B 4."
            )
        );
    }

    #[test]
    fn one_run_goes_on_alone_and_memory_waits_for_both() {
        let a = finished(STRAIGHT);
        let mut b = session(DETOUR);
        b.step();
        let view = comparison(&a, &b).expect("both have machines");
        assert_eq!(
            view.alone.as_deref(),
            Some("Run A has finished; Run B goes on alone.")
        );
        assert_eq!(view.memory, None);
        assert!(!view.results_differ);
        assert_eq!(view.rows[0].b, "1");
        let view = comparison(&b, &a).expect("both have machines");
        assert_eq!(
            view.alone.as_deref(),
            Some("Run B has finished; Run A goes on alone.")
        );

        // A trap ends a run too, but leaves no result to compare.
        let trapping =
            ".kernel oob\n    mov_imm r0, 0x10000\n    device_store_u32 r0, r0\n    halt\n.end\n";
        let mut t = session(trapping);
        assert_eq!(t.run_all(), RunProgress::Trapped);
        let view = comparison(&t, &b).expect("both have machines");
        assert_eq!(
            view.alone.as_deref(),
            Some("Run A has trapped; Run B goes on alone.")
        );
        let view = comparison(&t, &a).expect("both have machines");
        assert_eq!(view.alone, None);
        assert_eq!(view.memory, None);
    }

    #[test]
    fn before_either_run_starts_nothing_is_issued() {
        let (a, b) = (session(STRAIGHT), session(DETOUR));
        let view = comparison(&a, &b).expect("both have machines");
        assert_eq!(
            view.headline,
            "Neither A nor B has issued a wave-instruction."
        );
        assert!(view.rows.iter().all(|r| !r.differs));
        assert_eq!((view.alone, view.memory), (None, None));
    }
}
