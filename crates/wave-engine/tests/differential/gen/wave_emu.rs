//! What [`Profile::WaveEmu`](super::Profile) programs add to the spec profile's: the control flow
//! where wave-emu departs from the spec, for a machine that follows wave-emu.
//!
//! - `break` anywhere inside a loop, inside `if`s too (D1), and `continue` (D2, D3): mostly before
//!   the loop's exit `break`, where lanes are still running; now and then after it, where every
//!   lane may have broken already and the reference loops until the instruction limit (D2);
//! - both, sometimes guarded (`@p1 break p2`: D8), with any predicate;
//! - guarded `halt`s anywhere (D7, and D6 when one empties the mask), `halt` and `return` inside
//!   `if`s and loops (D6), guarded `return`s;
//! - `barrier` inside `if`s and loops, also where no lane reaches it (D12), and so barriers the
//!   waves do not all reach the same number of times: a wave that halts then leaves the others
//!   waiting for ever (D18);
//! - `@p0` guards (D9).
//!
//! Empty-mask paths need nothing more: the spec profile's `if`s and loops leave many.
//!
//! Still left out: `call` (wave-asm 0.1.2 computes wrong targets, departure D5), and what the
//! spec profile leaves out for other reasons (clamps panic in the reference, D11).

use super::Gen;

/// An optional guard for a plain instruction, `@p0` among them (the reference reads `@p0` as no
/// guard at all).
pub(super) fn guard(gen: &mut Gen) -> String {
    if !gen.rng.chance(15) {
        return String::new();
    }
    match gen.rng.below(3) {
        0 => format!("@p{} ", gen.rng.range(0, 3)),
        1 => format!("@!p{} ", gen.pred()),
        _ => format!("@p{} ", gen.rng.range(1, 3)),
    }
}

/// A guard for a `break`, `continue` or `halt`, now and then.
fn control_guard(gen: &mut Gen) -> String {
    if gen.rng.chance(65) {
        String::new()
    } else if gen.rng.chance(50) {
        format!("@p{} ", gen.pred())
    } else {
        format!("@!p{} ", gen.pred())
    }
}

/// A predicate register that holds on about half of the lanes, a different half in each
/// iteration of the innermost loop (`loop_depth` > 0): (thread id + loop counter) is odd.
/// Random predicates are often uniform across a wave (always, for one-lane waves), and the
/// departures of partial `continue`s and revived lanes need lanes on both sides.
fn split_predicate(gen: &mut Gen, loop_depth: u32) -> u8 {
    let counter = 4 + loop_depth as u8;
    let t = gen.temp(&[]);
    let one = gen.temp(&[t]);
    let p = gen.pred();
    gen.line(&format!("iadd r{t}, r1, r{counter}"));
    gen.line(&format!("mov_imm r{one}, 1"));
    gen.line(&format!("and r{t}, r{t}, r{one}"));
    gen.line(&format!("icmp_eq p{p}, r{t}, r{one}"));
    p
}

/// The predicate of an added `break`, `continue` or `halt`: random, or split across the lanes.
fn control_predicate(gen: &mut Gen, loop_depth: u32) -> u8 {
    if loop_depth > 0 && gen.rng.chance(50) {
        split_predicate(gen, loop_depth)
    } else {
        gen.pred()
    }
}

/// Writes one of the added statements and returns true, or returns false (most of the time) and
/// leaves the statement to the spec profile's choice.
pub(super) fn statement(gen: &mut Gen, depth: u32, loop_depth: u32) -> bool {
    let in_loop = loop_depth > 0;
    match gen.rng.below(100) {
        0..=4 if in_loop => {
            let p = control_predicate(gen, loop_depth);
            let guard = control_guard(gen);
            gen.line(&format!("{guard}break p{p}"));
        }
        5..=9 if in_loop && (gen.before_exit || gen.rng.chance(15)) => {
            let p = control_predicate(gen, loop_depth);
            let guard = control_guard(gen);
            gen.line(&format!("{guard}continue p{p}"));
        }
        10..=13 if in_loop && depth < 4 => {
            // An `if` in a loop whose then side breaks some of its lanes, or halts them under a
            // guard: the reference brings them back at the `endif` (D1, D7).
            let condition = control_predicate(gen, loop_depth);
            gen.line(&format!("if p{condition}"));
            gen.indent += 1;
            let p = control_predicate(gen, loop_depth);
            if gen.rng.chance(60) {
                let guard = control_guard(gen);
                gen.line(&format!("{guard}break p{p}"));
            } else {
                gen.line(&format!("@p{p} halt"));
            }
            gen.block(depth + 1, loop_depth, false);
            gen.indent -= 1;
            gen.line("endif");
        }
        14..=15 => {
            let guard = match gen.rng.below(3) {
                0 => format!("@p{} ", control_predicate(gen, loop_depth)),
                1 => format!("@!p{} ", gen.pred()),
                _ => format!("@p{} ", gen.rng.range(1, 3)),
            };
            gen.line(&format!("{guard}halt"));
        }
        16 if depth > 0 => {
            let line = match gen.rng.below(3) {
                0 => "halt".to_string(),
                1 => "return".to_string(),
                _ => format!("@p{} return", gen.rng.range(1, 3)),
            };
            gen.line(&line);
        }
        17 if depth > 0 => gen.line("barrier"),
        _ => return false,
    }
    true
}
