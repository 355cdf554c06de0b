//! The data-movement picture of a cross-lane step: the lanes before (top row, what each
//! offered) and after (bottom row, what each received), joined by arrows from each result's
//! source lane, dashed when that lane was inactive; a combining operation (a reduction, a vote,
//! a prefix sum) gathers its lanes into one node first. A lane-by-lane list is its text
//! alternative.

use leptos::prelude::*;

use super::use_ctx;
use wave_session::{DataMovement, MoveSource};

/// Horizontal room per lane, in the picture's units.
const PITCH: f64 = 36.0;
const TOP: f64 = 22.0;
const BOTTOM: f64 = 84.0;
const MIDDLE: f64 = 53.0;
const DOT: f64 = 8.0;
/// Above this many lanes the numbers under the dots would not fit: only the list has them.
const MAX_LABELLED_LANES: usize = 16;

fn x(lane: u32) -> f64 {
    PITCH * f64::from(lane) + PITCH / 2.0
}

/// A line of the picture: from, to, and its class.
struct Segment {
    from: (f64, f64),
    to: (f64, f64),
    class: &'static str,
}

fn segments(moved: &DataMovement) -> Vec<Segment> {
    let mut out = Vec::new();
    let centre = PITCH * moved.lanes.len() as f64 / 2.0;
    let contributing: Vec<u32> = moved
        .lanes
        .iter()
        .find_map(|m| match &m.source {
            MoveSource::Lanes(from) if moved.combiner != Some("prefix sum") => Some(from.clone()),
            _ => None,
        })
        .unwrap_or_default();
    for lane in &contributing {
        out.push(Segment {
            from: (x(*lane), TOP + DOT),
            to: (centre, MIDDLE - 9.0),
            class: "flow",
        });
    }
    for m in &moved.lanes {
        let to = (x(m.lane), BOTTOM - DOT - 3.0);
        match &m.source {
            MoveSource::Idle => {}
            MoveSource::Lane { lane, active } => out.push(Segment {
                from: (x(*lane), TOP + DOT),
                to,
                class: if *active {
                    "flow"
                } else {
                    "flow from-inactive"
                },
            }),
            MoveSource::Missing { .. } => out.push(Segment {
                from: (x(m.lane), MIDDLE + 6.0),
                to,
                class: "flow missing",
            }),
            MoveSource::Lanes(_) if moved.combiner == Some("prefix sum") => out.push(Segment {
                from: (x(m.lane) - PITCH / 2.0, MIDDLE),
                to,
                class: "flow",
            }),
            MoveSource::Lanes(_) => out.push(Segment {
                from: (centre, MIDDLE + 9.0),
                to,
                class: "flow",
            }),
        }
    }
    if moved.combiner == Some("prefix sum") {
        // The running sum: each active lane feeds it, each lane after takes it.
        let active: Vec<u32> = moved
            .lanes
            .iter()
            .filter(|m| m.active)
            .map(|m| m.lane)
            .collect();
        for lane in &active {
            out.push(Segment {
                from: (x(*lane), TOP + DOT),
                to: (x(*lane) + PITCH / 2.0, MIDDLE),
                class: "flow",
            });
        }
        if let (Some(first), Some(last)) = (active.first(), active.last()) {
            out.push(Segment {
                from: (x(*first) - PITCH / 2.0, MIDDLE),
                to: (x(*last) + PITCH / 2.0, MIDDLE),
                class: "flow carry",
            });
        }
    }
    out
}

/// A summary for the picture's accessible name.
fn summary(moved: &DataMovement) -> String {
    let written = moved.lanes.iter().filter(|m| m.active).count();
    let from_inactive = moved
        .lanes
        .iter()
        .filter(|m| matches!(m.source, MoveSource::Lane { active: false, .. }))
        .count();
    let missing = moved
        .lanes
        .iter()
        .filter(|m| matches!(m.source, MoveSource::Missing { .. }))
        .count();
    let mut text = format!(
        "Data movement of {} at line {}: {written} lanes written",
        moved.code, moved.line
    );
    if let Some(combiner) = moved.combiner {
        text.push_str(&format!(
            ", each combined from the active lanes ({combiner})"
        ));
    }
    if from_inactive > 0 {
        text.push_str(&format!(", {from_inactive} read from inactive lanes"));
    }
    if missing > 0 {
        text.push_str(&format!(", {missing} asked for lanes that do not exist"));
    }
    text
}

