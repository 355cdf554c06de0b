//! `run --compat wave-emu`: what the `wave-emu` 0.1.2 command prints when a run fails, and its
//! dumps in its order. The machine itself runs with `Behaviour::WaveEmu`; this module only
//! speaks the reference's words:
//!
//! - a trap is `Error: ` and the reference's `EmulatorError` text with its numbers, which the
//!   engine writes ([`wave_emu_error`]);
//! - a fill, `--arg` or dump that does not fit in device memory is its `memory access out of
//!   bounds` at the first address it checks;
//! - `--dump-memory` is printed before the value dumps, as its `main` does.

use wave_engine::machine::{wave_emu_error, wave_emu_out_of_bounds, Trap};
use wave_engine::program::Kernel;

use crate::source::Failure;
use crate::spec::Dump;

/// A failure as the reference's `main` reports it: `Error: ` and the message (exit status 1).
fn reference_error(message: String) -> Failure {
    Failure(format!("Error: {message}"))
}

/// The reference's bounds error for a fill, `--arg` or dump. Its memories check an access as a
/// whole and name its first byte; a dump reads byte by byte and so names the first byte past
/// the end.
pub fn out_of_bounds(address: u64) -> Failure {
    reference_error(wave_emu_out_of_bounds(address))
}

/// `trap` of a run of `kernel` in `Behaviour::WaveEmu` as the reference reports it
/// ([`wave_emu_error`]); `workgroup_id` is the id of the workgroup that trapped.
pub fn trap_failure(trap: &Trap, kernel: &Kernel, workgroup_id: [u32; 3]) -> Failure {
    reference_error(wave_emu_error(trap, &kernel.code, workgroup_id))
}

/// The dumps the reference prints after a run, in its order (the hex dump first, then the
/// values; each kind keeps the command line's order), and the failure it stops with at the
/// first dump that reaches past device memory of `size` bytes. A dump of no bytes prints
/// nothing and reads nothing, so it is left out.
pub fn dumps_to_print(dumps: &[(String, Dump)], size: u64) -> (Vec<&Dump>, Option<Failure>) {
    let memory_first = dumps
        .iter()
        .filter(|(_, dump)| matches!(dump, Dump::Memory { .. }))
        .chain(
            dumps
                .iter()
                .filter(|(_, dump)| !matches!(dump, Dump::Memory { .. })),
        );
    let mut printed = Vec::new();
    for (_, dump) in memory_first {
        match dump.range() {
            Some((start, end)) if start == end => {}
            Some((_, end)) if end <= size => printed.push(dump),
            range => {
                let start = range.map_or(u64::MAX, |(start, _)| start);
                return (printed, Some(out_of_bounds(start.max(size))));
            }
        }
    }
    (printed, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::ValueKind;

    fn values(offset: u64, count: u64) -> (String, Dump) {
        let kind = ValueKind::F32;
        let dump = Dump::Values {
            kind,
            offset,
            count,
        };
        (String::new(), dump)
    }

    #[test]
    fn the_hex_dump_comes_first_and_the_first_dump_past_the_end_stops_the_rest() {
        let memory = (String::new(), Dump::Memory { start: 0, end: 16 });
        let dumps = [values(0, 2), memory.clone(), values(60, 2), values(0, 1)];
        let (printed, failure) = dumps_to_print(&dumps, 64);
        assert_eq!(printed, vec![&memory.1, &dumps[0].1]);
        let Some(Failure(text)) = failure else {
            panic!("the dump at 60 reaches past 64 bytes");
        };
        assert_eq!(
            text,
            "Error: memory access out of bounds: address 0x0000000000000040"
        );

        // Past the end altogether: the first byte read is named; nothing read, nothing checked.
        let past_the_end = [values(100, 0), values(80, 1)];
        let (printed, failure) = dumps_to_print(&past_the_end, 64);
        assert!(printed.is_empty());
        assert!(failure.is_some_and(|Failure(text)| text.ends_with("0x0000000000000050")));
    }
}
