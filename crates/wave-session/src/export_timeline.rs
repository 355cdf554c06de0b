//! "Download timeline SVG": the selected wave's lanes × the instructions it ran in a chosen
//! range of steps, as one standalone SVG picture. The same shapes as the timeline on the page
//! (so states never rest on colour alone), a step axis with source lines, the event marks and a
//! legend; standard fonts and written-out colours, light or dark.

use std::fmt::Write;

use crate::build::Build;
use crate::export_svg::{escape, Palette, DARK, LIGHT, MONO, SANS};
use crate::run::Run;
use crate::text::lanes_text;
use crate::timeline::{
    mark_letter, replay_columns, LaneCell, TimelineColumn, FINE_STEPS, MARK_KEY,
};
use crate::view::View;

/// Most steps one picture covers: the timeline's finest window.
pub const MAX_PICTURE_STEPS: u64 = FINE_STEPS;

const LEFT: f32 = 64.0;
const RIGHT: f32 = 24.0;
/// Width the columns share, at most (each is between 1 and 14 px).
const COLUMNS_WIDTH: f32 = 900.0;
const MIN_WIDTH: f32 = 720.0;
const MARK_ROW: f32 = 16.0;
/// Step-axis ticks, at most.
const TICKS: usize = 8;

/// The timeline of steps `first..last` (the instructions the selected wave ran after step
/// `first`, up to step `last`) as a standalone SVG document. Leaves the machine where it
/// stands. `Err` says what is wrong with the range.
pub(crate) fn timeline_svg(
    build: &Build,
    run: &mut Run,
    view: &View,
    first: u64,
    last: u64,
    dark: bool,
) -> Result<String, String> {
    let known = run.known_end();
    if first >= last {
        return Err(format!(
            "Choose a range: from step {first} to step {last} holds no step"
        ));
    }
    if last > known {
        return Err(format!(
            "The run is known up to step {known}: choose steps up to it"
        ));
    }
    if last - first > MAX_PICTURE_STEPS {
        return Err(format!(
            "One picture holds at most {MAX_PICTURE_STEPS} steps: choose a shorter range"
        ));
    }
    let wave = view.selection().wave;
    let width = run.wave_width().max(1);
    let now = run.step_count();
    let columns = replay_columns(build, run, wave as usize, first, last)
        .ok_or_else(|| "Nothing has run: fix the kernel or the launch first".to_string())?;
    let kernel = build.kernel().map_or("no kernel", |k| k.name.as_str());
    let picture = Picture {
        p: if dark { &DARK } else { &LIGHT },
        columns: &columns,
        width,
    };
    let title = format!("WAVE Playground · {kernel} · timeline of steps {first}–{last}");
    let subtitle = format!(
        "Wave {wave} · {} instruction{} of the wave, one column each · lanes top to bottom",
        columns.len(),
        if columns.len() == 1 { "" } else { "s" }
    );
    Ok(picture.document(&title, &subtitle, now))
}

struct Picture<'a> {
    p: &'a Palette,
    columns: &'a [TimelineColumn],
    width: u32,
}

