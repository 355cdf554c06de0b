//! The divergence stack of the selected wave, innermost frame first. A popped frame leaves in
//! place: its element stays where it was for a short exit animation, hidden from assistive
//! technology (it is no longer a frame), then goes; a pushed frame slides in.
//!
//! Only at teaching speed: a change that comes sooner than an animation lasts after the one
//! before (F10 held or pressed quickly, fast autoplay) shows the new stack at once and ends any
//! animation still playing. Overlapping animations would make such steps miss their frame:
//! every animation frame would repaint the stack while the next step is being drawn.

use std::time::Duration;

use leptos::prelude::*;

use super::held_height::HeldHeight;
use super::lane_strip::push_strip;
use super::{now_ms, use_ctx, HeldNote};
use wave_session::markup::escape_into;
use wave_session::FrameView;

/// How long the CSS `frame-in` and `frame-leave` animations last, in ms (keep in step with
/// style/main.css). A stack change animates only when the stack has been still this long.
const ANIMATION_MS: f64 = 200.0;
/// How long a popped frame stays for its exit animation: a little longer than it, so the
/// element is never removed mid-animation.
const LEAVE_MS: u64 = 240;

/// A live frame's identity: where it sits (counted from the bottom of the stack) and which
/// construct it is. A frame keeps its element while its masks, iteration or side (if → else)
/// change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct FrameKey {
    position: usize,
    line: u32,
    reconverge: u32,
}

/// One element of the list.
#[derive(Clone, Debug, PartialEq)]
enum Item {
    Live(FrameKey),
    /// A popped frame animating out where it was (`id` is unique, so the same construct can be
    /// pushed again while its last frame is still leaving).
    Leaving {
        id: u64,
        position: usize,
        frame: FrameView,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum ItemKey {
    Live(FrameKey),
    Leaving(u64),
}

impl Item {
    fn key(&self) -> ItemKey {
        match self {
            Item::Live(key) => ItemKey::Live(*key),
            Item::Leaving { id, .. } => ItemKey::Leaving(*id),
        }
    }

    fn position(&self) -> usize {
        match self {
            Item::Live(key) => key.position,
            Item::Leaving { position, .. } => *position,
        }
    }
}

/// The frames (innermost first, as the session gives them) with their keys.
fn keyed(frames: &[FrameView]) -> Vec<(FrameKey, FrameView)> {
    let depth = frames.len();
    frames
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let key = FrameKey {
                position: depth - i,
                line: f.line,
                reconverge: f.reconverge_line,
            };
            (key, f.clone())
        })
        .collect()
}

/// Whether a stack change at `now` (ms) is slow enough to animate, given when the page last
/// changed before it (the previous stack change or the command before the one shown, whichever
/// came later; `None` if nothing did): only once an animation started then would have finished.
fn slow_enough(previous_activity: Option<f64>, now: f64) -> bool {
    previous_activity.is_none_or(|at| now - at >= ANIMATION_MS)
}

/// What the list shows after the stack went from `before` to `now`: every live frame and, when
/// `animate`, every frame that disappeared as a leaving item at the place it had. Items that
/// were still leaving from an earlier change are gone: a new change ends their animation.
/// Innermost first; a leaving item sits above a live frame at the same depth. New leaving
/// items take ids from `next_id`.
fn next_items(
    before: &[(FrameKey, FrameView)],
    now: &[(FrameKey, FrameView)],
    animate: bool,
    next_id: &mut u64,
) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    if animate {
        for (key, frame) in before {
            if !now.iter().any(|(k, _)| k == key) {
                items.push(Item::Leaving {
                    id: *next_id,
                    position: key.position,
                    frame: frame.clone(),
                });
                *next_id += 1;
            }
        }
    }
    items.extend(now.iter().map(|(key, _)| Item::Live(*key)));
    // Stable: leaving items keep their order among themselves and come before live ones.
    items.sort_by_key(|item| std::cmp::Reverse(item.position()));
    items
}

/// The live frames a change animates in: those in `now` that were not in `before` (none when
/// the change does not animate).
fn entering(
    before: &[(FrameKey, FrameView)],
    now: &[(FrameKey, FrameView)],
    animate: bool,
) -> Vec<FrameKey> {
    if !animate {
        return Vec::new();
    }
    now.iter()
        .map(|(key, _)| *key)
        .filter(|key| !before.iter().any(|(k, _)| k == key))
        .collect()
}

fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// A frame's content (kind, where, reconvergence line, one row per mask) as markup, set as its
/// element's inner HTML. Written out rather than built from reactive views: a frame's content
/// changes as a whole (a step that changes it changes its masks), and a string per frame costs
/// less code and reactive work than a view per frame and per mask row, which pushing and
/// popping frames would build and drop. Every text is escaped; the strip is decoration.
fn frame_markup(frame: &FrameView) -> String {
    let mut out = String::with_capacity(256 + frame.masks.len() * 320);
    out.push_str("<span class=\"frame-kind\">");
    escape_into(&mut out, frame.kind);
    out.push_str("</span><span class=\"frame-where\"> line ");
    out.push_str(&frame.line.to_string());
    if let Some(done) = frame.iterations {
        out.push_str(", iteration ");
        out.push_str(&(done + 1).to_string());
    }
    out.push_str("</span><span class=\"frame-reconverge\"> · reconverges at line ");
    out.push_str(&frame.reconverge_line.to_string());
    out.push_str("</span><div class=\"masks\">");
    for mask in &frame.masks {
        out.push_str("<div class=\"mask mask-");
        escape_into(&mut out, mask.name);
        out.push_str("\"><span class=\"mask-name\">");
        escape_into(&mut out, mask.name);
        out.push_str("</span>");
        push_strip(&mut out, &mask.lanes);
        out.push_str("<span class=\"mask-text\">");
        escape_into(&mut out, &mask.text);
        out.push_str("</span></div>");
    }
    out.push_str("</div>");
    out
}

/// One element of the list, live or leaving: its `role`, whether it is hidden from assistive
/// technology, its class and its content (see [`frame_markup`]).
fn frame_element(
    item: Item,
    frames: Memo<Vec<FrameView>>,
    entering: RwSignal<Vec<FrameKey>>,
) -> impl IntoView {
    let (role, hidden, class, markup): (_, _, Signal<String>, Signal<String>) = match item {
        Item::Live(key) => {
            // A memo: a step that leaves this frame as it was (most steps, for the outer
            // frames) does not touch its element.
            let shown = Memo::new(move |_| {
                frames.with(|all| {
                    all.len()
                        .checked_sub(key.position)
                        .and_then(|i| all.get(i))
                        .map(|f| (f.kind, frame_markup(f)))
                })
            });
            let kind = move || shown.with(|f| f.as_ref().map_or("", |(kind, _)| *kind));
            let class = move || {
                let enters = entering.with(|keys| keys.contains(&key));
                format!(
                    "frame frame-{}{}",
                    kind(),
                    if enters { " entering" } else { "" }
                )
            };
            let markup =
                move || shown.with(|f| f.as_ref().map(|(_, m)| m.clone()).unwrap_or_default());
            (
                "listitem",
                None,
                Signal::derive(class),
                Signal::derive(markup),
            )
        }
        // Gone from the stack: not a list item for assistive technology.
        Item::Leaving { frame, .. } => (
            "none",
            Some("true"),
            Signal::stored(format!("frame frame-{} leaving", frame.kind)),
            Signal::stored(frame_markup(&frame)),
        ),
    };
    view! { <li role=role aria-hidden=hidden class=move || class.get() inner_html=move || markup.get()></li> }
}

