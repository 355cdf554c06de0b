//! The registers and predicates view: the registers the kernel uses × lanes, in a chosen format,
//! with what the last step changed, and a selected-lane detail.

use serde::{Deserialize, Serialize};
use wave_engine::program::Kernel;

use super::Session;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NumberFormat {
    I32,
    U32,
    Hex,
    F32,
}

impl NumberFormat {
    pub fn format(self, value: u32) -> String {
        match self {
            NumberFormat::I32 => (value as i32).to_string(),
            NumberFormat::U32 => value.to_string(),
            NumberFormat::Hex => format!("0x{value:08x}"),
            NumberFormat::F32 => format_f32(f32::from_bits(value)),
        }
    }
}

/// Shortest text that reads back as the same f32 ("1", "-0.5", "NaN", "inf").
pub(crate) fn format_f32(value: f32) -> String {
    if value.is_nan() {
        "NaN".to_string()
    } else {
        format!("{value}")
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisterRow {
    pub register: u8,
    /// "r3".
    pub name: String,
    /// One formatted value per lane.
    pub values: Vec<String>,
    /// Per lane: the last step (or run) changed it.
    pub changed: Vec<bool>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredicateRow {
    /// "p0".."p3".
    pub name: String,
    pub lanes: Vec<bool>,
    pub changed: Vec<bool>,
}

/// Every used register and predicate of one lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneDetail {
    pub lane: u32,
    /// (name, value in the chosen format, changed by the last step).
    pub registers: Vec<(String, String, bool)>,
    pub predicates: [bool; 4],
}

/// The registers `kernel` uses (the front end lists them, pair and quad words included), below
/// its register file.
pub(crate) fn used_registers(kernel: &Kernel) -> Vec<u8> {
    kernel
        .used_registers
        .iter()
        .copied()
        .filter(|&r| u32::from(r) < kernel.register_file_size)
        .collect()
}

impl Session {
    fn changed_register(&self, register: u8, lane: u32, value: u32) -> bool {
        if self.before.workgroup != self.selection.workgroup
            || self.before.wave != self.selection.wave
        {
            return false;
        }
        self.before
            .registers
            .iter()
            .find(|(r, _)| *r == register)
            .and_then(|(_, row)| row.get(lane as usize))
            .is_some_and(|&old| old != value)
    }

    fn changed_predicate(&self, p: usize, now: u64, lane: u32) -> bool {
        self.before.workgroup == self.selection.workgroup
            && self.before.wave == self.selection.wave
            && (self.before.predicates[p] ^ now) >> lane & 1 == 1
    }

    /// The used registers × lanes of the selected wave.
    pub fn registers(&self, format: NumberFormat) -> Vec<RegisterRow> {
        let Some(wave) = self.selected_wave() else {
            return Vec::new();
        };
        self.used_registers
            .iter()
            .filter(|&&r| (r as u32) < wave.register_count)
            .map(|&r| {
                let row = wave.row(r);
                RegisterRow {
                    register: r,
                    name: format!("r{r}"),
                    values: row.iter().map(|&v| format.format(v)).collect(),
                    changed: row
                        .iter()
                        .enumerate()
                        .map(|(lane, &v)| self.changed_register(r, lane as u32, v))
                        .collect(),
                }
            })
            .collect()
    }

    /// p0–p3 × lanes of the selected wave.
    pub fn predicates(&self) -> Vec<PredicateRow> {
        let Some(wave) = self.selected_wave() else {
            return Vec::new();
        };
        (0..4)
            .map(|p| PredicateRow {
                name: format!("p{p}"),
                lanes: (0..wave.width)
                    .map(|l| wave.predicate(p as u8, l))
                    .collect(),
                changed: (0..wave.width)
                    .map(|l| self.changed_predicate(p, wave.predicates[p], l))
                    .collect(),
            })
            .collect()
    }

    /// The selected lane's registers and predicates.
    pub fn lane_detail(&self, format: NumberFormat) -> Option<LaneDetail> {
        let wave = self.selected_wave()?;
        let lane = self.selection.lane;
        Some(LaneDetail {
            lane,
            registers: self
                .used_registers
                .iter()
                .filter(|&&r| (r as u32) < wave.register_count)
                .map(|&r| {
                    let value = wave.register(r, lane);
                    (
                        format!("r{r}"),
                        format.format(value),
                        self.changed_register(r, lane, value),
                    )
                })
                .collect(),
            predicates: [0, 1, 2, 3].map(|p| wave.predicate(p, lane)),
        })
    }
}
