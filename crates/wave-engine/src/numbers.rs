//! Parsing of the numbers people type around a launch: the playground's configuration form,
//! `wavesim`'s flags and the test fixtures all read sizes, offsets and register values the same
//! way, so they share these functions (and their messages).
//!
//! - A number is decimal or `0x`/`0X` hexadecimal, with optional `_` separators (`1_024`,
//!   `0xFFFF_0000`); surrounding whitespace is ignored.
//! - A *signed-or-unsigned* value of N bits is any integer from -2^(N-1) to 2^N - 1, stored as
//!   its two's complement bits: `-1` and `0xFFFFFFFF` are the same 32-bit value.
//! - Dimensions are `X`, `X,Y` or `X,Y,Z` (commas, spaces or `x` between; missing sizes are 1).
//!
//! Every function returns a message instead of panicking; callers add which field or flag it is
//! about.

/// An unsigned number: decimal or `0x` hex, `_` separators allowed (and a `+` sign, which
/// Rust's own parsing takes).
pub fn parse_u64(text: &str) -> Result<u64, String> {
    let shown = text.trim();
    let digits = shown.replace('_', "");
    if digits.is_empty() {
        return Err("expected a number, found nothing".to_string());
    }
    let (negative, magnitude) = match digits.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, digits.as_str()),
    };
    let parsed = match magnitude
        .strip_prefix("0x")
        .or_else(|| magnitude.strip_prefix("0X"))
    {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => magnitude.parse::<u64>(),
    };
    match parsed {
        Ok(_) if negative => Err(format!("`{shown}` must not be negative")),
        Ok(value) => Ok(value),
        Err(_) => Err(format!(
            "`{shown}` is not a whole number (decimal or 0x hex)"
        )),
    }
}

/// An unsigned number that fits in 32 bits.
pub fn parse_u32(text: &str) -> Result<u32, String> {
    let value = parse_u64(text)?;
    u32::try_from(value).map_err(|_| {
        format!(
            "`{}` is too large (at most {} = 0x{:X})",
            text.trim(),
            u32::MAX,
            u32::MAX
        )
    })
}

/// A signed or unsigned integer of `bits` bits (1 to 64) as its two's complement bits: from
/// -2^(bits-1) (a `-` before a decimal or hex magnitude) to 2^bits - 1.
pub fn parse_int_bits(text: &str, bits: u32) -> Result<u64, String> {
    assert!((1..=64).contains(&bits), "{bits} bits");
    let shown = text.trim();
    let mask = u64::MAX >> (64 - bits);
    let out_of_range = || {
        format!(
            "`{shown}` does not fit in {bits} bits (-{} to {mask})",
            1u128 << (bits - 1)
        )
    };
    match shown.strip_prefix('-') {
        Some(magnitude) => {
            let magnitude = parse_u64(magnitude)
                .map_err(|_| format!("`{shown}` is not a whole number (decimal or 0x hex)"))?;
            if magnitude > 1 << (bits - 1) {
                return Err(out_of_range());
            }
            Ok(magnitude.wrapping_neg() & mask)
        }
        None => match parse_u64(shown)? {
            value if value <= mask => Ok(value),
            _ => Err(out_of_range()),
        },
    }
}

/// A 32-bit register or memory word written signed or unsigned (`-1`, `7`, `0xFFFFFFFF`), as
/// its bits: [`parse_int_bits`] with 32 bits.
pub fn parse_u32_bits(text: &str) -> Result<u32, String> {
    parse_int_bits(text, 32).map(|bits| bits as u32)
}

/// Dimensions `X`, `X,Y` or `X,Y,Z`, each a [`parse_u32`] number; commas, spaces or `x` separate
/// them (`4,2,1`, `4 2`, `4x2x1`, `0x10,1`: an `x` after a lone leading `0` starts a hex number).
/// Missing sizes are 1. Zero is returned as it is: whether a size of 0 is allowed is the caller's
/// rule.
pub fn parse_dims(text: &str) -> Result<[u32; 3], String> {
    let mut sizes: Vec<&str> = Vec::new();
    for part in text.split(',') {
        let words = split_sizes(part);
        if words.is_empty() {
            // Nothing between two commas, or only separators: reported with its axis below
            // ("y: expected a number, found nothing", "y: `x` is not a whole number ...").
            sizes.push(part.trim());
        }
        sizes.extend(words);
    }
    if sizes.len() > 3 {
        return Err(format!(
            "expected X, X,Y or X,Y,Z (at most three sizes), found {}",
            sizes.len()
        ));
    }
    let mut dims = [1u32; 3];
    for ((slot, size), axis) in dims.iter_mut().zip(&sizes).zip(["x", "y", "z"]) {
        *slot = parse_u32(size).map_err(|e| format!("{axis}: {e}"))?;
    }
    Ok(dims)
}

