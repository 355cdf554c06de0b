//! Output formats of the dumps and statistics, matching wave-emu's text where it has one: u32 in
//! decimal one per line, f32 with Rust's `{:?}`, and its hex dump layout byte for byte.

use std::fmt::Write;

use wave_engine::machine::Stats;
use wave_engine::numeric::{bf16::bf16_to_f32, fp16::f16_to_f32};

use crate::spec::ValueKind;

/// One value per line. f16 and bf16 (absent from wave-emu 0.1.2) are widened to f32 exactly and
/// printed like f32.
pub fn values(kind: ValueKind, bytes: &[u8]) -> String {
    let mut out = String::new();
    match kind {
        ValueKind::U32 | ValueKind::F32 => {
            for chunk in bytes.chunks_exact(4) {
                let bits = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
                let _ = match kind {
                    ValueKind::U32 => writeln!(out, "{bits}"),
                    _ => writeln!(out, "{:?}", f32::from_bits(bits)),
                };
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
                let _ = writeln!(out, "{value:?}");
            }
        }
    }
    out
}

/// The header line wave-emu prints before a hex dump of `start..end`.
pub fn memory_header(start: u64, end: u64) -> String {
    format!("Device memory 0x{start:08x}-0x{end:08x}:\n")
}

/// Rows of 16 bytes: address, the bytes in two groups of eight, then the printable characters.
pub fn hex_dump(data: &[u8], base: u64) -> String {
    let mut out = String::new();
    for (row, chunk) in data.chunks(16).enumerate() {
        let _ = write!(out, "{:08x}: ", base + 16 * row as u64);
        for column in 0..16 {
            if column == 8 {
                out.push(' ');
            }
            match chunk.get(column) {
                Some(byte) => {
                    let _ = write!(out, "{byte:02x} ");
                }
                None => out.push_str("   "),
            }
        }
        out.push_str(" |");
        out.extend(chunk.iter().map(|&b| {
            if b == b' ' || b.is_ascii_graphic() {
                b as char
            } else {
                '.'
            }
        }));
        out.push_str("|\n");
    }
    out
}

/// `--stats`, printed after the dumps as wave-emu does.
pub fn stats(stats: &Stats) -> String {
    let rows: [(&str, String); 8] = [
        (
            "Wave-instructions executed",
            stats.wave_instructions.to_string(),
        ),
        (
            "Active lane-instructions",
            stats.active_lane_instructions.to_string(),
        ),
        (
            "SIMD efficiency",
            format!("{:.1}%", stats.simd_efficiency() * 100.0),
        ),
        ("Divergent branches", stats.divergent_branches.to_string()),
        ("Max stack depth", stats.max_stack_depth.to_string()),
        ("Barriers", stats.barriers.to_string()),
        ("Workgroups executed", stats.workgroups_executed.to_string()),
        ("Waves executed", stats.waves_executed.to_string()),
    ];
    let mut out = String::from("Execution Statistics:\n");
    for (label, value) in rows {
        let _ = writeln!(out, "  {:<28}{value}", format!("{label}:"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn stats_show_efficiency_as_percent() {
        let counts = Stats {
            wave_instructions: 4,
            active_lane_instructions: 6,
            lane_slots: 8,
            ..Stats::default()
        };
        let text = stats(&counts);
        assert!(
            text.contains("  SIMD efficiency:            75.0%\n"),
            "{text}"
        );
        assert!(text.contains("  Wave-instructions executed: 4\n"), "{text}");
    }
}
