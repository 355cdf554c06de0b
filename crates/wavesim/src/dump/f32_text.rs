//! f32 text exactly as Rust's `{:?}` writes it, which is wave-emu's `--dump-f32` format.
//!
//! `zmij` finds the shortest decimal that reads back as the same f32, as core's formatting does,
//! at a fraction of `{:?}`'s cost; only its layout differs (`1e+16`, `0.00001`), so its digits and
//! exponent are laid out again the way `{:?}` lays them out: `NaN`, `inf`, `-inf`, a `-` for any
//! negative value (`-0.0` too), written out in full with at least one fractional digit when the
//! value is zero or 1e-4 <= |x| < 1e16 (`0.001`, `12.5`, `100.0`), in exponent form otherwise
//! (`1e-7`, `1.5e-5`, `3.4028235e38`).

/// Appends `value` as `format!("{value:?}")` writes it.
pub fn push_f32_debug(out: &mut Vec<u8>, value: f32) {
    if !value.is_finite() {
        out.extend_from_slice(match value {
            f32::INFINITY => b"inf",
            f32::NEG_INFINITY => b"-inf",
            _ => b"NaN",
        });
        return;
    }
    // The sign as a slice, not a branch: a result's signs follow no pattern a branch predictor
    // could learn.
    let sign: &[u8] = if value.is_sign_negative() { b"-" } else { b"" };
    out.extend_from_slice(sign);
    let magnitude = value.abs();
    if magnitude == 0.0 {
        out.extend_from_slice(b"0.0");
        return;
    }
    let mut buffer = zmij::Buffer::new();
    let text = buffer.format_finite(magnitude).as_bytes();
    // zmij writes 1e-4 <= x < 1e16 out in full as core does (`0.0001`, `12.5`, `100.0`) unless
    // it prefers an exponent there (`1e+15`): then, and for an exact tie, it is laid out anew.
    if magnitude >= 1e-4 && !ends_in_an_exponent(text) && !could_be_a_tie(magnitude) {
        out.extend_from_slice(text);
        return;
    }
    let mut shortest = Shortest::read(text);
    if shortest.is_below_a_tie_with_the_next(magnitude) {
        shortest.step_up();
    }
    let digits = &shortest.digits[..shortest.count];
    // core's choice, made on the value itself.
    if (1e-4..1e16).contains(&magnitude) {
        lay_out_plain(out, digits, shortest.exponent);
    } else {
        lay_out_exponent_form(out, digits, shortest.exponent);
    }
}

/// Whether zmij's text of a finite f32 ends in an exponent (`e5`, `e15`, `e+5`, `e-15`): an f32's
/// decimal exponent has at most two digits (it lies between -45 and 38), so the `e` is one of
/// the last four bytes, and plain text has none. Three compares instead of a search of the text.
#[inline(always)]
fn ends_in_an_exponent(text: &[u8]) -> bool {
    let n = text.len();
    (2..=4).any(|back| n >= back && text[n - back] == b'e')
}

/// `magnitude` as `odd × 2^twos`.
fn odd_and_twos(magnitude: f32) -> (u64, i32) {
    let bits = magnitude.to_bits();
    let (biased, fraction) = (bits >> 23, bits & 0x7f_ffff);
    let significand = if biased == 0 {
        fraction
    } else {
        fraction | 0x80_0000
    };
    let zeros = significand.trailing_zeros();
    (
        u64::from(significand >> zeros),
        biased.max(1) as i32 - 150 + zeros as i32,
    )
}

/// Whether `magnitude` could lie exactly halfway between two shortest decimals: a quick test
/// that most values fail. Halfway is `middle × 10^place` with `middle` odd and below 10^10
/// (9 digits and a 5), so `magnitude = odd × 2^twos` with `twos = place`, and
/// `middle = odd × 5^-place` (place < 0: 5^-place < 10^10, place >= -14) or
/// `odd = middle × 5^place` (place >= 0: 5^place < 2^24, place <= 10).
fn could_be_a_tie(magnitude: f32) -> bool {
    (-14..=10).contains(&odd_and_twos(magnitude).1)
}

/// A shortest decimal as `d.ddd × 10^exponent`: its significant digits, without trailing zeros.
struct Shortest {
    digits: [u8; 16],
    count: usize,
    exponent: i32,
}

impl Shortest {
    /// Reads zmij's text of a positive finite value: digits with or without a point, then an
    /// optional `e`, sign and exponent.
    fn read(text: &[u8]) -> Shortest {
        let (mantissa, exponent) = match text.iter().position(|&b| b == b'e') {
            Some(at) => (&text[..at], parse_exponent(&text[at + 1..])),
            None => (text, 0),
        };
        let whole_digits = mantissa
            .iter()
            .position(|&b| b == b'.')
            .unwrap_or(mantissa.len());
        let mut shortest = Shortest {
            digits: [0; 16],
            count: 0,
            exponent: 0,
        };
        let mut leading_zeros = 0;
        for &byte in mantissa.iter().filter(|b| b.is_ascii_digit()) {
            if byte == b'0' && shortest.count == 0 {
                leading_zeros += 1;
            } else if shortest.count < shortest.digits.len() {
                shortest.digits[shortest.count] = byte;
                shortest.count += 1;
            }
        }
        while shortest.count > 1 && shortest.digits[shortest.count - 1] == b'0' {
            shortest.count -= 1;
        }
        shortest.exponent = whole_digits as i32 - 1 - leading_zeros + exponent;
        shortest
    }
}

