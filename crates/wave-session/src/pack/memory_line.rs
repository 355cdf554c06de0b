//! `memory:` launch lines: the Launch tab's device-memory contents (its regions) as one line each,
//! so that a kernel with input data leaves a pack and opens again with the same data.
//!
//! ```text
//! memory: random f32 at 0x0, count 4096, seed 1, low -1, high 1
//! memory: iota u32 at 256, count 64, start 0, step 4
//! memory: zeros i32 at 0x400, count 16
//! memory: literal f32 at 0x800, values 1.5 2 -3
//! ```
//!
//! The head names the region's kind, its element type and its byte offset, as the Launch tab's
//! controls do; then the fields of that kind follow as `name value`, separated by commas. A
//! literal region's `values` come last and take the rest of the line (commas allowed there, as in
//! the Launch tab's box). A field left out keeps the Launch tab's default for a new region.

use wave_engine::LaunchSpec;

use crate::regions::{self, ElemType, RegionField, RegionForm, RegionKind};

const EXAMPLE: &str = "`memory: random f32 at 0x0, count 256, seed 1, low 0, high 1`";

/// The fields a region of `kind` reads, by their names in a `memory:` line.
fn fields_of(kind: RegionKind) -> &'static [(&'static str, RegionField)] {
    match kind {
        RegionKind::Zeros => &[("count", RegionField::Count)],
        RegionKind::Iota => &[
            ("count", RegionField::Count),
            ("start", RegionField::Start),
            ("step", RegionField::Step),
        ],
        RegionKind::Random => &[
            ("count", RegionField::Count),
            ("seed", RegionField::Seed),
            ("low", RegionField::Low),
            ("high", RegionField::High),
        ],
        RegionKind::Literal => &[("values", RegionField::Values)],
    }
}

fn slot(region: &mut RegionForm, field: RegionField) -> &mut String {
    match field {
        RegionField::Offset => &mut region.offset,
        RegionField::Count => &mut region.count,
        RegionField::Start => &mut region.start,
        RegionField::Step => &mut region.step,
        RegionField::Seed => &mut region.seed,
        RegionField::Low => &mut region.low,
        RegionField::High => &mut region.high,
        RegionField::Values => &mut region.values,
    }
}

fn name_of(field: RegionField) -> &'static str {
    match field {
        RegionField::Offset => "offset",
        RegionField::Count => "count",
        RegionField::Start => "start",
        RegionField::Step => "step",
        RegionField::Seed => "seed",
        RegionField::Low => "low",
        RegionField::High => "high",
        RegionField::Values => "values",
    }
}

/// Reads the value of a `memory:` line (the text after the colon) into a region, checked as the
/// Launch tab checks it; the message says what is wrong in the line's own words.
pub(super) fn read_region(value: &str) -> Result<(RegionForm, u64), String> {
    let (head, rest) = match value.split_once(',') {
        Some((head, rest)) => (head, Some(rest)),
        None => (value, None),
    };
    let words: Vec<&str> = head.split_whitespace().collect();
    let [kind, elem, at, offset] = words[..] else {
        return Err(format!(
            "a memory line is `memory: <kind> <type> at <offset>, <field> <value>, …`, e.g. {EXAMPLE}"
        ));
    };
    let Some(kind) = RegionKind::from_name(kind) else {
        return Err(format!(
            "`{kind}` is not a kind of memory contents (one of: zeros, iota, random, literal)"
        ));
    };
    let Some(elem) = ElemType::from_name(elem) else {
        return Err(format!(
            "`{elem}` is not an element type (one of: u32, i32, f32)"
        ));
    };
    if !at.eq_ignore_ascii_case("at") {
        return Err(format!("write `at` before the byte offset, e.g. {EXAMPLE}"));
    }
    let mut region = RegionForm::new(kind, elem, offset);
    let known = fields_of(kind);
    let mut rest = rest.unwrap_or("");
    let mut seen: Vec<RegionField> = Vec::new();
    while !rest.trim().is_empty() {
        let trimmed = rest.trim_start();
        let (name, after) = trimmed
            .split_once(char::is_whitespace)
            .unwrap_or((trimmed, ""));
        let Some(&(_, field)) = known.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) else {
            let names: Vec<&str> = known.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "`{name}` is not a field of {} memory contents (it has: {})",
                kind.name(),
                names.join(", ")
            ));
        };
        if seen.contains(&field) {
            return Err(format!("`{name}` is given twice"));
        }
        seen.push(field);
        // A literal region's values run to the end of the line; every other field ends at a comma.
        let (text, next) = if field == RegionField::Values {
            (after, "")
        } else {
            after.split_once(',').unwrap_or((after, ""))
        };
        if text.trim().is_empty() {
            return Err(format!("`{name}` needs a value"));
        }
        *slot(&mut region, field) = text.trim().to_string();
        rest = next;
    }
    let parsed = regions::parse_region(&region)
        .map_err(|(field, message)| format!("`{}`: {message}", name_of(field)))?;
    let end = u64::from(parsed.offset) + parsed.words.len() as u64 * 4;
    Ok((region, end))
}

/// Checks that every region fits in the device memory the launch asks for. `ends` gives each
/// region's line and the byte its contents end at (from [`read_region`]); the caller has
/// already checked the device memory's size.
pub(super) fn check_fit(device_memory: &str, ends: &[(usize, u64)]) -> Result<(), (usize, String)> {
    let spec = LaunchSpec {
        device_memory: device_memory.to_string(),
        ..LaunchSpec::default()
    };
    let Ok(config) = spec.parse() else {
        return Ok(());
    };
    for &(line, end) in ends {
        if end > u64::from(config.device_memory) {
            return Err((
                line,
                format!(
                    "the memory contents end at byte {end}, past the device memory ({} bytes): raise `device memory`",
                    config.device_memory
                ),
            ));
        }
    }
    Ok(())
}

/// A region as the value of a `memory:` line, every field of its kind written out.
pub(super) fn write_region(region: &RegionForm) -> String {
    let one_line = |text: &str| text.replace(['\n', '\r'], " ").trim().to_string();
    let mut line = format!(
        "{} {} at {}",
        region.kind.name(),
        region.elem.name(),
        one_line(&region.offset)
    );
    let mut copy = region.clone();
    for &(name, field) in fields_of(region.kind) {
        line.push_str(&format!(", {name} {}", one_line(slot(&mut copy, field))));
    }
    line
}
