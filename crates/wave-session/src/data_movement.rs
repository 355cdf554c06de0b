//! What a cross-lane instruction moved where, for the data-movement picture: which lane each
//! result came from (inactive and missing sources included), or which lanes it combined.

use wave_engine::instr::Op;
use wave_engine::machine::LaneSource;

use crate::shown::Shown;

/// Where one lane's result came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveSource {
    /// The lane did not execute: nothing was written.
    Idle,
    /// Read this lane (`active`: whether that lane was executing).
    Lane { lane: u32, active: bool },
    /// Asked for a lane that does not exist: the result is 0.
    Missing { asked: i64 },
    /// Combined from these lanes.
    Lanes(Vec<u32>),
}

/// One lane of the picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneMove {
    pub lane: u32,
    /// Was executing (and so offered its value to combining operations, and was written).
    pub active: bool,
    /// What it offered before the instruction: its source value, or 0/1 for a vote.
    pub input: u32,
    pub source: MoveSource,
    /// What it received (executing lanes only).
    pub result: Option<u32>,
}

/// The data movement of the step on show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataMovement {
    /// The instruction's source text, e.g. "wave_shuffle_xor r3, r1, r2".
    pub code: String,
    pub line: u32,
    /// How results are combined when they are: "sum", "minimum", "maximum", "any", "all",
    /// "ballot" or "prefix sum"; `None` for the shuffles and broadcast (one source per lane).
    pub combiner: Option<&'static str>,
    pub lanes: Vec<LaneMove>,
}

impl DataMovement {
    /// One sentence per lane, for screen readers and as the picture's text alternative.
    pub fn lines(&self) -> Vec<String> {
        self.lanes
            .iter()
            .map(|m| {
                let lane = m.lane;
                let got =
                    |v: Option<u32>| v.map_or(String::new(), |v| format!(" and got {}", v as i32));
                match &m.source {
                    MoveSource::Idle => format!("lane {lane}: inactive, unchanged"),
                    MoveSource::Lane {
                        lane: from,
                        active: true,
                    } => {
                        format!("lane {lane} read lane {from}{}", got(m.result))
                    }
                    MoveSource::Lane {
                        lane: from,
                        active: false,
                    } => {
                        format!("lane {lane} read inactive lane {from}{}", got(m.result))
                    }
                    MoveSource::Missing { asked } => {
                        format!(
                            "lane {lane} asked for lane {asked}, which does not exist, and got 0"
                        )
                    }
                    MoveSource::Lanes(from) if from.is_empty() => {
                        format!("lane {lane} combined no lane{}", got(m.result))
                    }
                    MoveSource::Lanes(from) => format!(
                        "lane {lane} combined lanes {}{}",
                        crate::text::lanes_text(
                            from.iter().fold(0u64, |mask, l| mask | 1 << l),
                            64
                        ),
                        got(m.result)
                    ),
                }
            })
            .collect()
    }
}

fn combiner(op: Op) -> Option<&'static str> {
    Some(match op {
        Op::WaveReduceAdd => "sum",
        Op::WaveReduceMin => "minimum",
        Op::WaveReduceMax => "maximum",
        Op::WaveAny => "any",
        Op::WaveAll => "all",
        Op::WaveBallot => "ballot",
        Op::WavePrefixSum => "prefix sum",
        _ => return None,
    })
}

impl Shown<'_> {
    /// The data movement of the step on show, when it ran one cross-lane instruction of the
    /// selected wave.
    pub(crate) fn data_movement(&self) -> Option<DataMovement> {
        let same_wave = self.view.before_is_selected();
        if !self.view.single_step() || !same_wave {
            return None;
        }
        let flow = self.view.before().flow.as_ref()?;
        let pc = self.view.before().pc?;
        let line = self.line_of(pc).unwrap_or(0);
        let lanes = (0..flow.sources.len())
            .map(|lane| {
                let active = flow.mask >> lane & 1 == 1;
                let source = match flow.sources[lane] {
                    LaneSource::Idle => MoveSource::Idle,
                    LaneSource::Lane(from) => MoveSource::Lane {
                        lane: u32::from(from),
                        active: flow.mask >> from & 1 == 1,
                    },
                    LaneSource::OutOfRange(asked) => MoveSource::Missing { asked },
                    LaneSource::Lanes(mask) => {
                        MoveSource::Lanes((0..64).filter(|l| mask >> l & 1 == 1).collect())
                    }
                };
                LaneMove {
                    lane: lane as u32,
                    active,
                    input: flow.inputs.get(lane).copied().unwrap_or(0),
                    source,
                    result: active.then(|| flow.results.get(lane).copied().unwrap_or(0)),
                }
            })
            .collect();
        Some(DataMovement {
            code: self.build.code_text(line),
            line,
            combiner: combiner(flow.op),
            lanes,
        })
    }
}
