//! Output formats of the dumps and statistics, matching wave-emu's text where it has one: u32 in
//! decimal one per line, f32 with Rust's `{:?}`, and its hex dump layout byte for byte.
//!
//! A large dump is most of what a run prints, so its values do not go through `core::fmt`, and
//! it is written a piece at a time through one buffer rather than built whole first.

mod f32_text;

use std::fmt::Write;
use std::io;

use wave_engine::machine::{ReferenceStats, Stats};
use wave_engine::numeric::{bf16::bf16_to_f32, fp16::f16_to_f32};

use crate::spec::{Dump, ValueKind};
use f32_text::push_f32_debug;

/// Bytes of device memory formatted between two writes: 4,096 values of 4 bytes, or 1,024 rows
/// of a hex dump. The text of a whole large dump would fill megabytes of fresh memory, and each
/// fresh page costs a fault and a zeroing; this buffer is reused, and stays in cache.
const PIECE: usize = 1 << 14;

/// Writes the dumps in order to `out`, a piece at a time.
pub fn write_dumps<'a>(
    out: &mut impl io::Write,
    dumps: impl IntoIterator<Item = &'a Dump>,
    memory: &[u8],
) -> io::Result<()> {
    let mut text = Vec::new();
    for dump in dumps {
        match *dump {
            Dump::Values {
                kind,
                offset,
                count,
            } => {
                let end = (offset + count * kind.size()) as usize;
                for piece in memory[offset as usize..end].chunks(PIECE) {
                    push_values(&mut text, kind, piece);
                    out.write_all(&text)?;
                    text.clear();
                }
            }
            Dump::Memory { start, end } => {
                text.extend_from_slice(memory_header(start, end).as_bytes());
                let rows = memory[start as usize..end as usize].chunks(PIECE);
                for (at, piece) in (start..).step_by(PIECE).zip(rows) {
                    push_hex_dump(&mut text, piece, at);
                    out.write_all(&text)?;
                    text.clear();
                }
            }
        }
    }
    Ok(())
}

/// One value per line. f16 and bf16 (absent from wave-emu 0.1.2) are widened to f32 exactly and
/// printed like f32.
fn push_values(out: &mut Vec<u8>, kind: ValueKind, bytes: &[u8]) {
    // Most f32 lines of a result are 9 to 12 bytes long; reserving once saves the regrowth.
    out.reserve(bytes.len() / kind.size() as usize * 12);
    match kind {
        ValueKind::U32 | ValueKind::F32 => {
            for chunk in bytes.chunks_exact(4) {
                let bits = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
                match kind {
                    ValueKind::U32 => {
                        out.extend_from_slice(itoa::Buffer::new().format(bits).as_bytes())
                    }
                    _ => push_f32_debug(out, f32::from_bits(bits)),
                }
                out.push(b'\n');
            }
        }
        ValueKind::F16 | ValueKind::Bf16 => {
            for chunk in bytes.chunks_exact(2) {
                let bits = u32::from(u16::from_le_bytes([chunk[0], chunk[1]]));
                let value = if kind == ValueKind::F16 {
                    f16_to_f32(bits)
                } else {
                    bf16_to_f32(bits)
                };
                push_f32_debug(out, value);
                out.push(b'\n');
            }
        }
    }
}

/// The header line wave-emu prints before a hex dump of `start..end`.
fn memory_header(start: u64, end: u64) -> String {
    format!("Device memory 0x{start:08x}-0x{end:08x}:\n")
}

/// wave-emu's hex dump: 16 bytes a row, the address, the bytes in two groups of eight, then the
/// printable characters.
fn push_hex_dump(out: &mut Vec<u8>, data: &[u8], base: u64) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for (row, chunk) in data.chunks(16).enumerate() {
        let _ = std::io::Write::write_fmt(out, format_args!("{:08x}: ", base + 16 * row as u64));
        for column in 0..16 {
            if column == 8 {
                out.push(b' ');
            }
            match chunk.get(column) {
                Some(&byte) => out.extend_from_slice(&[
                    HEX[usize::from(byte >> 4)],
                    HEX[usize::from(byte & 15)],
                    b' ',
                ]),
                None => out.extend_from_slice(b"   "),
            }
        }
        out.extend_from_slice(b" |");
        out.extend(chunk.iter().map(|&b| {
            if b == b' ' || b.is_ascii_graphic() {
                b
            } else {
                b'.'
            }
        }));
        out.extend_from_slice(b"|\n");
    }
}

/// `--stats`, printed after the dumps as wave-emu does.
/// `--stats`: the reference emulator's block, line for line, so scripts written against
/// `wave-emu --stats` read ours.
pub fn reference_stats(figures: &ReferenceStats) -> String {
    let ReferenceStats {
        instructions,
        integer_ops,
        float_ops,
        memory_ops,
        control_ops,
        wave_ops,
        atomic_ops,
        device_loads,
        device_load_bytes,
        device_stores,
        device_store_bytes,
        local_loads,
        local_load_bytes,
        local_stores,
        local_store_bytes,
        barriers,
        divergent_branches,
        workgroups_executed,
        waves_executed,
    } = *figures;
    format!(
        "Execution Statistics:
  Instructions executed: {instructions}
    Integer ops:         {integer_ops}
    Float ops:           {float_ops}
    Memory ops:          {memory_ops}
    Control ops:         {control_ops}
    Wave ops:            {wave_ops}
    Atomic ops:          {atomic_ops}

  Device memory:
    Loads:  {device_loads} ({device_load_bytes} bytes)
    Stores: {device_stores} ({device_store_bytes} bytes)

  Local memory:
    Loads:  {local_loads} ({local_load_bytes} bytes)
    Stores: {local_stores} ({local_store_bytes} bytes)

  Barriers: {barriers}
  Divergent branches: {divergent_branches}

  Workgroups executed: {workgroups_executed}
  Waves executed: {waves_executed}
"
    )
}