impl Picture<'_> {
    fn column_width(&self) -> f32 {
        (COLUMNS_WIDTH / self.columns.len().max(1) as f32).clamp(1.0, 14.0)
    }

    fn row_height(&self) -> f32 {
        (256.0 / self.width as f32).clamp(5.0, 16.0)
    }

    fn document(&self, title: &str, subtitle: &str, now: u64) -> String {
        let p = self.p;
        let cw = self.column_width();
        let rh = self.row_height();
        let picture_width = (LEFT + cw * self.columns.len() as f32 + RIGHT)
            .max(MIN_WIDTH)
            .ceil() as u32;
        let mut body = String::new();
        let _ = write!(
            body,
            r#"<text x="20" y="28" font-family="{SANS}" font-size="16" font-weight="bold" fill="{}">{}</text><text x="20" y="48" font-family="{SANS}" font-size="12" fill="{}">{}</text>"#,
            p.text,
            escape(title),
            p.muted,
            escape(subtitle)
        );
        let marks_top = 64.0;
        let lanes_top = marks_top + MARK_ROW;
        let lanes_height = rh * self.width as f32;
        if self.columns.is_empty() {
            let _ = write!(
                body,
                r#"<text x="{LEFT}" y="{}" font-family="{SANS}" font-size="13" fill="{}">The wave ran no instruction in these steps (the others ran, or it had finished).</text>"#,
                lanes_top + 14.0,
                p.muted
            );
        }
        self.marks(&mut body, marks_top);
        self.lane_labels(&mut body, lanes_top);
        let _ = write!(
            body,
            r#"<rect x="{LEFT}" y="{lanes_top}" width="{:.2}" height="{lanes_height:.2}" fill="{}" stroke="{}" stroke-width="0.5"/>"#,
            cw * self.columns.len() as f32,
            p.panel,
            p.edge
        );
        let mut shapes = Shapes::default();
        let mut open = Blocks::new();
        for lane in 0..self.width {
            self.lane_row(&mut shapes, &mut open, lane, lanes_top + rh * lane as f32);
        }
        for (colour, rect) in open.into_values() {
            shapes.add(colour, rect);
        }
        shapes.write(&mut body);
        self.now_line(&mut body, now, marks_top, lanes_top + lanes_height);
        let axis_top = lanes_top + lanes_height + 4.0;
        self.axis(&mut body, axis_top);
        let legend_top = axis_top + 44.0;
        let height = self.legend(&mut body, legend_top, picture_width as f32 - 20.0) + 12.0;
        let description = self.description();
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{picture_width}" height="{height:.0}" viewBox="0 0 {picture_width} {height:.0}" role="img"><title>{}</title><desc>{}</desc><rect width="100%" height="100%" fill="{}"/>{body}</svg>
"#,
            escape(title),
            escape(&description),
            p.background
        )
    }

    fn x(&self, column: usize) -> f32 {
        LEFT + self.column_width() * column as f32
    }

    /// The letter of each event over its column, with the event in words as its tooltip.
    fn marks(&self, body: &mut String, top: f32) {
        let cw = self.column_width();
        let _ = write!(
            body,
            r#"<g font-family="{MONO}" font-size="10" fill="{}" text-anchor="middle">"#,
            self.p.accent
        );
        let y = number(top + MARK_ROW - 4.0);
        for (i, column) in self.columns.iter().enumerate() {
            let Some(mark) = column.mark else { continue };
            let title = format!(
                "<title>{mark} at step {}, line {}</title>",
                column.step, column.line
            );
            if cw >= 7.0 {
                let _ = write!(
                    body,
                    r#"<text x="{}" y="{y}">{title}{}</text>"#,
                    number(self.x(i) + cw / 2.0),
                    mark_letter(mark)
                );
            } else {
                // Too narrow for letters: a tick per event.
                let _ = write!(
                    body,
                    r#"<rect x="{}" y="{}" width="{}" height="6">{title}</rect>"#,
                    number(self.x(i)),
                    number(top + MARK_ROW - 9.0),
                    number(cw.max(1.0))
                );
            }
        }
        body.push_str("</g>");
    }

    /// "lane 0" beside the rows: every row when they are tall enough, else every eighth.
    fn lane_labels(&self, body: &mut String, top: f32) {
        let rh = self.row_height();
        let every = if rh >= 10.0 { 1 } else { 8 };
        for lane in (0..self.width).step_by(every) {
            let _ = write!(
                body,
                r#"<text x="{}" y="{:.1}" font-family="{MONO}" font-size="{}" fill="{}" text-anchor="end">lane {lane}</text>"#,
                LEFT - 6.0,
                top + rh * lane as f32 + rh.min(10.0),
                rh.clamp(8.0, 11.0),
                self.p.muted
            );
        }
    }

    /// One lane's row, a shape per stretch of columns in the same state. A full-height stretch
    /// (active, halted) that the lane above has too, over the same columns, grows that one's
    /// rectangle down instead of adding another: lanes that run together are one block.
    fn lane_row(&self, shapes: &mut Shapes, open: &mut Blocks, lane: u32, y: f32) {
        let cw = self.column_width();
        let rh = self.row_height();
        let cell = |c: &TimelineColumn| c.lanes.get(lane as usize).copied();
        let mut continued = Blocks::new();
        let mut start = 0;
        while start < self.columns.len() {
            let state = cell(&self.columns[start]);
            let mut end = start + 1;
            while end < self.columns.len() && cell(&self.columns[end]) == state {
                end += 1;
            }
            if let Some(state) = state {
                let (x, w) = (self.x(start), cw * (end - start) as f32);
                if let Some((colour, rect)) = shape(self.p, state, (x, y, w, rh), cw) {
                    if matches!(state, LaneCell::Active | LaneCell::Halted) {
                        let block = match open.remove(&(start, end)) {
                            Some((c, (bx, by, bw, bh))) if c == colour => {
                                (c, (bx, by, bw, bh + rh))
                            }
                            Some(other) => {
                                shapes.add(other.0, other.1);
                                (colour, rect)
                            }
                            None => (colour, rect),
                        };
                        continued.insert((start, end), block);
                    } else {
                        shapes.add(colour, rect);
                    }
                }
            }
            start = end;
        }
        for (_, (colour, rect)) in std::mem::replace(open, continued) {
            shapes.add(colour, rect);
        }
    }

    /// A line after the column of the instruction that ran last, when it is in the picture.
    fn now_line(&self, body: &mut String, now: u64, top: f32, bottom: f32) {
        let Some(i) = self.columns.iter().position(|c| c.step == now) else {
            return;
        };
        let x = self.x(i + 1);
        let _ = write!(
            body,
            r#"<line x1="{x:.2}" y1="{top}" x2="{x:.2}" y2="{bottom:.1}" stroke="{}" stroke-width="1.5"/><text x="{:.2}" y="{}" font-family="{SANS}" font-size="10" fill="{}">now</text>"#,
            self.p.text,
            x + 3.0,
            top - 3.0,
            self.p.text
        );
    }

    /// Ticks under the lanes: the step after the column's instruction and its line.
    fn axis(&self, body: &mut String, top: f32) {
        let count = self.columns.len();
        if count == 0 {
            return;
        }
        let ticks = TICKS.min(count);
        let mut last_x = f32::MIN;
        for t in 0..ticks {
            let i = if ticks == 1 {
                0
            } else {
                t * (count - 1) / (ticks - 1)
            };
            let column = &self.columns[i];
            let x = self.x(i) + self.column_width() / 2.0;
            if x - last_x < 70.0 {
                continue;
            }
            last_x = x;
            let _ = write!(
                body,
                r#"<line x1="{x:.2}" y1="{top:.1}" x2="{x:.2}" y2="{:.1}" stroke="{}"/><text x="{x:.2}" y="{:.1}" font-family="{MONO}" font-size="10" fill="{}" text-anchor="middle">step {}</text><text x="{x:.2}" y="{:.1}" font-family="{MONO}" font-size="10" fill="{}" text-anchor="middle">line {}</text>"#,
                top + 5.0,
                self.p.muted,
                top + 17.0,
                self.p.text,
                column.step,
                top + 30.0,
                self.p.muted,
                column.line
            );
        }
    }

    /// The states' shapes and names, then the marks' letters; returns the bottom.
    fn legend(&self, body: &mut String, top: f32, right: f32) -> f32 {
        let mut x = 20.0;
        let mut y = top;
        for state in LaneCell::ALL {
            let label = state.name();
            let width = 30.0 + 5.9 * label.len() as f32;
            if x + width > right {
                x = 20.0;
                y += 20.0;
            }
            let _ = write!(
                body,
                r#"<rect x="{x}" y="{:.1}" width="14" height="12" fill="none" stroke="{}" stroke-width="0.5"/>"#,
                y - 10.0,
                self.p.edge
            );
            if let Some((colour, (sx, sy, sw, sh))) =
                shape(self.p, state, (x, y - 10.0, 14.0, 12.0), 14.0)
            {
                let _ = write!(
                    body,
                    r#"<rect x="{sx:.2}" y="{sy:.2}" width="{sw:.2}" height="{sh:.2}" fill="{colour}"/>"#
                );
            }
            let _ = write!(
                body,
                r#"<text x="{}" y="{y:.1}" font-family="{SANS}" font-size="11" fill="{}">{label}</text>"#,
                x + 20.0,
                self.p.text
            );
            x += width;
        }
        y += 20.0;
        let _ = write!(
            body,
            r#"<text x="20" y="{y:.1}" font-family="{SANS}" font-size="11" fill="{}">Marks: {}</text>"#,
            self.p.muted,
            escape(MARK_KEY)
        );
        y
    }

    /// The picture in words, for a reader without it.
    fn description(&self) -> String {
        let (mut active, mut present) = (0usize, 0usize);
        for column in self.columns {
            active += column
                .lanes
                .iter()
                .filter(|c| **c == LaneCell::Active)
                .count();
            present += column
                .lanes
                .iter()
                .filter(|c| **c != LaneCell::Absent)
                .count();
        }
        let marks: Vec<String> = self
            .columns
            .iter()
            .filter_map(|c| {
                c.mark
                    .map(|m| format!("{m} at step {} (line {})", c.step, c.line))
            })
            .take(40)
            .collect();
        let first_mask = |c: &TimelineColumn| {
            c.lanes
                .iter()
                .enumerate()
                .filter(|(_, s)| **s == LaneCell::Active)
                .fold(0u64, |m, (lane, _)| m | 1 << lane)
        };
        let start = self
            .columns
            .first()
            .map(|c| {
                format!(
                    " It starts with lanes {} active.",
                    lanes_text(first_mask(c), self.width)
                )
            })
            .unwrap_or_default();
        format!(
            "{} instructions; {:.0} % of the present lanes active on average.{start} Events: {}.",
            self.columns.len(),
            if present == 0 {
                0.0
            } else {
                100.0 * active as f32 / present as f32
            },
            if marks.is_empty() {
                "none".to_string()
            } else {
                marks.join(", ")
            }
        )
    }
}

