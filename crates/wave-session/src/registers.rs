//! The registers and predicates view: the registers the kernel uses × lanes, in a chosen format,
//! with what the last step changed, and a selected-lane detail.

use serde::{Deserialize, Serialize};

use crate::shown::Shown;

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

/// Every used register and predicate of one lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneDetail {
    pub lane: u32,
    /// (name, value in the chosen format, changed by the last step).
    pub registers: Vec<(String, String, bool)>,
    pub predicates: [bool; 4],
}

impl Shown<'_> {
    fn changed_register(&self, register: u8, lane: u32, value: u32) -> bool {
        if !self.view.before_is_selected() {
            return false;
        }
        self.view
            .before()
            .registers
            .iter()
            .find(|(r, _)| *r == register)
            .and_then(|(_, row)| row.get(lane as usize))
            .is_some_and(|&old| old != value)
    }

    fn changed_predicate(&self, p: usize, now: u64, lane: u32) -> bool {
        self.view.before_is_selected() && (self.view.before().predicates[p] ^ now) >> lane & 1 == 1
    }

    /// The selected lane's registers and predicates.
    pub(crate) fn lane_detail(&self, format: NumberFormat) -> Option<LaneDetail> {
        let wave = self.selected_wave()?;
        let lane = self.view.selection().lane;
        Some(LaneDetail {
            lane,
            registers: self
                .build
                .used_registers()
                .iter()
                .filter(|&&r| (r as u32) < wave.register_count())
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

/// One row of the register table: a register or a predicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRow {
    /// Position in the whole table (registers first, then p0–p3).
    pub index: usize,
    /// "r3" or "p1".
    pub name: String,
    pub predicate: bool,
    /// The cells of the requested lanes, in lane order.
    pub cells: Vec<TableCell>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableCell {
    pub lane: u32,
    /// The value in the chosen format, or "T" / "·" for a predicate.
    pub text: String,
    /// The last step (or run) changed it.
    pub changed: bool,
    /// A predicate that holds.
    pub on: bool,
}

/// Widest value text the register table makes room for; longer ones are cut with an ellipsis
/// (the selected-lane detail shows them whole).
pub const MAX_CELL_CHARS: usize = 14;

/// A value's text as a register cell shows it: cut to [`MAX_CELL_CHARS`] with an ellipsis when
/// longer. Cut here rather than by the stylesheet (`text-overflow`), which needs every cell to
/// clip its content: hundreds of clips add about 1 ms to each step's paint.
fn cell_text(mut text: String) -> String {
    if let Some((cut, _)) = text.char_indices().nth(MAX_CELL_CHARS - 1) {
        if text[cut..].chars().nth(1).is_some() {
            text.truncate(cut);
            text.push('…');
        }
    }
    text
}

impl Shown<'_> {
    /// The registers the table shows for the selected wave: the used ones inside its register
    /// file.
    fn shown_registers(&self, wave: &wave_engine::machine::Wave) -> Vec<u8> {
        self.build
            .used_registers()
            .iter()
            .copied()
            .filter(|&r| u32::from(r) < wave.register_count())
            .collect()
    }

    /// Rows of the whole register table (used registers, then p0–p3); 0 without a wave.
    pub(crate) fn register_table_rows(&self) -> usize {
        self.selected_wave()
            .map_or(0, |wave| self.shown_registers(wave).len() + 4)
    }

    /// How many characters the table's value columns need in `format`: the longest value of
    /// the selected wave's shown registers (at least 1, at most [`MAX_CELL_CHARS`]). One width
    /// for every column, so scrolling never moves them.
    pub(crate) fn register_cell_chars(&self, format: NumberFormat) -> usize {
        let Some(wave) = self.selected_wave() else {
            return 1;
        };
        let longest = match format {
            NumberFormat::Hex => 10,
            _ => self
                .shown_registers(wave)
                .iter()
                .flat_map(|&r| wave.row(r).iter().copied())
                .map(|v| match format {
                    NumberFormat::I32 => decimal_chars(i64::from(v as i32)),
                    NumberFormat::U32 => decimal_chars(i64::from(v)),
                    NumberFormat::Hex | NumberFormat::F32 => format.format(v).chars().count(),
                })
                .max()
                .unwrap_or(1),
        };
        longest.clamp(1, MAX_CELL_CHARS)
    }

    /// The rows `rows` of the register table (registers, then p0–p3) with the cells of the lanes
    /// `lanes` only: what a virtualised table renders. Ranges past the end are cut.
    pub(crate) fn register_window(
        &self,
        format: NumberFormat,
        rows: std::ops::Range<usize>,
        lanes: std::ops::Range<u32>,
    ) -> Vec<TableRow> {
        let Some(wave) = self.selected_wave() else {
            return Vec::new();
        };
        let registers = self.shown_registers(wave);
        let lanes = lanes.start.min(wave.width())..lanes.end.min(wave.width());
        let total = registers.len() + 4;
        (rows.start.min(total)..rows.end.min(total))
            .map(|index| match registers.get(index) {
                Some(&r) => {
                    let row = wave.row(r);
                    TableRow {
                        index,
                        name: format!("r{r}"),
                        predicate: false,
                        cells: lanes
                            .clone()
                            .map(|lane| {
                                let value = row[lane as usize];
                                TableCell {
                                    lane,
                                    text: cell_text(format.format(value)),
                                    changed: self.changed_register(r, lane, value),
                                    on: false,
                                }
                            })
                            .collect(),
                    }
                }
                None => {
                    let p = index - registers.len();
                    TableRow {
                        index,
                        name: format!("p{p}"),
                        predicate: true,
                        cells: lanes
                            .clone()
                            .map(|lane| {
                                let on = wave.predicate(p as u8, lane);
                                TableCell {
                                    lane,
                                    text: if on { "T" } else { "·" }.to_string(),
                                    changed: self.changed_predicate(p, wave.predicates()[p], lane),
                                    on,
                                }
                            })
                            .collect(),
                    }
                }
            })
            .collect()
    }
}

/// Characters of `value` in decimal, sign included.
fn decimal_chars(value: i64) -> usize {
    let sign = usize::from(value < 0);
    let mut digits = 1;
    let mut rest = value.unsigned_abs();
    while rest >= 10 {
        rest /= 10;
        digits += 1;
    }
    sign + digits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_is_cut_only_when_longer_than_the_widest_column() {
        let fits = "-1.2345678e-30".to_string();
        assert_eq!(fits.chars().count(), MAX_CELL_CHARS);
        assert_eq!(cell_text(fits.clone()), fits);
        assert_eq!(cell_text("1.00000000000000003".into()), "1.00000000000…");
        assert_eq!(cell_text(String::new()), "");
        // Counted in characters, not bytes.
        assert_eq!(cell_text("é".repeat(14)), "é".repeat(14));
        assert_eq!(cell_text("é".repeat(15)), format!("{}…", "é".repeat(13)));
    }
}
