//! Two runs side by side: what each measured, the table of measures with their differences, a
//! one-sentence headline, and whether the two runs left the same device memory.
//!
//! The measures are the engine's own statistics, the same numbers `wavesim run --stats
//! --extra-stats` prints, so the playground's compare mode and `wavesim compare` agree with a run
//! of either kernel alone.
//!
//! Formatting, shared by every caller so the page and the command line read alike: counts are
//! plain decimal numbers, SIMD efficiency a percentage with one decimal ("56.3%", as the
//! statistics view shows it). A difference is B less A, always signed with an ASCII `+` or `-`:
//! counts as "-38 (-38 %)" (the percentage is of A's count, left out when A's count is 0), SIMD
//! efficiency in percentage points, "+43.7 pp". Equal values show a difference of "0" ("0 pp" for
//! SIMD efficiency).

use crate::machine::{Machine, ReferenceStats};
use crate::program::Kernel;

/// What one run measured: the engine's statistics, read from a machine.
#[derive(Clone, Debug, PartialEq)]
pub struct RunMeasures {
    /// Wave-instructions issued (one per wave per step).
    pub wave_instructions: u64,
    /// Active lanes summed over the wave-instructions issued.
    pub active_lane_instructions: u64,
    /// Lanes the issuing waves had, summed: SIMD efficiency is active lanes over these.
    pub lane_slots: u64,
    /// `if`s that split a wave into two non-empty sides.
    pub divergent_branches: u64,
    /// The deepest a wave's divergence stack went.
    pub max_stack_depth: u32,
    /// Barriers waited at, as `wavesim run --stats` counts them.
    pub barrier_waits: u64,
    /// Device and local loads, one per lane, as `wavesim run --stats` counts them.
    pub memory_reads: u64,
    /// Device and local stores, one per lane, likewise.
    pub memory_writes: u64,
    /// Whether the whole grid ran to its end.
    pub finished: bool,
}

impl RunMeasures {
    /// The measures of `machine`, which runs `kernel`, as far as it has run.
    pub fn of(machine: &Machine, kernel: &Kernel) -> Self {
        let stats = machine.stats();
        // The memory traffic and barriers are read through the reference emulator's block, which
        // is what `wavesim run --stats` prints: the two must never disagree.
        let figures = ReferenceStats::of(stats, &kernel.code);
        RunMeasures {
            wave_instructions: stats.wave_instructions,
            active_lane_instructions: stats.active_lane_instructions,
            lane_slots: stats.lane_slots,
            divergent_branches: stats.divergent_branches,
            max_stack_depth: stats.max_stack_depth,
            barrier_waits: figures.barriers,
            memory_reads: figures.device_loads + figures.local_loads,
            memory_writes: figures.device_stores + figures.local_stores,
            finished: machine.is_finished(),
        }
    }

    /// Active lanes over lane slots, 0..=1; 1 when nothing ran, as the engine's statistics say.
    pub fn simd_efficiency(&self) -> f64 {
        if self.lane_slots == 0 {
            1.0
        } else {
            self.active_lane_instructions as f64 / self.lane_slots as f64
        }
    }

    /// The count a measure reads, or `None` for SIMD efficiency, which is a ratio.
    fn count(&self, measure: Measure) -> Option<u64> {
        Some(match measure {
            Measure::WaveInstructions => self.wave_instructions,
            Measure::SimdEfficiency => return None,
            Measure::DivergentBranches => self.divergent_branches,
            Measure::DeepestStack => u64::from(self.max_stack_depth),
            Measure::BarrierWaits => self.barrier_waits,
            Measure::MemoryReads => self.memory_reads,
            Measure::MemoryWrites => self.memory_writes,
        })
    }
}

/// One row of the comparison table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    WaveInstructions,
    SimdEfficiency,
    DivergentBranches,
    DeepestStack,
    BarrierWaits,
    MemoryReads,
    MemoryWrites,
}

impl Measure {
    /// Every measure, in the table's order.
    pub const ALL: [Measure; 7] = [
        Measure::WaveInstructions,
        Measure::SimdEfficiency,
        Measure::DivergentBranches,
        Measure::DeepestStack,
        Measure::BarrierWaits,
        Measure::MemoryReads,
        Measure::MemoryWrites,
    ];

    /// The row's heading.
    pub fn label(self) -> &'static str {
        match self {
            Measure::WaveInstructions => "Wave-instructions issued",
            Measure::SimdEfficiency => "SIMD efficiency",
            Measure::DivergentBranches => "Divergent branches",
            Measure::DeepestStack => "Deepest divergence stack",
            Measure::BarrierWaits => "Barrier waits",
            Measure::MemoryReads => "Memory reads",
            Measure::MemoryWrites => "Memory writes",
        }
    }
}

