//! Per-instruction statistics: what the per-line SIMD-efficiency heat is computed from.
#![cfg(not(target_arch = "wasm32"))]

use wave_engine::machine::{LaunchConfig, Machine, Stop};

#[test]
fn per_instruction_lane_slots_count_only_lanes_inside_the_workgroup() {
    let source = "\
.kernel partial
    mov_sr r0, sr_lane_id
    mov_imm r1, 2
    icmp_lt p1, r0, r1
    if p1
        nop
    endif
    halt
.end
";
    let program = wave_engine::compile(source).program.expect("compiles");
    // 13 threads in waves of 8: the second wave has 5 lanes inside the workgroup.
    let config = LaunchConfig {
        workgroup: [13, 1, 1],
        wave_width: 8,
        ..LaunchConfig::default()
    };
    let mut machine = Machine::new(&program.kernels[0], &config).unwrap();
    assert_eq!(machine.run_to_end(), Stop::Finished);
    let stats = machine.stats();
    // mov_sr runs once per wave: 8 + 5 lane slots, all active.
    assert_eq!(stats.per_pc[0].count, 2);
    assert_eq!(stats.per_pc[0].lane_slots, 13);
    assert_eq!(stats.per_pc[0].active_lanes, 13);
    // The `nop` inside the if runs with lanes 0 and 1 of each wave: 4 of 13 slots.
    let nop = 4;
    assert_eq!(stats.per_pc[nop].active_lanes, 4);
    assert_eq!(stats.per_pc[nop].lane_slots, 13);
    assert_eq!(stats.divergent_branches, 2);
}