/// The sizes in `4x2`, `4 2` or `4 x 2`: whitespace and `x` separate them, except an `x` right
/// after a lone `0`, which starts a hex number (`0x10`).
fn split_sizes(part: &str) -> Vec<&str> {
    let mut sizes = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in part.char_indices() {
        let times = (c == 'x' || c == 'X') && start.is_none_or(|s| &part[s..i] != "0");
        if c.is_whitespace() || times {
            if let Some(s) = start.take() {
                sizes.push(&part[s..i]);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        sizes.push(&part[s..]);
    }
    sizes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn u64_reads_decimal_hex_and_separators() {
        let cases: &[(&str, Result<u64, &str>)] = &[
            ("0", Ok(0)),
            ("4096", Ok(4096)),
            ("  4096 ", Ok(4096)),
            ("1_024", Ok(1024)),
            ("0x1000", Ok(4096)),
            ("0XfF", Ok(255)),
            ("0xFFFF_0000", Ok(0xFFFF_0000)),
            ("18446744073709551615", Ok(u64::MAX)),
            ("0xffffffffffffffff", Ok(u64::MAX)),
            ("", Err("expected a number, found nothing")),
            ("   ", Err("expected a number, found nothing")),
            ("_", Err("expected a number, found nothing")),
            ("0x", Err("`0x` is not a whole number (decimal or 0x hex)")),
            (
                "12k",
                Err("`12k` is not a whole number (decimal or 0x hex)"),
            ),
            (
                "1.5",
                Err("`1.5` is not a whole number (decimal or 0x hex)"),
            ),
            ("+5", Ok(5)),
            ("0x+5", Ok(5)),
            ("-+5", Err("`-+5` must not be negative")),
            ("-1", Err("`-1` must not be negative")),
            ("-0x10", Err("`-0x10` must not be negative")),
            (
                "-abc",
                Err("`-abc` is not a whole number (decimal or 0x hex)"),
            ),
            (
                "--1",
                Err("`--1` is not a whole number (decimal or 0x hex)"),
            ),
            (
                "18446744073709551616",
                Err("`18446744073709551616` is not a whole number (decimal or 0x hex)"),
            ),
        ];
        for (text, expected) in cases {
            let expected = expected.map_err(str::to_string);
            assert_eq!(parse_u64(text), expected, "parse_u64({text:?})");
        }
    }

    #[test]
    fn u32_says_when_a_number_is_too_large() {
        let too_large = |t: &str| {
            Err(format!(
                "`{t}` is too large (at most 4294967295 = 0xFFFFFFFF)"
            ))
        };
        let cases: &[(&str, Result<u32, String>)] = &[
            ("4294967295", Ok(u32::MAX)),
            ("0xffffffff", Ok(u32::MAX)),
            ("0x1_0000", Ok(0x1_0000)),
            ("4294967296", too_large("4294967296")),
            ("0x100000000", too_large("0x100000000")),
            (
                "x",
                Err("`x` is not a whole number (decimal or 0x hex)".to_string()),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(&parse_u32(text), expected, "parse_u32({text:?})");
        }
    }

    #[test]
    fn signed_or_unsigned_values_become_twos_complement_bits() {
        let range32 = |t: &str| {
            Err(format!(
                "`{t}` does not fit in 32 bits (-2147483648 to 4294967295)"
            ))
        };
        let cases: &[(&str, Result<u32, String>)] = &[
            ("0", Ok(0)),
            ("7", Ok(7)),
            ("-1", Ok(u32::MAX)),
            (" -2 ", Ok(0xFFFF_FFFE)),
            ("-0x10", Ok(0xFFFF_FFF0)),
            ("-2147483648", Ok(0x8000_0000)),
            ("-0", Ok(0)),
            ("4294967295", Ok(u32::MAX)),
            ("0x40a00000", Ok(0x40a0_0000)),
            ("-2147483649", range32("-2147483649")),
            ("4294967296", range32("4294967296")),
            ("0x1ffffffff", range32("0x1ffffffff")),
            (
                "--1",
                Err("`--1` is not a whole number (decimal or 0x hex)".to_string()),
            ),
            (
                "-",
                Err("`-` is not a whole number (decimal or 0x hex)".to_string()),
            ),
            (
                "zz",
                Err("`zz` is not a whole number (decimal or 0x hex)".to_string()),
            ),
            ("", Err("expected a number, found nothing".to_string())),
        ];
        for (text, expected) in cases {
            assert_eq!(&parse_u32_bits(text), expected, "parse_u32_bits({text:?})");
        }
    }

    #[test]
    fn other_widths_have_their_own_ranges() {
        let cases: &[(&str, u32, Result<u64, &str>)] = &[
            ("-1", 8, Ok(0xFF)),
            ("255", 8, Ok(0xFF)),
            ("-128", 8, Ok(0x80)),
            ("-129", 8, Err("`-129` does not fit in 8 bits (-128 to 255)")),
            ("256", 8, Err("`256` does not fit in 8 bits (-128 to 255)")),
            ("-1", 16, Ok(0xFFFF)),
            ("-1", 64, Ok(u64::MAX)),
            ("-9223372036854775808", 64, Ok(1 << 63)),
            (
                "-9223372036854775809",
                64,
                Err("`-9223372036854775809` does not fit in 64 bits (-9223372036854775808 to 18446744073709551615)"),
            ),
            ("0xffffffffffffffff", 64, Ok(u64::MAX)),
        ];
        for (text, bits, expected) in cases {
            let expected = expected.map_err(str::to_string);
            assert_eq!(
                parse_int_bits(text, *bits),
                expected,
                "parse_int_bits({text:?}, {bits})"
            );
        }
    }

    #[test]
    fn dims_take_one_to_three_sizes() {
        let cases: &[(&str, Result<[u32; 3], &str>)] = &[
            ("4,2,1", Ok([4, 2, 1])),
            ("4", Ok([4, 1, 1])),
            ("4,2", Ok([4, 2, 1])),
            (" 4 , 2 , 3 ", Ok([4, 2, 3])),
            ("4 2 3", Ok([4, 2, 3])),
            ("4x2x3", Ok([4, 2, 3])),
            ("16X16", Ok([16, 16, 1])),
            ("0x10,1,1", Ok([16, 1, 1])),
            ("0x10", Ok([16, 1, 1])),
            ("0x10x0x2", Ok([16, 2, 1])),
            ("4x0x10", Ok([4, 16, 1])),
            ("1_024,1,1", Ok([1024, 1, 1])),
            ("0,1,1", Ok([0, 1, 1])),
            (
                "4,2,1,1",
                Err("expected X, X,Y or X,Y,Z (at most three sizes), found 4"),
            ),
            (
                "2x2x2x2",
                Err("expected X, X,Y or X,Y,Z (at most three sizes), found 4"),
            ),
            ("", Err("x: expected a number, found nothing")),
            ("4,,1", Err("y: expected a number, found nothing")),
            ("4,2,", Err("z: expected a number, found nothing")),
            (
                "8,x,1",
                Err("y: `x` is not a whole number (decimal or 0x hex)"),
            ),
            ("4 x 2", Ok([4, 2, 1])),
            ("4x 2 ,3", Ok([4, 2, 3])),
            ("4x", Ok([4, 1, 1])),
            ("0 x 2", Ok([0, 2, 1])),
            (
                "0x",
                Err("x: `0x` is not a whole number (decimal or 0x hex)"),
            ),
            (
                "4,1,z",
                Err("z: `z` is not a whole number (decimal or 0x hex)"),
            ),
            (
                "a,b",
                Err("x: `a` is not a whole number (decimal or 0x hex)"),
            ),
            ("-4", Err("x: `-4` must not be negative")),
            (
                "1,0x100000000",
                Err("y: `0x100000000` is too large (at most 4294967295 = 0xFFFFFFFF)"),
            ),
        ];
        for (text, expected) in cases {
            let expected = expected.map_err(str::to_string);
            assert_eq!(parse_dims(text), expected, "parse_dims({text:?})");
        }
    }
}
