//! `--dump-f32` must print every value as Rust's `{:?}` does (wave-emu's format), byte for byte:
//! `wavesim` lays out zmij's shortest digits itself for speed, so this pins it against `{:?}` on many
//! bit patterns, through the built binary.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

const NOTHING: &str = ".kernel nothing\n    halt\n.end\n";

/// SplitMix64: random bit patterns over every exponent, signs, subnormals and NaN payloads.
fn random_bits(seed: u64, count: usize) -> impl Iterator<Item = u32> {
    let mut state = seed;
    (0..count).map(move |_| {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) as u32
    })
}

/// Values whose text is easy to get wrong: zeros, infinities, NaNs, the smallest and largest of
/// each kind, both sides of the 1e-4 and 1e16 thresholds where the layout changes, powers of two
/// and ten, whole numbers, exact ties between two shortest candidates, and the edges of the
/// subnormal range.
fn awkward_values() -> Vec<f32> {
    let mut values = vec![
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7fc0_0001),
        f32::from_bits(0xff80_0001),
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::MAX,
        f32::MIN,
        f32::EPSILON,
        1.0,
        -1.0,
        0.1,
        0.2,
        0.3,
        1.0 / 3.0,
        // 5.97265625 and 158.671875: exactly halfway between two shortest candidates.
        f32::from_bits(0x40bf_2000),
        f32::from_bits(0x431e_ac00),
        16_777_216.0,
        16_777_217.0,
        123_456_790.0,
    ];
    for threshold in [1e-4f32, 1e16, 1e-22, 1e-38] {
        let bits = threshold.to_bits();
        values.extend((bits - 32..bits + 32).map(f32::from_bits));
    }
    for bits in (0..64).chain(0x007f_ffc0..0x0080_0040) {
        values.push(f32::from_bits(bits));
        values.push(-f32::from_bits(bits));
    }
    for exponent in -45..=38 {
        values.push(10f32.powi(exponent));
        values.push(-(10f64.powi(exponent) as f32));
    }
    for shift in 0..255u32 {
        values.push(f32::from_bits(shift << 23));
        values.push(f32::from_bits(shift << 23 | 0x7f_ffff));
    }
    values.extend((0..2000).map(|n| n as f32 * 0.25));
    values.extend((0..2000i64).map(|n| (n * n * 7919) as f32));
    values
}

#[test]
fn f32_dump_matches_debug_formatting_for_every_kind_of_value() {
    let mut values = awkward_values();
    values.extend(random_bits(0x00f3_2d06, 100_000).map(f32::from_bits));
    // Random significands at magnitudes a GEMM result has, where most dumps are.
    values.extend(
        random_bits(7, 20_000).map(|bits| f32::from_bits(0x3c00_0000 | (bits & 0x83ff_ffff))),
    );

    let dir = std::env::temp_dir().join(format!("wavesim-f32-dump-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kernel = dir.join("nothing.wave");
    std::fs::write(&kernel, NOTHING).unwrap();
    let data = dir.join("values.bin");
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(&data, &bytes).unwrap();

    let output = Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .arg("run")
        .arg(&kernel)
        .arg(format!("--device-memory={}", bytes.len()))
        .arg(format!("--arg=0:{}", data.display()))
        .arg(format!("--dump-f32=0:{}", values.len()))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let printed = String::from_utf8(output.stdout).unwrap();
    let mut lines = printed.lines();
    for value in &values {
        let expected = format!("{value:?}");
        assert_eq!(
            lines.next(),
            Some(expected.as_str()),
            "bits {:#010x}",
            value.to_bits()
        );
    }
    assert_eq!(lines.next(), None);
    assert!(printed.ends_with('\n'));
}
