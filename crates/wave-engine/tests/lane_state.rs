//! `Wave::lane_state` explains every inactive lane: else side, waiting at endif, broke out,
//! continued, halted, outside the workgroup.
#![cfg(not(target_arch = "wasm32"))]

use wave_engine::machine::{LaneState, LaunchConfig, Machine, NoEvents, Stop};

/// Steps wave 0 until its next instruction is on `line` (1-based), at most 200 steps.
fn step_to_line(machine: &mut Machine, lines: &[u32], line: u32) {
    for _ in 0..200 {
        let pc = machine.workgroup().waves()[0].pc() as usize;
        if lines.get(pc) == Some(&line) {
            return;
        }
        assert_eq!(machine.step_wave(0, 1000, &mut NoEvents), Stop::Stepped);
    }
    panic!("never reached line {line}");
}

fn states(machine: &Machine) -> Vec<LaneState> {
    let wave = &machine.workgroup().waves()[0];
    (0..wave.width())
        .map(|lane| wave.lane_state(lane))
        .collect()
}

#[test]
fn lanes_explain_why_they_are_off() {
    // Line numbers: `.kernel` is line 1. Every lane breaks on the third iteration at the latest.
    let source = "\
.kernel reasons
    mov_sr r0, sr_lane_id
    mov_imm r1, 1
    icmp_lt p1, r0, r1        ; lane 0
    icmp_eq p2, r0, r1        ; lane 1
    mov_imm r3, 2
    icmp_eq p3, r0, r3        ; lane 2
    @p3 halt
    mov_imm r6, 0
    loop
        iadd r6, r6, r1
        icmp_gt p0, r6, r3
        break p0
        break p1
        continue p2
        if p2
            nop
        else
            nop
        endif
    endloop
    halt
.end
";
    let compiled = wave_engine::compile(source);
    let program = compiled.program.expect("compiles");
    let kernel = &program.kernels[0];
    // Five threads in a wave of eight: lanes 5..7 are outside the workgroup.
    let config = LaunchConfig {
        workgroup: [5, 1, 1],
        wave_width: 8,
        ..LaunchConfig::default()
    };
    let mut machine = Machine::new(kernel, &config).unwrap();

    // Inside the loop, at the `if`: lane 0 broke out, lane 1 continued, lane 2 halted.
    step_to_line(&mut machine, &kernel.lines, 16);
    let origin_loop = kernel.lines.iter().position(|&l| l == 10).unwrap() as u32;
    let got = states(&machine);
    assert_eq!(
        got[0],
        LaneState::BrokeOut {
            origin: origin_loop
        }
    );
    assert_eq!(
        got[1],
        LaneState::Continued {
            origin: origin_loop
        }
    );
    assert_eq!(got[2], LaneState::Halted);
    assert_eq!(got[3], LaneState::Active);
    assert_eq!(got[5], LaneState::OutsideWorkgroup);

    // p2 is false for lanes 3 and 4: on the then side nobody runs, so the `if` skips to `else`.
    step_to_line(&mut machine, &kernel.lines, 19);
    assert_eq!(states(&machine)[3], LaneState::Active);
    assert_eq!(
        states(&machine)[1],
        LaneState::Continued {
            origin: origin_loop
        }
    );

    // After the run every present, non-halted lane is finished.
    assert_eq!(machine.run_to_end(), Stop::Finished);
    let got = states(&machine);
    assert_eq!(got[0], LaneState::Halted, "the final halt ends lane 0 too");
    assert_eq!(got[6], LaneState::OutsideWorkgroup);
}

#[test]
fn then_side_lanes_wait_at_endif_while_else_runs() {
    let source = "\
.kernel sides
    mov_sr r0, sr_lane_id
    mov_imm r1, 2
    icmp_lt p1, r0, r1
    if p1
        nop
    else
        nop
    endif
    halt
.end
";
    let program = wave_engine::compile(source).program.expect("compiles");
    let kernel = &program.kernels[0];
    let config = LaunchConfig {
        workgroup: [4, 1, 1],
        wave_width: 4,
        ..LaunchConfig::default()
    };
    let mut machine = Machine::new(kernel, &config).unwrap();
    step_to_line(&mut machine, &kernel.lines, 6);
    let if_pc = kernel.lines.iter().position(|&l| l == 5).unwrap() as u32;
    assert_eq!(
        states(&machine)[2],
        LaneState::WaitingForElse { origin: if_pc }
    );
    step_to_line(&mut machine, &kernel.lines, 8);
    assert_eq!(
        states(&machine)[0],
        LaneState::WaitingAtEndif { origin: if_pc }
    );
    assert_eq!(states(&machine)[3], LaneState::Active);
}
