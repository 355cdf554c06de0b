//! `Behaviour::WaveEmu` through the machine's API: choosing it, what it does with calls (which
//! the differential programs leave out: wave-asm 0.1.2 computes call targets wrongly), the lane
//! states it leaves, breakpoints and single steps over its own steps, and the reference's
//! barrier rule in a workgroup of more than 64 waves.
#![cfg(not(target_arch = "wasm32"))]

#[allow(dead_code)]
#[path = "differential/harness.rs"]
mod harness;

use harness::{oracle_ending, ours_ending, Ending, Launch};
use wave_engine::machine::{
    Behaviour, Departure, EventKind, LaneState, LaunchConfig, Machine, NoEvents, Recorded, Stop,
    TrapKind,
};

fn machine(source: &str, threads: u32, width: u32, behaviour: Behaviour) -> Machine {
    let program = wave_engine::compile(source).program.expect("compiles");
    let config = LaunchConfig {
        workgroup: [threads, 1, 1],
        wave_width: width,
        device_memory: 64,
        max_instructions: 10_000,
        ..LaunchConfig::default()
    };
    let mut machine = Machine::new(&program.kernels[0], &config).expect("valid launch");
    machine.set_behaviour(behaviour);
    machine
}

fn words(machine: &Machine, count: usize) -> Vec<u32> {
    machine
        .device()
        .bytes()
        .chunks_exact(4)
        .take(count)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

fn departures(recorded: &Recorded) -> Vec<Departure> {
    recorded.departures.iter().map(|d| d.departure).collect()
}

#[test]
fn spec_is_the_default_and_a_new_behaviour_refuses_older_checkpoints() {
    let source = ".kernel k\n    halt\n.end\n";
    let program = wave_engine::compile(source).program.unwrap();
    let mut m = Machine::new(&program.kernels[0], &LaunchConfig::default()).unwrap();
    assert_eq!(m.behaviour(), Behaviour::Spec);
    let before = m.checkpoint();
    m.set_behaviour(Behaviour::Spec);
    assert!(
        m.restore(&before).is_ok(),
        "the same behaviour keeps the identity"
    );
    m.set_behaviour(Behaviour::WaveEmu);
    assert_eq!(m.behaviour(), Behaviour::WaveEmu);
    assert_eq!(Behaviour::WaveEmu.name(), "wave-emu");
    assert!(m.restore(&before).is_err());
    assert_eq!(m.run_to_end(), Stop::Finished);
}

#[test]
fn a_spec_machine_reports_no_departure() {
    // The probe programs where wave-emu departs most: a spec machine keeps quiet on them.
    let source = "
.kernel k
    mov_sr r0, sr_lane_id
    mov_imm r1, 2
    icmp_lt p1, r0, r1
    icmp_lt p0, r0, r1
    @p0 mov r3, r1
    mov_imm r5, 1
    loop
        iadd r6, r6, r5
        if p1
            break p1
            @p1 halt
        endif
        continue p1
        icmp_ge p2, r6, r1
        break p2
    endloop
    if p1
        halt
    endif
    halt
.end
";
    let mut recorded = Recorded::default();
    let mut m = machine(source, 4, 4, Behaviour::Spec);
    assert_eq!(m.run(u64::MAX, &[], &mut recorded), Stop::Finished);
    assert!(!recorded.events.is_empty());
    assert_eq!(recorded.departures, vec![]);
    let mut recorded = Recorded::default();
    let mut m = machine(source, 4, 4, Behaviour::WaveEmu);
    m.run(u64::MAX, &[], &mut recorded);
    assert!(departures(&recorded).contains(&Departure::P0Unconditional));
}

#[test]
fn a_guarded_call_with_no_lane_calls_anyway() {
    // No lane has p1: spec mode does not call, wave-emu calls (a call is no sync instruction
    // there) and the callee stores.
    let source = "
.kernel k
    mov_imm r1, 0
    mov_imm r2, 5
    icmp_ne p1, r1, r1
    @p1 call store
    halt
store:
    device_store_u32 r1, r2
    return
.end
";
    let mut spec = machine(source, 4, 4, Behaviour::Spec);
    assert_eq!(spec.run_to_end(), Stop::Finished);
    assert_eq!(words(&spec, 1), vec![0]);
    let mut wave_emu = machine(source, 4, 4, Behaviour::WaveEmu);
    let mut recorded = Recorded::default();
    assert_eq!(wave_emu.run(u64::MAX, &[], &mut recorded), Stop::Finished);
    assert_eq!(words(&wave_emu, 1), vec![5]);
    assert!(departures(&recorded).contains(&Departure::GuardedCallWithNoLane));
}

#[test]
fn a_return_out_of_a_loop_leaves_its_frame_open_for_a_later_else_to_trip_over() {
    // The callee returns from inside a loop it opened. Spec mode stops there; wave-emu goes back
    // and the caller's `else` then finds the loop's frame on top.
    let source = "
.kernel k
    mov_sr r0, sr_lane_id
    mov_imm r1, 2
    icmp_lt p1, r0, r1
    if p1
        call inner
    else
        nop
    endif
    halt
inner:
    loop
        return
    endloop
    return
.end
";
    let mut spec = machine(source, 4, 4, Behaviour::Spec);
    assert!(matches!(
        spec.run_to_end(),
        Stop::Trap(trap) if trap.kind == TrapKind::ReturnInsideConstruct
    ));
    let mut wave_emu = machine(source, 4, 4, Behaviour::WaveEmu);
    let mut recorded = Recorded::default();
    let stop = wave_emu.run(u64::MAX, &[], &mut recorded);
    assert!(
        matches!(stop, Stop::Trap(trap) if trap.kind == TrapKind::ElseWithoutIf && trap.pc == 5),
        "{stop:?}"
    );
    assert!(departures(&recorded).contains(&Departure::ReturnLeftFramesOpen));
}

#[test]
fn a_ninth_nested_call_overflows_the_call_stack() {
    let source = "
.kernel k
    call deeper
    halt
deeper:
    call deeper
    return
.end
";
    let mut m = machine(source, 1, 1, Behaviour::WaveEmu);
    let stop = m.run_to_end();
    assert!(
        matches!(stop, Stop::Trap(trap) if trap.kind == TrapKind::CallStackOverflow),
        "{stop:?}"
    );
    assert_eq!(m.workgroup().waves()[0].calls().len(), 8);
}

#[test]
fn lanes_a_guarded_halt_took_out_show_halted_until_a_frame_brings_them_back() {
    let source = "
.kernel k
    mov_sr r0, sr_lane_id
    mov_imm r1, 2
    icmp_lt p1, r0, r1
    icmp_eq p2, r0, r0
    if p2
        @p1 halt
        nop
    endif
    nop
    halt
.end
";
    let mut m = machine(source, 4, 4, Behaviour::WaveEmu);
    // Up to the `nop` after the guarded halt.
    m.run(7, &[], &mut NoEvents);
    let wave = &m.workgroup().waves()[0];
    assert_eq!(wave.pc(), 7);
    assert_eq!(wave.lane_state(0), LaneState::Halted);
    assert_eq!(wave.lane_state(3), LaneState::Active);
    // Through the `endif`: lanes 0 and 1 are back.
    m.run(2, &[], &mut NoEvents);
    let wave = &m.workgroup().waves()[0];
    assert_eq!(wave.active(), 0b1111);
    assert_eq!(wave.lane_state(0), LaneState::Active);
}

#[test]
fn breakpoints_and_single_steps_see_every_step_of_an_empty_path() {
    // No lane takes the `if`: spec mode skips its body, wave-emu runs it, and a breakpoint
    // inside stops it there.
    let source = "
.kernel k
    mov_sr r0, sr_lane_id
    icmp_ne p1, r0, r0
    if p1
        nop
    endif
    halt
.end
";
    let mut breakpoints = vec![false; 6];
    breakpoints[3] = true;
    let mut spec = machine(source, 4, 4, Behaviour::Spec);
    assert_eq!(
        spec.run(u64::MAX, &breakpoints, &mut NoEvents),
        Stop::Finished
    );
    let mut wave_emu = machine(source, 4, 4, Behaviour::WaveEmu);
    assert_eq!(
        wave_emu.run(u64::MAX, &breakpoints, &mut NoEvents),
        Stop::Breakpoint { wave: 0, pc: 3 }
    );
    assert_eq!(wave_emu.workgroup().waves()[0].active(), 0);
    let mut events = Vec::new();
    assert_eq!(wave_emu.step_wave(0, 100, &mut events), Stop::Stepped);
    assert_eq!(wave_emu.workgroup().waves()[0].pc(), 4);
    assert_eq!(wave_emu.run(u64::MAX, &[], &mut events), Stop::Finished);
    // Six instructions ran; the last, `halt`, counts as every instruction does.
    assert_eq!(wave_emu.stats().wave_instructions, 6);
    assert!(events.iter().any(|e| e.kind == EventKind::WaveDone));
}

#[test]
fn a_wave_with_nothing_left_ends_at_its_next_pick_in_a_step_of_its_own() {
    // A guarded `@p1 if`, built by hand (the front end refuses it), enters its frame with no
    // lane and puts the mask back; the `endif` then leaves every lane inactive with no frame
    // open. wave-emu ends the wave at its next pick: a step that counts toward the instruction
    // limit but runs no instruction.
    let source = "
.kernel k
    mov_sr r0, sr_lane_id
    icmp_ne p1, r0, r0
    icmp_ne p2, r0, r0
    if p2
    endif
    nop
    halt
.end
";
    let mut program = wave_engine::compile(source).program.unwrap();
    let kernel = &mut program.kernels[0];
    kernel.code[3].guard = wave_engine::instr::Guard::P1;
    let config = LaunchConfig {
        workgroup: [4, 1, 1],
        wave_width: 4,
        device_memory: 64,
        max_instructions: 6,
        ..LaunchConfig::default()
    };
    let mut m = Machine::new(kernel, &config).unwrap();
    m.set_behaviour(Behaviour::WaveEmu);
    assert_eq!(m.run_to_end(), Stop::Finished);
    // mov_sr, icmp_ne, icmp_ne, @p1 if, endif, then the wave's end: six steps, five counted.
    assert_eq!(m.stats().wave_instructions, 6);
    assert_eq!(m.stats().per_pc.iter().map(|r| r.count).sum::<u64>(), 5);
    let mut limited = Machine::new(
        kernel,
        &LaunchConfig {
            max_instructions: 5,
            ..config
        },
    )
    .unwrap();
    limited.set_behaviour(Behaviour::WaveEmu);
    assert!(matches!(
        limited.run_to_end(),
        Stop::Trap(trap) if trap.kind == TrapKind::BudgetExceeded { limit: 5 }
    ));
    // wave-emu itself, on the guarded `if` it assembles: the same at both limits.
    let guarded = source.replace("    if p2", "    @p1 if p2");
    let launch = Launch {
        grid: [1, 1, 1],
        workgroup: [4, 1, 1],
        wave_width: 4,
        local_memory: 0,
        initial_memory: vec![0; 64],
        initial_registers: Vec::new(),
    };
    for limit in [5, 6] {
        let (ours, _) = ours_ending(kernel, &launch, Behaviour::WaveEmu, limit).unwrap();
        let reference = oracle_ending(&guarded, &launch, limit).unwrap();
        assert_eq!(ours.ending, reference.ending, "limit {limit}");
    }
}

#[test]
fn in_a_workgroup_of_more_than_64_waves_waves_0_to_63_alone_release_a_barrier() {
    // One-lane waves, 66 of them. Wave 65 halts first; wave 64 reaches the barrier one loop
    // iteration before waves 0 to 63. wave-emu keeps no arrival record for waves 64 and up, so
    // the barrier is released once waves 0 to 63 wait (wave 64 with them), and the halted wave
    // 65 causes no deadlock. Every wave that passes stores its id.
    let source = "
.kernel many
    mov_sr r0, sr_wave_id
    mov_imm r1, 65
    icmp_eq p1, r0, r1
    @p1 halt
    mov_imm r3, 64
    icmp_lt p2, r0, r3
    mov_imm r4, 0
    mov_imm r5, 1
    mov_imm r6, 0
    @p2 mov_imm r6, 1            ; waves 0-63 go round twice, wave 64 once
    loop
        iadd r4, r4, r5
        icmp_gt p3, r4, r6
        break p3
    endloop
    barrier
    mov_imm r2, 4
    imul r2, r0, r2
    device_store_u32 r2, r0
    halt
.end
";
    let launch = Launch {
        grid: [1, 1, 1],
        workgroup: [66, 1, 1],
        wave_width: 1,
        local_memory: 0,
        initial_memory: vec![0xff; 66 * 4],
        initial_registers: Vec::new(),
    };
    let kernel = harness::compile_kernel(source).unwrap();
    let (ours, _) = ours_ending(&kernel, &launch, Behaviour::WaveEmu, 100_000).unwrap();
    let reference = oracle_ending(source, &launch, 100_000).unwrap();
    assert!(
        matches!(ours.ending, Ending::Finished(_)),
        "{:?}",
        ours.ending
    );
    assert_eq!(ours.ending, reference.ending);
    assert_eq!(ours.memory, reference.memory);
    assert_eq!(&ours.memory[64 * 4..65 * 4], &[64, 0, 0, 0]);
    assert_eq!(&ours.memory[65 * 4..], &[0xff; 4], "wave 65 halted");
    // With wave 0 halting instead, waves 1 to 64 wait for ever.
    let source = source.replace("mov_imm r1, 65", "mov_imm r1, 0");
    let kernel = harness::compile_kernel(&source).unwrap();
    let (ours, _) = ours_ending(&kernel, &launch, Behaviour::WaveEmu, 100_000).unwrap();
    let reference = oracle_ending(&source, &launch, 100_000).unwrap();
    assert_eq!(ours.ending, Ending::Failed("barrier deadlock"));
    assert_eq!(ours.ending, reference.ending);
    assert_eq!(ours.memory, reference.memory);
}
