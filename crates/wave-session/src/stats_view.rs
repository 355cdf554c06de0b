//! Statistics and the per-line SIMD-efficiency heat for the editor gutter.

use std::collections::BTreeMap;

use crate::shown::Shown;

#[derive(Clone, Debug, PartialEq)]
pub struct StatsView {
    pub wave_instructions: u64,
    /// Active lanes over available lanes, 0–100.
    pub simd_efficiency_percent: f64,
    pub divergent_branches: u64,
    pub max_stack_depth: u32,
    pub barriers: u64,
    /// Run time as the page measured it, e.g. "12.3 ms" ("–" when not given).
    pub run_time: String,
    /// Label/value pairs in display order, ready for a definition list.
    pub items: Vec<(&'static str, String)>,
}

/// One source line's share of useful lanes over all its executions.
#[derive(Clone, Debug, PartialEq)]
pub struct LineHeat {
    pub line: u32,
    pub executions: u64,
    /// 0–1: active lanes over the lanes its waves have.
    pub efficiency: f64,
}

impl Shown<'_> {
    /// Statistics since the last reset; `run_time_ms` is measured by the caller.
    pub(crate) fn stats(&self, run_time_ms: Option<f64>) -> StatsView {
        let default = wave_engine::machine::Stats::default();
        let stats = self.run.machine().map_or(&default, |m| m.stats());
        let percent = stats.simd_efficiency() * 100.0;
        let run_time = match run_time_ms {
            Some(ms) if ms >= 1000.0 => format!("{:.2} s", ms / 1000.0),
            Some(ms) => format!("{ms:.1} ms"),
            None => "–".to_string(),
        };
        let items = vec![
            ("Wave-instructions", stats.wave_instructions.to_string()),
            ("SIMD efficiency", format!("{percent:.1}%")),
            ("Divergent branches", stats.divergent_branches.to_string()),
            ("Max stack depth", stats.max_stack_depth.to_string()),
            ("Barriers", stats.barriers.to_string()),
            ("Run time", run_time.clone()),
        ];
        StatsView {
            wave_instructions: stats.wave_instructions,
            simd_efficiency_percent: percent,
            divergent_branches: stats.divergent_branches,
            max_stack_depth: stats.max_stack_depth,
            barriers: stats.barriers,
            run_time,
            items,
        }
    }

    /// Per source line that executed: its SIMD efficiency. The lanes a wave has are taken as the
    /// wave width, capped by the workgroup size (the last wave of a workgroup may be partial, which
    /// this does not see).
    pub(crate) fn line_heat(&self) -> Vec<LineHeat> {
        let (Some(machine), Some(kernel)) = (self.run.machine(), self.kernel()) else {
            return Vec::new();
        };
        let stats = machine.stats();
        let mut per_line: BTreeMap<u32, (u64, u64, u64)> = BTreeMap::new();
        for (pc, &line) in kernel.lines.iter().enumerate() {
            let Some(pc_stats) = stats.per_pc.get(pc).filter(|s| s.count != 0) else {
                continue;
            };
            let entry = per_line.entry(line).or_default();
            entry.0 += pc_stats.count;
            entry.1 += pc_stats.active_lanes;
            entry.2 += pc_stats.lane_slots;
        }
        per_line
            .into_iter()
            .map(|(line, (executions, active, slots))| LineHeat {
                line,
                executions,
                efficiency: active as f64 / slots.max(1) as f64,
            })
            .collect()
    }
}