/// Full-height blocks still growing down, by the columns they span.
type Blocks = std::collections::BTreeMap<(usize, usize), (&'static str, Rect)>;

/// x, y, width, height.
type Rect = (f32, f32, f32, f32);

/// Rectangles gathered by colour: one `<path>` per colour keeps a 64-lane picture small.
#[derive(Default)]
struct Shapes {
    paths: Vec<(&'static str, String)>,
}

impl Shapes {
    fn add(&mut self, colour: &'static str, (x, y, w, h): Rect) {
        let index = match self.paths.iter().position(|(c, _)| *c == colour) {
            Some(index) => index,
            None => {
                self.paths.push((colour, String::new()));
                self.paths.len() - 1
            }
        };
        let d = &mut self.paths[index].1;
        let _ = write!(
            d,
            "M{}h{}v{}h-{}z",
            pair(x, y),
            number(w),
            number(h),
            number(w)
        );
    }

    fn write(&self, body: &mut String) {
        for (colour, d) in &self.paths {
            let _ = write!(body, r#"<path fill="{colour}" d="{d}"/>"#);
        }
    }
}

/// A coordinate with at most one decimal, and none when it is whole.
fn number(value: f32) -> String {
    let tenths = (value * 10.0).round() as i64;
    if tenths % 10 == 0 {
        (tenths / 10).to_string()
    } else {
        format!("{:.1}", tenths as f32 / 10.0)
    }
}

fn pair(x: f32, y: f32) -> String {
    format!("{} {}", number(x), number(y))
}

/// The colour and rectangle of a stretch of cells in `state` over `(x, y, w, h)`, `column` wide
/// each: full (active), upper half (waiting), bottom bar (broke out), middle bar (continued),
/// full dark (halted), nothing (absent). The page's timeline draws the same shapes.
fn shape(
    p: &Palette,
    state: LaneCell,
    (x, y, w, h): (f32, f32, f32, f32),
    column: f32,
) -> Option<(&'static str, Rect)> {
    Some(match state {
        LaneCell::Active => (p.accent, (x, y, w, h)),
        LaneCell::Waiting => (p.muted, (x, y, w, (h / 2.0).max(1.0))),
        LaneCell::BrokeOut => (p.warning, (x, y + h * 0.6, w, (h * 0.4).max(1.0))),
        LaneCell::Continued => (
            p.warning,
            (
                x + column * 0.25,
                y + h * 0.3,
                (w - column * 0.5).max(1.0),
                (h * 0.4).max(1.0),
            ),
        ),
        LaneCell::Halted => (p.text, (x, y, w, h)),
        LaneCell::Absent => return None,
    })
}