/// `--extra-stats`: the playground's own figures, a block of their own after the reference's.
pub fn playground_stats(stats: &Stats) -> String {
    let rows: [(&str, String); 6] = [
        (
            "Wave-instructions executed",
            stats.wave_instructions.to_string(),
        ),
        (
            "Active lane-instructions",
            stats.active_lane_instructions.to_string(),
        ),
        ("Lane slots", stats.lane_slots.to_string()),
        (
            "SIMD efficiency",
            format!("{:.1}%", stats.simd_efficiency() * 100.0),
        ),
        (
            "Ifs with both sides taken",
            stats.divergent_branches.to_string(),
        ),
        ("Max stack depth", stats.max_stack_depth.to_string()),
    ];
    let mut out = String::from("Playground Statistics:\n");
    for (label, value) in rows {
        let _ = writeln!(out, "  {:<28}{value}", format!("{label}:"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(kind: ValueKind, bytes: &[u8]) -> String {
        let mut out = Vec::new();
        push_values(&mut out, kind, bytes);
        String::from_utf8(out).unwrap()
    }

    fn hex_dump(data: &[u8], base: u64) -> String {
        let mut out = Vec::new();
        push_hex_dump(&mut out, data, base);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn values_print_one_per_line() {
        let mut bytes = Vec::new();
        for v in [0u32, 7, u32::MAX] {
            bytes.extend(v.to_le_bytes());
        }
        assert_eq!(values(ValueKind::U32, &bytes), "0\n7\n4294967295\n");
        let mut bytes = Vec::new();
        for v in [1.0f32, -0.5, f32::INFINITY, f32::NAN, 1e-7] {
            bytes.extend(v.to_le_bytes());
        }
        assert_eq!(
            values(ValueKind::F32, &bytes),
            "1.0\n-0.5\ninf\nNaN\n1e-7\n"
        );
        // f16 0x3c00 = 1.0, 0xc000 = -2.0; bf16 0x3fc0 = 1.5.
        assert_eq!(
            values(ValueKind::F16, &[0x00, 0x3c, 0x00, 0xc0]),
            "1.0\n-2.0\n"
        );
        assert_eq!(values(ValueKind::Bf16, &[0xc0, 0x3f]), "1.5\n");
    }

    #[test]
    fn dumps_written_in_pieces_read_as_one() {
        let memory: Vec<u8> = (0..3 * PIECE + 100).map(|i| (i * 7 % 251) as u8).collect();
        let dumps = [
            Dump::Values {
                kind: ValueKind::F32,
                offset: 4,
                count: (PIECE / 2) as u64 + 5,
            },
            Dump::Memory {
                start: 3,
                end: 2 * PIECE as u64 + 90,
            },
            Dump::Values {
                kind: ValueKind::Bf16,
                offset: 1,
                count: PIECE as u64 + 3,
            },
        ];
        let mut written = Vec::new();
        write_dumps(&mut written, &dumps, &memory).unwrap();
        let whole_memory = memory[3..2 * PIECE + 90].to_vec();
        let expected = values(ValueKind::F32, &memory[4..4 + 4 * (PIECE / 2 + 5)])
            + &memory_header(3, 2 * PIECE as u64 + 90)
            + &hex_dump(&whole_memory, 3)
            + &values(ValueKind::Bf16, &memory[1..1 + 2 * (PIECE + 3)]);
        assert_eq!(String::from_utf8(written).unwrap(), expected);
    }

    #[test]
    fn hex_dump_short_row_keeps_the_columns() {
        let text = hex_dump(b"AB\x00 z", 0x20);
        assert_eq!(
            text,
            "00000020: 41 42 00 20 7a                                    |AB. z|\n"
        );
        let text = hex_dump(&[0xffu8; 9], 0);
        assert_eq!(
            text,
            "00000000: ff ff ff ff ff ff ff ff  ff                       |.........|\n"
        );
    }

    #[test]
    fn extra_stats_show_efficiency_as_percent() {
        let counts = Stats {
            wave_instructions: 4,
            active_lane_instructions: 6,
            lane_slots: 8,
            ..Stats::default()
        };
        let text = playground_stats(&counts);
        assert!(text.starts_with("Playground Statistics:\n"), "{text}");
        assert!(
            text.contains("  SIMD efficiency:            75.0%\n"),
            "{text}"
        );
        assert!(text.contains("  Wave-instructions executed: 4\n"), "{text}");
    }

    #[test]
    fn the_reference_block_is_laid_out_line_for_line() {
        let figures = ReferenceStats {
            instructions: 136,
            integer_ops: 32,
            float_ops: 8,
            memory_ops: 32,
            control_ops: 64,
            device_loads: 656,
            device_load_bytes: 2624,
            device_stores: 200,
            device_store_bytes: 800,
            divergent_branches: 2,
            workgroups_executed: 1,
            waves_executed: 8,
            ..ReferenceStats::default()
        };
        let expected = "Execution Statistics:\n  Instructions executed: 136\n    Integer ops:         32\n    Float ops:           8\n    Memory ops:          32\n    Control ops:         64\n    Wave ops:            0\n    Atomic ops:          0\n\n  Device memory:\n    Loads:  656 (2624 bytes)\n    Stores: 200 (800 bytes)\n\n  Local memory:\n    Loads:  0 (0 bytes)\n    Stores: 0 (0 bytes)\n\n  Barriers: 0\n  Divergent branches: 2\n\n  Workgroups executed: 1\n  Waves executed: 8\n";
        assert_eq!(reference_stats(&figures), expected);
    }
}