/// One measure of both runs, formatted for a table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub measure: Measure,
    pub a: String,
    pub b: String,
    /// B less A (see the module's documentation for the format).
    pub difference: String,
    /// Whether the two values differ as shown, so a highlight never marks two equal cells.
    pub differs: bool,
}

/// Two runs' measures: run A and run B.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub a: RunMeasures,
    pub b: RunMeasures,
}

impl Comparison {
    pub fn new(a: RunMeasures, b: RunMeasures) -> Self {
        Comparison { a, b }
    }

    /// One row per measure, in the order of [`Measure::ALL`].
    pub fn rows(&self) -> Vec<Row> {
        Measure::ALL
            .iter()
            .map(
                |&measure| match (self.a.count(measure), self.b.count(measure)) {
                    (Some(a), Some(b)) => Row {
                        measure,
                        a: a.to_string(),
                        b: b.to_string(),
                        difference: count_difference(a, b),
                        differs: a != b,
                    },
                    _ => {
                        let a = efficiency_cell(self.a.simd_efficiency());
                        let b = efficiency_cell(self.b.simd_efficiency());
                        let difference = if a == b {
                            "0 pp".to_string()
                        } else {
                            // Taken from the rounded cells, so the difference adds up with them.
                            let points = tenths_of_percent(self.b.simd_efficiency())
                                - tenths_of_percent(self.a.simd_efficiency());
                            let sign = if points < 0 { '-' } else { '+' };
                            let points = points.unsigned_abs();
                            format!("{sign}{}.{} pp", points / 10, points % 10)
                        };
                        Row {
                            measure,
                            differs: a != b,
                            a,
                            b,
                            difference,
                        }
                    }
                },
            )
            .collect()
    }

    /// The comparison in one sentence: how many wave-instructions B issues against A, and the
    /// two SIMD efficiencies, e.g. "B issues 38 % fewer wave-instructions; its SIMD efficiency is
    /// 100 % against 56 %."
    pub fn headline(&self) -> String {
        let (a, b) = (self.a.wave_instructions, self.b.wave_instructions);
        let instructions = if a == 0 && b == 0 {
            return "Neither A nor B has issued a wave-instruction.".to_string();
        } else if a == 0 {
            return format!(
                "A has issued no wave-instruction; B issues {} at a SIMD efficiency of {}.",
                wave_instructions(b),
                headline_percent(self.b.simd_efficiency(), self.b.simd_efficiency())
            );
        } else if b == 0 {
            return format!(
                "B has issued no wave-instruction; A issues {} at a SIMD efficiency of {}.",
                wave_instructions(a),
                headline_percent(self.a.simd_efficiency(), self.a.simd_efficiency())
            );
        } else if a == b {
            format!("A and B issue the same {}", wave_instructions(a))
        } else {
            let (word, by) = if b < a {
                ("fewer", a - b)
            } else {
                ("more", b - a)
            };
            let percent = by as f64 / a as f64 * 100.0;
            if percent < 0.5 {
                let noun = if by == 1 {
                    "wave-instruction"
                } else {
                    "wave-instructions"
                };
                format!("B issues {by} {word} {noun} (under 1 %)")
            } else {
                format!("B issues {percent:.0} % {word} wave-instructions")
            }
        };
        let (ea, eb) = (self.a.simd_efficiency(), self.b.simd_efficiency());
        let efficiency = if efficiency_cell(ea) == efficiency_cell(eb) {
            let same = headline_percent(ea, eb);
            if a == b {
                format!(" at the same SIMD efficiency, {same}")
            } else {
                format!("; its SIMD efficiency is the same, {same}")
            }
        } else {
            let (shown_a, shown_b) = (headline_percent(ea, eb), headline_percent(eb, ea));
            if a == b {
                format!("; B's SIMD efficiency is {shown_b} against {shown_a}")
            } else {
                format!("; its SIMD efficiency is {shown_b} against {shown_a}")
            }
        };
        format!("{instructions}{efficiency}.")
    }
}

/// "120 wave-instructions", "1 wave-instruction".
fn wave_instructions(count: u64) -> String {
    if count == 1 {
        "1 wave-instruction".to_string()
    } else {
        format!("{count} wave-instructions")
    }
}

/// An efficiency (0..=1) as a table cell, as the statistics view shows it: "56.3%".
fn efficiency_cell(efficiency: f64) -> String {
    format!("{:.1}%", efficiency * 100.0)
}

/// An efficiency in tenths of a percent, rounded as [`efficiency_cell`] rounds it.
fn tenths_of_percent(efficiency: f64) -> i64 {
    // The cell's own text is parsed back so the two can never round differently.
    let cell = efficiency_cell(efficiency);
    let digits: String = cell.chars().filter(char::is_ascii_digit).collect();
    digits.parse().unwrap_or(0)
}

