//! The time-travel figures: what recording history costs a run, how much memory it keeps, and how
//! long going to a step takes once the run is recorded.

use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;
use wave_engine::machine::{Arrival, History, Stop, DEFAULT_BUDGET};

use crate::bench::{machine_for, seconds, Case};

/// Steps gone to after the run, at seeded random places (plus the last step).
const TARGETS: usize = 40;

pub const HEADER: &str = "| case | steps | run | run recording history | cost of recording | checkpoints (steps apart) | history memory | go to a step: median / p95 / max |\n|---|---:|---:|---:|---:|---:|---:|---|";

/// One table row for `case`: the fastest of `reps` plain runs and of `reps` recording runs
/// (taking turns), then the times of going to [`TARGETS`] steps of the recorded run.
pub fn row(case: &Case, wave_width: u32, portable: bool, reps: u32) -> Result<String, String> {
    let mut plain = Duration::MAX;
    let mut recording = Duration::MAX;
    let mut recorded = None;
    for _ in 0..reps {
        let mut machine = machine_for(case, wave_width, portable)?;
        let start = Instant::now();
        let stop = machine.run_to_end();
        plain = plain.min(start.elapsed());
        if stop != Stop::Finished {
            return Err(format!("the run stopped with {stop:?}"));
        }

        let mut machine = machine_for(case, wave_width, portable)?;
        let start = Instant::now();
        let mut history = History::new(&mut machine, DEFAULT_BUDGET);
        let stop = history.run(&mut machine, u64::MAX, &[]);
        recording = recording.min(start.elapsed());
        if stop != Stop::Finished {
            return Err(format!("the recording run stopped with {stop:?}"));
        }
        recorded = Some((machine, history));
    }
    let (mut machine, mut history) = recorded.ok_or("no repetition ran")?;
    let end = machine.step_count();
    let mut rng = SplitMix64::seed_from_u64(0x5eed_7173);
    let mut targets: Vec<u64> = (0..TARGETS).map(|_| rng.next_u64() % (end + 1)).collect();
    targets.push(end);
    let mut times = Vec::with_capacity(targets.len());
    for &target in &targets {
        let start = Instant::now();
        let arrival = history.go_to(&mut machine, target, u64::MAX);
        times.push(start.elapsed());
        if arrival != Arrival::Arrived || machine.step_count() != target {
            return Err(format!("going to step {target} gave {arrival:?}"));
        }
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    Ok(format!(
        "| {} | {end} | {} | {} | {:+.1} % | {} ({}) | {:.1} MB | {} / {} / {} |",
        case.launch.name,
        seconds(plain),
        seconds(recording),
        (recording.as_secs_f64() / plain.as_secs_f64() - 1.0) * 100.0,
        history.len(),
        history.spacing(),
        history.bytes() as f64 / 1e6,
        seconds(at(0.5)),
        seconds(at(0.95)),
        seconds(at(1.0)),
    ))
}
