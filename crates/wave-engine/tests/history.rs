//! Exact history: a machine taken back (or forward) to step k through its checkpoints holds
//! precisely the state the forward run held at step k, for generated programs of every shape the
//! differential generator makes (in spec mode, and in `Behaviour::WaveEmu` with its own
//! programs), under a roomy budget and under one so small that the history thins itself all the
//! time.
#![cfg(not(target_arch = "wasm32"))]

#[allow(dead_code)]
#[path = "differential/gen.rs"]
mod gen;
#[allow(dead_code)]
#[path = "differential/rng.rs"]
mod rng;

use gen::{generate, generate_for, Case, Profile};
use rng::Rng;
use wave_engine::compile;
use wave_engine::machine::{
    Arrival, Behaviour, Checkpoint, History, LaunchConfig, Machine, NoEvents, Stop, DEFAULT_BUDGET,
};

/// Steps of each generated run that are compared (runs are cut there).
const MAX_STEPS: u64 = 1500;

fn machine_of(case: &Case) -> Machine {
    let program = compile(&case.source)
        .program
        .unwrap_or_else(|| panic!("generated program does not compile:\n{}", case.source));
    let config = LaunchConfig {
        grid: case.grid,
        workgroup: case.workgroup,
        wave_width: case.wave_width,
        local_memory: case.local_memory,
        device_memory: case.initial_memory.len() as u32,
        max_instructions: 1 << 20,
        initial_registers: case.initial_registers.clone(),
    };
    let mut machine = Machine::new(&program.kernels[0], &config).expect("launch");
    if case.profile == Profile::WaveEmu {
        machine.set_behaviour(Behaviour::WaveEmu);
    }
    machine
        .device_mut()
        .bytes_mut()
        .copy_from_slice(&case.initial_memory);
    machine
}

/// The state after every step of a forward run, one instruction at a time, and which
/// (workgroup, wave) ran each step.
fn forward(machine: &mut Machine) -> (Vec<Checkpoint>, Vec<(u32, usize)>) {
    let mut states = vec![machine.checkpoint()];
    let mut ran = Vec::new();
    while machine.step_count() < MAX_STEPS {
        if machine.advance_to_ready_wave(&mut NoEvents).is_err() {
            break;
        }
        let who = (
            machine.workgroup().index(),
            machine.workgroup().pick().expect("a ready wave"),
        );
        let before = machine.step_count();
        let stop = machine.run(1, &[], &mut NoEvents);
        machine.finish_if_done();
        if machine.step_count() == before {
            break;
        }
        ran.push(who);
        states.push(machine.checkpoint());
        if stop != Stop::SliceUsed {
            break;
        }
    }
    (states, ran)
}

fn check_case(case: &Case, budget: usize) {
    let seed = case.seed;
    let mut machine = machine_of(case);
    let mut history = History::new(&mut machine, budget);
    let mut reference = machine_of(case);
    let (states, _) = forward(&mut reference);
    let last = states.len() as u64 - 1;
    // Record while running forward, as the session does.
    while machine.step_count() < last {
        let remaining = last - machine.step_count();
        if history.run(&mut machine, remaining, &[]) != Stop::SliceUsed {
            break;
        }
    }
    assert!(history.bytes() <= budget.max(history_floor(&history)));
    let mut rng = Rng::new(seed ^ 0x7157_0e11);
    let mut order: Vec<u64> = (0..=last).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u32 + 1) as usize);
    }
    for step in order {
        let arrival = history.go_to(&mut machine, step, u64::MAX);
        // A run that ends in a trap (wave-emu mode has several: its instruction limit, frame
        // overflows, barrier deadlock) has its trapping instruction as its last step; going to
        // that step reports the trap.
        let trapped_there = step == last && matches!(arrival, Arrival::Ended(Stop::Trap(_)));
        assert!(
            arrival == Arrival::Arrived || trapped_there,
            "seed {seed:#x}, step {step}: {arrival:?}"
        );
        let state = machine.checkpoint();
        assert!(
            state == states[step as usize],
            "seed {seed:#x}: the state at step {step} differs from the forward run's\n{}",
            case.source
        );
    }
}

/// What a history of two checkpoints holds: the budget cannot go below it.
fn history_floor(history: &History) -> usize {
    if history.len() <= 2 {
        usize::MAX
    } else {
        0
    }
}

#[test]
fn every_step_of_generated_programs_is_reached_exactly() {
    for seed in 0..60 {
        check_case(&generate(0x4157_0000 + seed), DEFAULT_BUDGET);
    }
}

#[test]
fn every_step_of_generated_programs_is_reached_exactly_in_wave_emu_mode() {
    for seed in 0..40 {
        check_case(
            &generate_for(0x4157_5000 + seed, Profile::WaveEmu),
            DEFAULT_BUDGET,
        );
    }
    for seed in 0..15 {
        check_case(&generate_for(0x4157_6000 + seed, Profile::WaveEmu), 1);
    }
}