/// The picture as SVG markup (numbers and fixed words only, so nothing needs escaping).
fn svg(moved: &DataMovement) -> String {
    use std::fmt::Write;
    let count = moved.lanes.len();
    let width = PITCH * count as f64;
    let labelled = count <= MAX_LABELLED_LANES;
    let mut out = format!(
        r#"<svg class="movement" aria-hidden="true" style="max-width: min(100%, {:.0}px)" viewBox="0 0 {width:.0} {:.0}"><defs><marker id="movement-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L8,4 L0,8 z" class="arrow-head"/></marker></defs>"#,
        width * 1.1,
        BOTTOM + DOT + 4.0
    );
    for s in segments(moved) {
        let marker = if s.class == "flow carry" {
            ""
        } else {
            r#" marker-end="url(#movement-arrow)""#
        };
        let _ = write!(
            out,
            r#"<line class="{}" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"{marker}/>"#,
            s.class, s.from.0, s.from.1, s.to.0, s.to.1
        );
    }
    if let Some(combiner) = moved.combiner.filter(|c| *c != "prefix sum") {
        let centre = width / 2.0;
        let _ = write!(
            out,
            r#"<rect class="combiner" x="{:.1}" y="{:.1}" width="60" height="18" rx="4"/><text class="combiner-label" x="{centre:.1}" y="{:.1}" text-anchor="middle">{combiner}</text>"#,
            centre - 30.0,
            MIDDLE - 9.0,
            MIDDLE + 4.0
        );
    }
    for m in &moved.lanes {
        let cx = x(m.lane);
        let state = if m.active { "dot on" } else { "dot off" };
        let _ = write!(
            out,
            r#"<text class="lane-number" x="{cx:.1}" y="9" text-anchor="middle">{}</text><circle class="{state}" cx="{cx:.1}" cy="{TOP:.1}" r="{DOT:.1}"/><circle class="{state}" cx="{cx:.1}" cy="{BOTTOM:.1}" r="{DOT:.1}"/>"#,
            m.lane
        );
        if labelled {
            let _ = write!(
                out,
                r#"<text class="value" x="{cx:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                TOP + 3.5,
                m.input as i32
            );
            if let Some(result) = m.result {
                let _ = write!(
                    out,
                    r#"<text class="value" x="{cx:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                    BOTTOM + 3.5,
                    result as i32
                );
            }
        }
    }
    out.push_str("</svg>");
    out
}

#[component]
pub fn DataMovementView() -> impl IntoView {
    let ctx = use_ctx();
    let moved = Memo::new(move |previous| ctx.held_while_running(previous, |s| s.data_movement()));
    let picture = move || moved.with(|m| m.as_ref().map(svg));
    view! {
        <Show when=move || moved.with(Option::is_some)>
            <section class="view movement-view" aria-labelledby=ctx.labelled_by("movement-heading")>
                <h3 id=ctx.id("movement-heading") class="view-title">
                    "Data movement "
                    <span class="view-note">
                        {move || moved.with(|m| m.as_ref().map(|m| format!("{} · before above, after below", m.code)).unwrap_or_default())}
                    </span>
                </h3>
                // Drawn as one piece of markup: a picture of up to 64 lanes, redrawn whole on
                // each cross-lane step, needs no per-node updates.
                <div
                    class="movement-picture"
                    role="img"
                    aria-label=move || moved.with(|m| m.as_ref().map(summary).unwrap_or_default())
                    inner_html=picture
                ></div>
                <details class="movement-list">
                    <summary>"Lane by lane"</summary>
                    <ul aria-label="Data movement, lane by lane">
                        {move || {
                            moved
                                .with(|m| m.as_ref().map(|m| m.lines()).unwrap_or_default())
                                .into_iter()
                                .map(|line| view! { <li>{line}</li> })
                                .collect_view()
                        }}
                    </ul>
                </details>
            </section>
        </Show>
    }
}