impl Shortest {
    /// Whether `magnitude` lies exactly halfway between these digits and the next ones up:
    /// zmij then keeps the even last digit, core the upper one.
    fn is_below_a_tie_with_the_next(&self, magnitude: f32) -> bool {
        if (self.digits[self.count - 1] - b'0') % 2 == 1 {
            return false;
        }
        // The halfway point: these digits with a 5 after them, `middle × 10^place`.
        let middle = self.digits[..self.count]
            .iter()
            .fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'))
            * 10
            + 5;
        let place = self.exponent - self.count as i32;
        // magnitude = odd × 2^twos exactly; middle is odd, so equal only when the odd parts and
        // the powers of two match: middle × 2^place × 5^place = odd × 2^twos.
        let (odd, twos) = odd_and_twos(magnitude);
        if twos != place {
            return false;
        }
        let fives = 5u64.checked_pow(place.unsigned_abs());
        match fives {
            Some(fives) if place >= 0 => middle.checked_mul(fives) == Some(odd),
            Some(fives) => odd.checked_mul(fives) == Some(middle),
            None => false,
        }
    }

    /// The next decimal up at the same place; the last digit is even, so nothing carries.
    fn step_up(&mut self) {
        self.digits[self.count - 1] += 1;
    }
}

fn parse_exponent(text: &[u8]) -> i32 {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, text),
    };
    let magnitude = digits
        .iter()
        .fold(0i32, |n, &b| n * 10 + i32::from(b - b'0'));
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

/// `0.000ddd`, `dd.dd` or `ddd000.0`.
fn lay_out_plain(out: &mut Vec<u8>, digits: &[u8], exponent: i32) {
    if exponent < 0 {
        out.extend_from_slice(b"0.");
        out.extend(std::iter::repeat_n(b'0', (-exponent - 1) as usize));
        out.extend_from_slice(digits);
        return;
    }
    let whole = exponent as usize + 1;
    if whole < digits.len() {
        out.extend_from_slice(&digits[..whole]);
        out.push(b'.');
        out.extend_from_slice(&digits[whole..]);
    } else {
        out.extend_from_slice(digits);
        out.extend(std::iter::repeat_n(b'0', whole - digits.len()));
        out.extend_from_slice(b".0");
    }
}

/// `d.ddde-x` or `de-x`.
fn lay_out_exponent_form(out: &mut Vec<u8>, digits: &[u8], exponent: i32) {
    out.push(digits[0]);
    if digits.len() > 1 {
        out.push(b'.');
        out.extend_from_slice(&digits[1..]);
    }
    out.push(b'e');
    out.extend_from_slice(itoa::Buffer::new().format(exponent).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: f32) -> String {
        let mut out = Vec::new();
        push_f32_debug(&mut out, value);
        String::from_utf8(out).unwrap()
    }

    fn assert_as_debug(value: f32) {
        assert_eq!(
            text(value),
            format!("{value:?}"),
            "bits {:#010x}",
            value.to_bits()
        );
    }

    #[test]
    fn special_values_and_each_layout() {
        let cases: [(f32, &str); 20] = [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (f32::INFINITY, "inf"),
            (f32::NEG_INFINITY, "-inf"),
            (f32::NAN, "NaN"),
            (-f32::NAN, "NaN"),
            (1.0, "1.0"),
            (-12.5, "-12.5"),
            (100.0, "100.0"),
            (0.1, "0.1"),
            (1e-4, "0.0001"),
            (-0.000_123_4, "-0.0001234"),
            (9.9e-5, "9.9e-5"),
            (1e15, "1000000000000000.0"),
            (-1e16, "-1e16"),
            (1.5e17, "1.5e17"),
            (f32::MAX, "3.4028235e38"),
            (f32::MIN_POSITIVE, "1.1754944e-38"),
            (1e-45, "1e-45"),
            (-1.0e-30, "-1e-30"),
        ];
        for (value, expected) in cases {
            assert_eq!(text(value), expected, "{value:?}");
        }
    }

    #[test]
    fn powers_of_two_whole_numbers_and_thresholds_are_written_as_debug_writes_them() {
        for biased in 0..255u32 {
            for fraction in [0, 1, 2, 0x40_0000, 0x7f_fffe, 0x7f_ffff] {
                assert_as_debug(f32::from_bits(biased << 23 | fraction));
            }
        }
        for n in (0..=1 << 24).step_by(997).chain([16_777_217, 123_456_789]) {
            assert_as_debug(n as f32);
        }
        for threshold in [1e-4f32, 1e16, 1e-22, 1e-23] {
            let bits = threshold.to_bits();
            for bits in bits - 64..bits + 64 {
                assert_as_debug(f32::from_bits(bits));
            }
        }
        for bits in 0..100_000 {
            assert_as_debug(f32::from_bits(bits));
        }
    }

    /// Values exactly halfway between two shortest decimals: core takes the upper one.
    #[test]
    fn exact_ties_go_up() {
        for (bits, expected) in [
            (0x3980_0000, "0.00024414063"),
            (0x3e02_0000, "0.12695313"),
            (0x40bf_2000, "5.9726563"),
        ] {
            assert_eq!(text(f32::from_bits(bits)), expected);
            assert_as_debug(f32::from_bits(bits));
        }
    }
}
