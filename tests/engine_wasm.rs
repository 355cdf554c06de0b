//! The engine as the page runs it: compiled to wasm32 (32-bit `usize`, no FMA instruction, the
//! portable run loop), in headless Chromium. Natively these paths are either not taken or cannot
//! overflow, so they are checked here.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;
use wave_engine::machine::{LaunchConfig, Machine, MemorySpace, Stop, TrapKind};

wasm_bindgen_test_configure!(run_in_browser);

fn machine(source: &str, config: &LaunchConfig) -> Machine {
    let program = wave_engine::compile(source)
        .program
        .expect("the test kernel compiles");
    Machine::new(&program.kernels[0], config).expect("a valid launch")
}

/// Every lane loads from just below 4 GiB: the whole-wave bound check must not wrap around
/// (an address plus the access width overflows a 32-bit `usize`) and must report the fault.
#[wasm_bindgen_test]
fn wide_loads_at_the_top_of_the_address_space_trap() {
    for (load, width) in [
        ("device_load_u32", 4),
        ("device_load_u64", 8),
        ("device_load_u128", 16),
    ] {
        let source = format!(".kernel top\n    {load} r4, r0\n    halt\n.end\n");
        let config = LaunchConfig {
            workgroup: [32, 1, 1],
            wave_width: 32,
            device_memory: 64,
            initial_registers: vec![(0, 0xFFFF_FFF8)],
            ..LaunchConfig::default()
        };
        let mut m = machine(&source, &config);
        match m.run_to_end() {
            Stop::Trap(trap) => {
                assert_eq!(
                    trap.kind,
                    TrapKind::MemoryOutOfBounds {
                        space: MemorySpace::Device,
                        address: 0xFFFF_FFF8,
                        width,
                    },
                    "{load}"
                );
                assert_eq!(trap.lane, Some(0), "{load}");
            }
            other => panic!("{load}: expected an out-of-bounds trap, got {other:?}"),
        }
    }
}

/// The software fma (f64 with round to odd) that wasm runs, through the machine: single rounding
/// where a plain f64 multiply-add would round twice, the reference's NaN choice on one lane, and
/// the other lanes unaffected by it.
#[wasm_bindgen_test]
fn fma_in_wasm_rounds_once_and_keeps_the_reference_nan_rules() {
    let source = "\
.kernel fma_lanes
    mov_sr r0, sr_lane_id
    mov_imm r9, 4
    mov_imm r8, 16
    imul r4, r0, r9
    device_load_u32 r1, r4
    iadd r5, r4, r8
    device_load_u32 r2, r5
    iadd r6, r5, r8
    device_load_u32 r3, r6
    fma r10, r1, r2, r3
    imul r7, r0, r9
    device_store_u32 r7, r10
    halt
.end
";
    let config = LaunchConfig {
        workgroup: [4, 1, 1],
        wave_width: 4,
        device_memory: 64,
        ..LaunchConfig::default()
    };
    let mut m = machine(source, &config);
    let inputs: [[u32; 4]; 3] = [
        [0x3FC0_0000, 0x3F80_0800, 0x7FA0_0001, 0x7F80_0000],
        [0x4020_0000, 0x3F80_0800, 0xFF90_0003, 0x0000_0000],
        [0x3F00_0000, 0xBF80_1000, 0x7FC0_0002, 0x3F80_0000],
    ];
    for (row, values) in inputs.iter().enumerate() {
        for (lane, value) in values.iter().enumerate() {
            let at = row * 16 + lane * 4;
            m.device_mut().bytes_mut()[at..at + 4].copy_from_slice(&value.to_le_bytes());
        }
    }
    assert_eq!(m.run_to_end(), Stop::Finished);
    let results: Vec<u32> = (0..4)
        .map(|lane| m.device().read_u32(lane * 4).expect("in bounds"))
        .collect();
    // 1.5 * 2.5 + 0.5; (1 + 2^-12)^2 - (1 + 2^-11) = 2^-24 exactly; b's NaN quieted first;
    // ∞ × 0 gives the default NaN.
    assert_eq!(
        results,
        [0x4088_0000, 0x3380_0000, 0xFFD0_0003, 0xFFC0_0000]
    );
}