#[component]
pub fn Stack() -> impl IntoView {
    let ctx = use_ctx();
    let frames_memo = Memo::new(move |previous| ctx.held_while_running(previous, |s| s.stack()));
    let frames = move || frames_memo.get();
    let items = RwSignal::new(Vec::<Item>::new());
    // The live frames whose element plays the enter animation (those the last change pushed,
    // when it animated): a frame leaves this list, and so stops animating, at the next change.
    let entering_keys = RwSignal::new(Vec::<FrameKey>::new());
    let next_id = StoredValue::new(0u64);
    let last_change = StoredValue::new(None::<f64>);
    // Follows the stack: frames that disappear become leaving items for LEAVE_MS, frames that
    // appear slide in, when the change animates.
    Effect::new(move |before: Option<Vec<(FrameKey, FrameView)>>| {
        let now = frames_memo.with(|all| keyed(all));
        let at = now_ms();
        // Steps that leave the stack as it was count too: F10 held through straight-line code
        // and then into an `if` is still stepping fast.
        let previous = last_change
            .get_value()
            .into_iter()
            .chain(ctx.previous_command_at())
            .reduce(f64::max);
        last_change.set_value(Some(at));
        let animate = before.is_some() && slow_enough(previous, at) && !reduced_motion();
        let before = before.as_deref().unwrap_or(&[]);
        let mut id = next_id.get_value();
        let first_new = id;
        let next = next_items(before, &now, animate, &mut id);
        next_id.set_value(id);
        // Before the items, so that a new frame's element has its class when it is created.
        let enter = entering(before, &now, animate);
        if entering_keys.with_untracked(|shown| *shown != enter) {
            entering_keys.set(enter);
        }
        if items.with_untracked(|shown| *shown != next) {
            items.set(next);
        }
        for leaving in first_new..id {
            set_timeout(
                move || {
                    let key = ItemKey::Leaving(leaving);
                    // A later change may have removed it already: then nothing to redraw.
                    let present = items
                        .try_with_untracked(|list| list.iter().any(|item| item.key() == key))
                        .unwrap_or(false);
                    if present {
                        items.update(|list| list.retain(|item| item.key() != key));
                    }
                },
                Duration::from_millis(LEAVE_MS),
            );
        }
        now
    });
    view! {
        <section class="view stack-view" aria-labelledby=ctx.labelled_by("stack-heading") aria-busy=move || ctx.busy()>
            <h3 id=ctx.id("stack-heading") class="view-title">
                "Divergence stack"
                <span class="view-note">{move || format!("depth {}", frames().len())}</span>
                <HeldNote />
            </h3>
            // Keeps the height of the deepest stack shown since the machine started over, so that
            // pops do not move the registers below (see `session::shown_wave_run`).
            <HeldHeight class="stack-room">
                <ol class="stack" role="list" aria-label="Divergence stack">
                    <For each=move || items.get() key=Item::key let:item>
                        {frame_element(item, frames_memo, entering_keys)}
                    </For>
                </ol>
                <Show when=move || frames().is_empty() && ctx.with(|s| s.wave_width() > 0)>
                    <p class="empty-note">"No frame: every present lane runs together."</p>
                </Show>
            </HeldHeight>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wave_session::MaskRow;

    fn frame(kind: &'static str, line: u32, reconverge: u32) -> FrameView {
        FrameView {
            kind,
            line,
            reconverge_line: reconverge,
            masks: vec![MaskRow {
                name: "entry",
                lanes: vec![true, false],
                text: "0".to_string(),
            }],
            iterations: None,
            listitem: String::new(),
        }
    }

    fn positions(items: &[Item]) -> Vec<(usize, bool)> {
        items
            .iter()
            .map(|i| (i.position(), matches!(i, Item::Leaving { .. })))
            .collect()
    }

    #[test]
    fn a_frame_is_written_out_with_every_mask_and_its_text_escaped() {
        let mut looping = frame("loop", 3, 9);
        looping.iterations = Some(1);
        looping.masks.push(MaskRow {
            name: "break",
            lanes: vec![false, true],
            text: "1 <b>&".to_string(),
        });
        let markup = frame_markup(&looping);
        assert!(
            markup.starts_with(
                "<span class=\"frame-kind\">loop</span>\
                 <span class=\"frame-where\"> line 3, iteration 2</span>\
                 <span class=\"frame-reconverge\"> · reconverges at line 9</span>\
                 <div class=\"masks\"><div class=\"mask mask-entry\">"
            ),
            "{markup}"
        );
        // One row per mask, in order, each a name, a strip and the lanes as text.
        let entry = markup.find("mask-entry").unwrap_or(usize::MAX);
        let broken = markup.find("mask-break").unwrap_or(0);
        assert!(entry < broken, "{markup}");
        assert_eq!(markup.matches("class=\"strip\"").count(), 2, "{markup}");
        assert_eq!(markup.matches("--lanes: 2;").count(), 2, "{markup}");
        assert!(
            markup.ends_with("<span class=\"mask-text\">1 &lt;b&gt;&amp;</span></div></div>"),
            "{markup}"
        );
        // An if frame has no iteration.
        assert!(frame_markup(&frame("if", 5, 7)).contains("> line 5</span>"));
    }

    #[test]
    fn a_popped_frame_stays_in_its_place_while_it_leaves() {
        let outer = frame("loop", 3, 9);
        let inner = frame("if", 5, 7);
        let before = keyed(&[inner.clone(), outer.clone()]);
        let now = keyed(std::slice::from_ref(&outer));
        let shown: Vec<Item> = before.iter().map(|(k, _)| Item::Live(*k)).collect();
        let mut id = 10;
        let items = next_items(&before, &now, true, &mut id);
        // The if frame (depth 2) leaves above the loop frame, which keeps its key.
        assert_eq!(positions(&items), vec![(2, true), (1, false)]);
        assert_eq!(
            items[0],
            Item::Leaving {
                id: 10,
                position: 2,
                frame: inner.clone()
            }
        );
        assert_eq!(items[1], shown[1]);
        assert_eq!(id, 11);
        // Without animation (stepping fast, reduced motion) nothing leaves.
        let mut id = 0;
        assert_eq!(
            positions(&next_items(&before, &now, false, &mut id)),
            vec![(1, false)]
        );
        assert_eq!(id, 0);
    }

    #[test]
    fn a_new_change_ends_the_animations_of_the_last_one() {
        let outer = frame("loop", 3, 9);
        let inner = frame("if", 5, 7);
        let with_inner = keyed(&[inner.clone(), outer.clone()]);
        let only_outer = keyed(std::slice::from_ref(&outer));
        let mut id = 0;
        let popped = next_items(&with_inner, &only_outer, true, &mut id);
        assert_eq!(positions(&popped), vec![(2, true), (1, false)]);
        // Next iteration, the same if is entered again: the frame still leaving goes at once,
        // and the new one is a live frame with its own key, sliding in.
        let again = next_items(&only_outer, &with_inner, true, &mut id);
        assert_eq!(positions(&again), vec![(2, false), (1, false)]);
        assert_eq!(
            again,
            vec![Item::Live(with_inner[0].0), Item::Live(with_inner[1].0)]
        );
        assert_eq!(
            entering(&only_outer, &with_inner, true),
            vec![with_inner[0].0]
        );
        // The same change coming fast: the same live frames, nothing slides in or leaves.
        assert_eq!(next_items(&only_outer, &with_inner, false, &mut id), again);
        assert!(entering(&only_outer, &with_inner, false).is_empty());
        assert_eq!(id, 1, "one leaving item was made, for the animated pop");
    }

    #[test]
    fn only_a_change_after_a_still_page_animates() {
        assert!(slow_enough(None, 5_000.0), "the page's first change");
        assert!(!slow_enough(Some(1_000.0), 1_000.0 + ANIMATION_MS - 1.0));
        assert!(
            !slow_enough(Some(1_000.0), 1_040.0),
            "F10 held (about 25 keys a second)"
        );
        assert!(slow_enough(Some(1_000.0), 1_000.0 + ANIMATION_MS));
        assert!(
            slow_enough(Some(1_000.0), 1_250.0),
            "autoplay at its default 4 steps a second"
        );
    }

    #[test]
    fn an_if_turning_to_its_else_side_is_the_same_frame() {
        let before = keyed(&[frame("if", 5, 9)]);
        let now = keyed(&[frame("else", 5, 9)]);
        let shown: Vec<Item> = before.iter().map(|(k, _)| Item::Live(*k)).collect();
        let mut id = 0;
        assert_eq!(next_items(&before, &now, true, &mut id), shown);
        assert!(
            entering(&before, &now, true).is_empty(),
            "it does not slide in again"
        );
    }

    #[test]
    fn several_frames_popped_at_once_leave_in_their_order() {
        let frames = [frame("if", 7, 8), frame("if", 5, 10), frame("loop", 3, 12)];
        let before = keyed(&frames);
        let now = keyed(&frames[2..]);
        let mut id = 0;
        let items = next_items(&before, &now, true, &mut id);
        assert_eq!(positions(&items), vec![(3, true), (2, true), (1, false)]);
    }
}