/// `efficiency` in whole percent for the headline ("56 %"), or with one decimal when that is
/// needed to tell it from `other` ("56.3 %" against "56.4 %").
fn headline_percent(efficiency: f64, other: f64) -> String {
    let whole = |e: f64| format!("{:.0}", e * 100.0);
    if whole(efficiency) == whole(other) && efficiency_cell(efficiency) != efficiency_cell(other) {
        format!("{:.1} %", efficiency * 100.0)
    } else {
        format!("{} %", whole(efficiency))
    }
}

/// B less A for a count: "-38 (-38 %)", "+5" when A is 0, "0" when equal.
fn count_difference(a: u64, b: u64) -> String {
    if a == b {
        return "0".to_string();
    }
    let (sign, by) = if b < a { ('-', a - b) } else { ('+', b - a) };
    if a == 0 {
        return format!("{sign}{by}");
    }
    let percent = by as f64 / a as f64 * 100.0;
    let percent = if percent < 0.05 {
        "<0.1".to_string()
    } else if percent < 1.0 {
        format!("{percent:.1}")
    } else {
        format!("{percent:.0}")
    };
    format!("{sign}{by} ({sign}{percent} %)")
}

/// Whether two runs left the same device memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryVerdict {
    /// Every byte is the same.
    Equal { bytes: usize },
    /// The first differing 32-bit words (address, A's word, B's word), at most `limit` of them,
    /// and how many words differ in all.
    Differ {
        first: Vec<(u64, u32, u32)>,
        words: usize,
    },
    /// The two memories are not the same size, so no word-by-word comparison is made.
    SizesDiffer { a: usize, b: usize },
}

/// Bytes compared at once: equal stretches are passed over by slice comparison, and only a
/// stretch that differs is read word by word.
const CHUNK: usize = 4096;

/// Compares two device memories as little-endian 32-bit words (a last partial word is read as if
/// padded with zeros), keeping the first `limit` differences and counting them all.
pub fn compare_memory(a: &[u8], b: &[u8], limit: usize) -> MemoryVerdict {
    if a.len() != b.len() {
        return MemoryVerdict::SizesDiffer {
            a: a.len(),
            b: b.len(),
        };
    }
    if a == b {
        return MemoryVerdict::Equal { bytes: a.len() };
    }
    let mut first = Vec::new();
    let mut words = 0;
    // CHUNK is a multiple of 4, so words never straddle two chunks.
    for (index, (chunk_a, chunk_b)) in a.chunks(CHUNK).zip(b.chunks(CHUNK)).enumerate() {
        if chunk_a == chunk_b {
            continue;
        }
        let base = index * CHUNK;
        for (offset, (word_a, word_b)) in chunk_a.chunks(4).zip(chunk_b.chunks(4)).enumerate() {
            if word_a == word_b {
                continue;
            }
            words += 1;
            if first.len() < limit {
                first.push(((base + offset * 4) as u64, word(word_a), word(word_b)));
            }
        }
    }
    MemoryVerdict::Differ { first, words }
}

/// Up to four bytes as a little-endian word, missing high bytes zero.
fn word(bytes: &[u8]) -> u32 {
    let mut padded = [0; 4];
    for (slot, &byte) in padded.iter_mut().zip(bytes) {
        *slot = byte;
    }
    u32::from_le_bytes(padded)
}

impl MemoryVerdict {
    /// Whether the results differ (in their words or in their sizes).
    pub fn differs(&self) -> bool {
        !matches!(self, MemoryVerdict::Equal { .. })
    }

    /// The verdict in one sentence, e.g. "Results equal: device memory matches (4096 bytes)." or
    /// "Results differ at 3 words: 0x0010 A 7 B 9; 0x0014 A 1 B 2; 0x0020 A 0 B 5."
    pub fn sentence(&self) -> String {
        match self {
            MemoryVerdict::Equal { bytes } => {
                format!("Results equal: device memory matches ({bytes} bytes).")
            }
            MemoryVerdict::Differ { first, words } => {
                let noun = if *words == 1 { "word" } else { "words" };
                let listed: Vec<String> = first
                    .iter()
                    .map(|(address, a, b)| format!("{address:#06x} A {a} B {b}"))
                    .collect();
                if listed.is_empty() {
                    format!("Results differ at {words} {noun}.")
                } else if listed.len() < *words {
                    format!(
                        "Results differ at {words} {noun}, the first {}: {}.",
                        listed.len(),
                        listed.join("; ")
                    )
                } else {
                    format!("Results differ at {words} {noun}: {}.", listed.join("; "))
                }
            }
            MemoryVerdict::SizesDiffer { a, b } => {
                format!("Results cannot be compared: A has {a} bytes of device memory, B has {b}.")
            }
        }
    }
}