#[test]
fn a_history_thinned_to_its_bone_still_reaches_every_step() {
    for seed in 0..30 {
        check_case(&generate(0x4157_1000 + seed), 1);
    }
}

#[test]
fn the_steps_a_wave_started_are_the_ones_the_forward_run_gave_it() {
    for seed in 0..40 {
        let case = generate(0x4157_2000 + seed);
        let mut reference = machine_of(&case);
        let (states, ran) = forward(&mut reference);
        let last = states.len() as u64 - 1;
        let mut machine = machine_of(&case);
        let mut history = History::new(&mut machine, DEFAULT_BUDGET);
        history.run(&mut machine, last, &[]);
        let mut rng = Rng::new(seed);
        for _ in 0..20 {
            let before = rng.below(last as u32 + 1) as u64;
            let Some(&(workgroup, wave)) = ran.get(before.saturating_sub(1) as usize) else {
                continue;
            };
            let found = history.wave_steps_before(&mut machine, workgroup, wave, before, 3);
            let expected: Vec<u64> = (0..before)
                .filter(|&s| ran[s as usize] == (workgroup, wave))
                .collect();
            let tail = &expected[expected.len().saturating_sub(3)..];
            assert_eq!(found.starts, tail, "seed {seed}, before {before}");
            assert_eq!(machine.step_count(), before);
            if let Some(start) = found.workgroup_start {
                let first = ran.iter().position(|r| r.0 == workgroup).unwrap() as u64;
                assert_eq!(start, first, "seed {seed}: workgroup {workgroup} start");
            }
        }
    }
}

#[test]
fn a_long_run_keeps_within_its_budget_by_thinning() {
    let source = "\
.kernel spin
    mov_sr r0, sr_lane_id
    mov_imm r1, 0
    mov_imm r5, 1
    mov_imm r6, 2
    mov_imm r7, 64000
    mov_imm r8, 16383
    loop
        iadd r1, r1, r5
        and r4, r1, r8
        shl r3, r4, r6
        device_store_u32 r3, r1
        icmp_ge p1, r1, r7
        break p1
    endloop
    halt
.end
";
    let program = compile(source).program.expect("compiles");
    let config = LaunchConfig {
        grid: [1, 1, 1],
        workgroup: [32, 1, 1],
        wave_width: 32,
        device_memory: 64 * 1024,
        ..LaunchConfig::default()
    };
    let mut machine = Machine::new(&program.kernels[0], &config).expect("launch");
    let budget = 512 * 1024;
    let mut history = History::new(&mut machine, budget);
    let spacing = history.spacing();
    assert_eq!(history.run(&mut machine, u64::MAX, &[]), Stop::Finished);
    let end = machine.step_count();
    let at_end = machine.checkpoint();
    assert!(history.bytes() <= budget, "{} > {budget}", history.bytes());
    assert!(history.spacing() > spacing, "the history did not thin");
    assert!(history.len() > 2);
    assert_eq!(history.go_to(&mut machine, 3, u64::MAX), Arrival::Arrived);
    assert_eq!(machine.step_count(), 3);
    assert_eq!(history.go_to(&mut machine, end, u64::MAX), Arrival::Arrived);
    assert!(machine.checkpoint() == at_end);
    assert_eq!(
        history.go_to(&mut machine, end + 10, u64::MAX),
        Arrival::Ended(Stop::Finished)
    );
}

#[test]
fn a_checkpoint_restores_only_into_its_own_machine() {
    let case = generate(0x4157_3000);
    let mut first = machine_of(&case);
    let mut second = machine_of(&case);
    let start = first.checkpoint();
    first.run(50, &[], &mut NoEvents);
    assert!(second.restore(&start).is_err());
    assert!(first.restore(&start).is_ok());
    assert_eq!(first.step_count(), 0);
}

#[test]
fn a_replay_goes_at_most_its_allowance_per_call() {
    let case = generate(0x4157_4000);
    let mut machine = machine_of(&case);
    let mut history = History::new(&mut machine, DEFAULT_BUDGET);
    let mut reference = machine_of(&case);
    let (states, _) = forward(&mut reference);
    let target = states.len() as u64 - 1;
    let mut calls = 0;
    loop {
        calls += 1;
        let before = machine.step_count();
        match history.go_to(&mut machine, target, 7) {
            Arrival::OnTheWay => assert!(machine.step_count() <= before + 7),
            Arrival::Arrived => break,
            Arrival::Ended(stop) => panic!("ended early: {stop:?}"),
        }
    }
    assert!(calls > 1 || target <= 7);
    assert!(machine.checkpoint() == states[target as usize]);
}
