//! The lanes of the selected wave: active or not (colour and a glyph: filled dot or hollow ring),
//! and why not. The look is drawn on a canvas under the lane buttons (`lane_picture`); the
//! buttons carry the state as data attributes no stylesheet rule reads outside forced colours.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::lane_picture::{LanePicture, LaneState};
use super::{use_ctx, HeldNote};
use wave_session::LaneView;

/// A lane's class: the selected lane alone has one more (its outline). A step never changes it.
fn lane_class(selected: bool) -> &'static str {
    if selected {
        "lane selected"
    } else {
        "lane"
    }
}

/// A lane's `data-state`.
fn lane_state(active: bool) -> &'static str {
    if active {
        "active"
    } else {
        "inactive"
    }
}

/// Makes the strings a step or a selection writes into lane attributes JavaScript strings once,
/// so a step that flips 64 lanes does not decode 64 copies of them (wasm-bindgen's
/// `enable-interning`).
pub fn intern_lane_classes() {
    for text in [
        "lane",
        "lane selected",
        "active",
        "inactive",
        "",
        "0",
        "-1",
        "class",
        "tabindex",
        "title",
        "aria-label",
        "data-state",
        "data-changed",
    ] {
        wasm_bindgen::intern(text);
    }
}

/// A lane's part in a `?mask` question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LaneAnswer {
    #[default]
    None,
    /// The question is open: the learner says the lane will be active (`true`) or not.
    Said(bool),
    /// Revealed: what the learner said, and whether that was right.
    Judged { said: bool, right: bool },
}

impl LaneAnswer {
    /// The `data-answer` attribute the stylesheet marks the lane by. "off" is written in the
    /// lane's own text colour, which the stylesheet no longer knows by the lane's state: an
    /// active lane's "off" says so ("off active").
    fn data(self, active: bool) -> Option<&'static str> {
        match self {
            LaneAnswer::None => None,
            LaneAnswer::Said(true) => Some("on"),
            LaneAnswer::Said(false) if active => Some("off active"),
            LaneAnswer::Said(false) => Some("off"),
            LaneAnswer::Judged { right: true, .. } => Some("right"),
            LaneAnswer::Judged { right: false, .. } => Some("wrong"),
        }
    }

    /// `aria-pressed` while the lane is a toggle of the answer.
    fn pressed(self) -> Option<&'static str> {
        match self {
            LaneAnswer::Said(said) => Some(if said { "true" } else { "false" }),
            _ => None,
        }
    }

    /// What the accessible name adds.
    fn label_suffix(self) -> &'static str {
        match self {
            LaneAnswer::None => "",
            LaneAnswer::Said(true) => "; your answer: active",
            LaneAnswer::Said(false) => "; your answer: inactive",
            LaneAnswer::Judged {
                said: true,
                right: true,
            } => "; you said active: right",
            LaneAnswer::Judged {
                said: false,
                right: true,
            } => "; you said inactive: right",
            LaneAnswer::Judged {
                said: true,
                right: false,
            } => "; you said active: wrong",
            LaneAnswer::Judged {
                said: false,
                right: false,
            } => "; you said inactive: wrong",
        }
    }
}

/// The attributes of a lane's button that a step, a selection or the pointer can change, as
/// the page last got them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaneAttributes {
    /// `data-state`, "active" or "inactive" (none before the lane is first shown): for tests and
    /// the forced-colours stylesheet, which alone reads it.
    pub state: Option<&'static str>,
    /// `data-changed`: the last step turned the lane on or off.
    pub changed: bool,
    /// The selected lane has the class `selected` and is the group's one tab stop (`tabindex`
    /// 0, the others -1).
    pub selected: bool,
    /// The accessible name: "Lane N: active", or "inactive" and why.
    pub label: String,
    /// Only the lane under the mouse pointer has a title: the reason as a tooltip.
    pub title: Option<String>,
    pub answer: LaneAnswer,
    /// `data-answer` as written.
    pub answer_data: Option<&'static str>,
}

/// Which of a lane's attributes [`LaneAttributes::update`] changed, so only those are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneChanges {
    pub state: bool,
    pub changed: bool,
    pub selected: bool,
    pub label: bool,
    pub title: bool,
    pub answer: bool,
}

impl LaneChanges {
    pub fn any(self) -> bool {
        self.state || self.changed || self.selected || self.label || self.title || self.answer
    }
}

impl LaneAttributes {
    /// Brings the attributes up to date with `lane` (selected or not, under the pointer or
    /// not) and says which changed. Nothing is allocated for what stays the same: a step that
    /// leaves most lanes as they were costs a comparison per lane.
    pub fn update(
        &mut self,
        lane: &LaneView,
        selected: bool,
        hovered: bool,
        answer: LaneAnswer,
    ) -> LaneChanges {
        let mut changes = LaneChanges::default();
        let answer_data = answer.data(lane.active);
        if self.answer != answer || self.answer_data != answer_data {
            self.answer = answer;
            self.answer_data = answer_data;
            changes.answer = true;
        }
        let state = Some(lane_state(lane.active));
        if self.state != state {
            self.state = state;
            changes.state = true;
        }
        if self.changed != lane.changed {
            self.changed = lane.changed;
            changes.changed = true;
        }
        if self.selected != selected {
            self.selected = selected;
            changes.selected = true;
        }
        let suffix = answer.label_suffix();
        let label_is_current = self.label.len() == lane.aria_label.len() + suffix.len()
            && self.label.starts_with(&lane.aria_label)
            && self.label.ends_with(suffix);
        if !label_is_current {
            self.label.clone_from(&lane.aria_label);
            self.label.push_str(suffix);
            changes.label = true;
        }
        let title = hovered.then(|| lane.reason.as_deref().unwrap_or("active"));
        if self.title.as_deref() != title {
            self.title = title.map(str::to_string);
            changes.title = true;
        }
        changes
    }
}

/// A lane's button in the page and the attributes it was last given.
struct ShownLane {
    element: web_sys::Element,
    attributes: LaneAttributes,
}

/// Makes a lane's button: what never changes. The state is written by [`show_lanes`].
///
/// Its dot, number and change bar are elements laid out by the stylesheet but not painted
/// (the canvas under the buttons draws them, from where they are): they give the button its
/// size in every layout (presenter mode, a phone), tell the canvas where to draw, and show the
/// lane themselves in forced colours, where the canvas is hidden.
fn lane_button(document: &web_sys::Document, lane: u32) -> Option<web_sys::Element> {
    let button = document.create_element("button").ok()?;
    button.set_attribute("type", "button").ok()?;
    button.set_attribute("class", lane_class(false)).ok()?;
    button.set_attribute("data-lane", &lane.to_string()).ok()?;
    // Not a tab stop until it is the selected lane (the group has one).
    button.set_attribute("tabindex", "-1").ok()?;
    let part = |class: &str| -> Option<web_sys::Element> {
        let span = document.create_element("span").ok()?;
        span.set_class_name(class);
        span.set_attribute("aria-hidden", "true").ok()?;
        button.append_child(&span).ok()?;
        Some(span)
    };
    part("lane-glyph")?;
    // The accessible name is the `aria-label`; the number is what a sighted user reads.
    part("lane-number")?.set_text_content(Some(&lane.to_string()));
    part("lane-bar")?;
    Some(button)
}

/// Brings the lane buttons in `group` up to date: adds or removes buttons when the wave's width
/// changed, then writes, lane by lane, only the attributes that changed. Says whether the number
/// of buttons changed (the picture must then find the lanes again).
fn show_lanes(
    group: &web_sys::Element,
    shown: &mut Vec<ShownLane>,
    lanes: &[LaneView],
    selected: u32,
    hovered: Option<u32>,
    answer: impl Fn(u32) -> LaneAnswer,
) -> bool {
    let count = shown.len();
    while shown.len() > lanes.len() {
        if let Some(gone) = shown.pop() {
            gone.element.remove();
        }
    }
    if shown.len() < lanes.len() {
        let Some(document) = group.owner_document() else {
            return shown.len() != count;
        };
        for lane in shown.len() as u32..lanes.len() as u32 {
            let Some(element) = lane_button(&document, lane) else {
                return shown.len() != count;
            };
            if group.append_child(&element).is_err() {
                return shown.len() != count;
            }
            shown.push(ShownLane {
                element,
                attributes: LaneAttributes::default(),
            });
        }
    }
    for (lane, shown) in lanes.iter().zip(shown.iter_mut()) {
        let changes = shown.attributes.update(
            lane,
            selected == lane.lane,
            hovered == Some(lane.lane),
            answer(lane.lane),
        );
        if !changes.any() {
            continue;
        }
        let (element, attributes) = (&shown.element, &shown.attributes);
        if changes.state {
            if let Some(state) = attributes.state {
                let _ = element.set_attribute("data-state", state);
            }
        }
        if changes.changed {
            let _ = if attributes.changed {
                element.set_attribute("data-changed", "")
            } else {
                element.remove_attribute("data-changed")
            };
        }
        if changes.selected {
            let _ = element.set_attribute("class", lane_class(attributes.selected));
            let _ = element.set_attribute("tabindex", if attributes.selected { "0" } else { "-1" });
        }
        if changes.label {
            let _ = element.set_attribute("aria-label", &attributes.label);
        }
        if changes.title {
            let _ = match &attributes.title {
                Some(title) => element.set_attribute("title", title),
                None => element.remove_attribute("title"),
            };
        }
        if changes.answer {
            let _ = match attributes.answer_data {
                Some(data) => element.set_attribute("data-answer", data),
                None => element.remove_attribute("data-answer"),
            };
            let _ = match attributes.answer.pressed() {
                Some(pressed) => element.set_attribute("aria-pressed", pressed),
                None => element.remove_attribute("aria-pressed"),
            };
        }
    }
    shown.len() != count
}

/// The lane number of the `[data-lane]` element an event happened in.
fn event_lane(event: &web_sys::Event) -> Option<u32> {
    event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|t| t.closest("[data-lane]").ok().flatten())
        .and_then(|cell| cell.get_attribute("data-lane"))
        .and_then(|lane| lane.parse::<u32>().ok())
}

#[component]
pub fn Lanes() -> impl IntoView {
    let ctx = use_ctx();
    let lanes_memo = Memo::new(move |previous| ctx.held_while_running(previous, |s| s.lanes()));
    let selected = Memo::new(move |_| ctx.with(|s| s.selection().lane));
    let active_count = move || {
        lanes_memo.with(|all| {
            let active = all.iter().filter(|l| l.active).count();
            format!("{active} of {} active", all.len())
        })
    };
    // The lane under the mouse pointer: only it carries a `title` (the reason as a tooltip).
    // A title on every lane would be a third attribute to rewrite on each of the 64 lanes a
    // divergent step flips, for a tooltip only the hovered lane can show; the reason is in
    // every lane's accessible name anyway.
    let hovered = RwSignal::new(None::<u32>);
    let on_pointerover = move |event: web_sys::PointerEvent| {
        let lane = event_lane(&event);
        if hovered.get_untracked() != lane {
            hovered.set(lane);
        }
    };
    let group: NodeRef<leptos::html::Div> = NodeRef::new();
    // The buttons as the page has them. One effect keeps all of them up to date instead of a
    // memo and an attribute closure per lane and attribute: a step that flips 64 lanes then
    // costs three attribute writes per lane (its state, change mark and name) and no reactive
    // bookkeeping (a closure per attribute would unsubscribe and resubscribe itself on every
    // re-run, about 20 µs a lane).
    let shown = StoredValue::new_local(Vec::<ShownLane>::new());
    // A `?mask` question: the prediction while it is open, then the verdict lane by lane.
    let judged = Memo::new(move |_| {
        ctx.with(|s| {
            s.reveal()
                .filter(|r| r.kind == wave_session::QuestionKind::Mask)
                .and_then(|r| Some((r.expected_lanes, r.predicted_lanes?)))
        })
    });
    // The picture under the buttons, made when its canvas is in the page. Its observer finds
    // the lanes again after a layout that resized the group (presenter mode, a phone, the
    // window) or changed its lanes: the callback comes after that layout and before the paint,
    // so the frame that shows the new layout shows the picture drawn for it. Callbacks may come
    // after the view is gone, and do nothing then.
    let canvas: NodeRef<leptos::html::Canvas> = NodeRef::new();
    let picture = StoredValue::new_local(None::<LanePicture>);
    let measure = move || {
        let buttons = shown
            .try_with_value(|shown| shown.iter().map(|l| l.element.clone()).collect::<Vec<_>>());
        if let Some(buttons) = buttons {
            picture.try_update_value(|p| {
                if let Some(p) = p {
                    p.measure(&buttons);
                }
            });
        }
    };
    let recolour = move || {
        picture.try_update_value(|p| {
            if let Some(p) = p {
                p.recolour();
            }
        });
    };
    Effect::new(move |_| {
        let Some(group) = group.get() else {
            return;
        };
        if picture.with_value(Option::is_none) {
            if let Some(canvas) = canvas.get() {
                let on_resize =
                    wasm_bindgen::closure::Closure::<dyn Fn()>::new(measure).into_js_value();
                let on_scheme =
                    wasm_bindgen::closure::Closure::<dyn Fn()>::new(recolour).into_js_value();
                picture.set_value(Some(LanePicture::new(
                    canvas, &group, &on_resize, on_scheme,
                )));
            }
        }
        let selected = selected.get();
        let hovered = hovered.get();
        let prediction = ctx.prediction.get();
        let judged = judged.get();
        let answer = move |lane: u32| {
            let bit = |mask: u64| mask >> lane & 1 == 1;
            match (prediction, judged) {
                (Some(said), _) => LaneAnswer::Said(bit(said)),
                (None, Some((truth, said))) => LaneAnswer::Judged {
                    said: bit(said),
                    right: bit(said) == bit(truth),
                },
                (None, None) => LaneAnswer::None,
            }
        };
        let resized = lanes_memo.with(|lanes| {
            let resized = shown
                .try_update_value(|shown| {
                    show_lanes(&group, shown, lanes, selected, hovered, answer)
                })
                .unwrap_or(false);
            picture.update_value(|p| {
                if let Some(p) = p {
                    p.show(lanes.iter().map(|l| LaneState {
                        active: l.active,
                        changed: l.changed,
                    }));
                }
            });
            resized
        });
        if resized {
            picture.with_value(|p| {
                if let Some(p) = p {
                    p.observe_again(&group);
                }
            });
        }
    });
    // New colours (the theme, presenter mode): drawn again in the next frame, once the page
    // has applied them.
    Effect::new(move |_| {
        ctx.theme.track();
        ctx.presenter.track();
        request_animation_frame(recolour);
    });
    let on_click = move |event: web_sys::MouseEvent| {
        let Some(lane) = event_lane(&event) else {
            return;
        };
        // While a `?mask` question is open a click toggles the lane in the answer.
        if ctx.prediction.get_untracked().is_some() {
            ctx.prediction
                .update(|p| *p = p.map(|mask| mask ^ (1u64 << lane.min(63))));
        } else {
            ctx.act(|s| s.select_lane(lane));
        }
    };
    // Arrow keys move the selected lane (one tab stop for the whole group).
    let on_keydown = move |event: web_sys::KeyboardEvent| {
        let count = lanes_memo.with_untracked(Vec::len) as u32;
        if count == 0 {
            return;
        }
        // From the lane that has the focus: in a `?mask` answer a click toggles a lane without
        // selecting it.
        let lane = event_lane(&event).unwrap_or_else(|| selected.get_untracked());
        // While Be the warp asks, Enter checks the answer (Space still toggles the lane).
        if event.key() == "Enter" && ctx.peek(|s| s.warp_question().is_some()) {
            event.prevent_default();
            ctx.check_key.update(|n| *n = n.wrapping_add(1));
            return;
        }
        let next = match event.key().as_str() {
            "ArrowRight" | "ArrowDown" => (lane + 1).min(count - 1),
            "ArrowLeft" | "ArrowUp" => lane.saturating_sub(1),
            "Home" => 0,
            "End" => count - 1,
            _ => return,
        };
        event.prevent_default();
        ctx.act(|s| s.select_lane(next));
        let button = shown
            .with_value(|shown| shown.get(next as usize).map(|l| l.element.clone()))
            .and_then(|element| element.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(button) = button {
            let _ = button.focus();
        }
    };
    view! {
        <section class="view lanes-view" aria-labelledby=ctx.labelled_by("lanes-heading") aria-busy=move || ctx.busy()>
            <h3 id=ctx.id("lanes-heading") class="view-title">
                "Lanes" <span class="view-note">{active_count}</span> <HeldNote />
            </h3>
            // The lane buttons are made and updated by the effect above (`show_lanes`), after the
            // canvas their look is drawn on.
            <div
                class="lanes"
                role="group"
                aria-label="Lanes"
                node_ref=group
                on:click=on_click
                on:keydown=on_keydown
                on:pointerover=on_pointerover
                on:pointerleave=move |_| hovered.set(None)
            >
                <canvas class="lanes-canvas" aria-hidden="true" node_ref=canvas></canvas>
            </div>
            <p class="lane-reason" aria-hidden="true">
                {move || {
                    let lane = selected.get();
                    lanes_memo
                        .with(|all| {
                            all.iter()
                                .find(|l| l.lane == lane)
                                .map(|l| match &l.reason {
                                    Some(reason) => format!("Lane {lane}: {reason}"),
                                    None => format!("Lane {lane}: active"),
                                })
                        })
                        .unwrap_or_default()
                }}
            </p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::{lane_class, lane_state, LaneAnswer, LaneAttributes, LaneChanges};
    use wave_session::LaneView;

    #[test]
    fn a_lane_class_says_only_whether_it_is_selected() {
        assert_eq!(lane_class(false), "lane");
        assert_eq!(lane_class(true), "lane selected");
        assert_eq!(lane_state(true), "active");
        assert_eq!(lane_state(false), "inactive");
    }

    fn lane(active: bool, changed: bool, reason: Option<&str>) -> LaneView {
        let mut aria_label = format!("Lane 3: {}", if active { "active" } else { "inactive" });
        if let Some(reason) = reason {
            aria_label.push_str(": ");
            aria_label.push_str(reason);
        }
        LaneView {
            lane: 3,
            active,
            reason: reason.map(str::to_string),
            aria_label,
            changed,
        }
    }

    #[test]
    fn a_new_lane_gets_every_attribute_it_has() {
        let mut shown = LaneAttributes::default();
        let changes = shown.update(&lane(true, false, None), false, false, LaneAnswer::None);
        assert_eq!(
            changes,
            LaneChanges {
                state: true,
                label: true,
                ..LaneChanges::default()
            }
        );
        assert_eq!(shown.state, Some("active"));
        assert!(!shown.changed);
        assert_eq!(shown.label, "Lane 3: active");
        assert!(!shown.selected);
        assert_eq!(shown.title, None);
    }

    #[test]
    fn only_what_changed_is_written_again() {
        let mut shown = LaneAttributes::default();
        let active = lane(true, false, None);
        shown.update(&active, false, false, LaneAnswer::None);
        // The same state again: nothing to write.
        assert!(!shown.update(&active, false, false, LaneAnswer::None).any());
        // The lane is turned off by an `if`: its state, change mark and name, not its class
        // (which says only whether it is selected), tab stop or title.
        let off = lane(false, true, Some("else side of the if at line 8"));
        let changes = shown.update(&off, false, false, LaneAnswer::None);
        assert_eq!(
            changes,
            LaneChanges {
                state: true,
                changed: true,
                label: true,
                ..LaneChanges::default()
            }
        );
        assert_eq!(shown.state, Some("inactive"));
        assert!(shown.changed);
        assert_eq!(
            shown.label,
            "Lane 3: inactive: else side of the if at line 8"
        );
        // The next step clears the change mark only.
        let still_off = lane(false, false, Some("else side of the if at line 8"));
        assert_eq!(
            shown.update(&still_off, false, false, LaneAnswer::None),
            LaneChanges {
                changed: true,
                ..LaneChanges::default()
            }
        );
        assert!(!shown.changed);
        // Selecting it: its class and tab stop together.
        assert_eq!(
            shown.update(&still_off, true, false, LaneAnswer::None),
            LaneChanges {
                selected: true,
                ..LaneChanges::default()
            }
        );
        assert!(shown.selected);
    }

    #[test]
    fn only_the_hovered_lane_has_a_title_and_it_follows_the_lane() {
        let mut shown = LaneAttributes::default();
        let off = lane(false, false, Some("halted"));
        shown.update(&off, false, false, LaneAnswer::None);
        assert_eq!(shown.title, None);
        let changes = shown.update(&off, false, true, LaneAnswer::None);
        assert_eq!(
            changes,
            LaneChanges {
                title: true,
                ..LaneChanges::default()
            }
        );
        assert_eq!(shown.title.as_deref(), Some("halted"));
        // Still hovered, the lane turns back on: the tooltip says so.
        shown.update(&lane(true, true, None), false, true, LaneAnswer::None);
        assert_eq!(shown.title.as_deref(), Some("active"));
        // The pointer leaves: the title goes.
        assert!(
            shown
                .update(&lane(true, true, None), false, false, LaneAnswer::None)
                .title
        );
        assert_eq!(shown.title, None);
    }

    #[test]
    fn a_mask_answer_marks_the_lane_and_its_name_and_goes_when_the_question_does() {
        let mut shown = LaneAttributes::default();
        let off = lane(false, false, Some("halted"));
        shown.update(&off, false, false, LaneAnswer::None);
        let changes = shown.update(&off, false, false, LaneAnswer::Said(true));
        assert!(changes.answer && changes.label && !changes.state);
        assert_eq!(shown.answer_data, Some("on"));
        assert_eq!(shown.label, "Lane 3: inactive: halted; your answer: active");
        let judged = LaneAnswer::Judged {
            said: true,
            right: false,
        };
        assert!(shown.update(&off, false, false, judged).label);
        assert_eq!(shown.answer_data, Some("wrong"));
        assert_eq!(
            shown.label,
            "Lane 3: inactive: halted; you said active: wrong"
        );
        assert!(!shown.update(&off, false, false, judged).any());
        assert!(shown.update(&off, false, false, LaneAnswer::None).label);
        assert_eq!(shown.answer_data, None);
        assert_eq!(shown.label, "Lane 3: inactive: halted");
    }

    #[test]
    fn an_off_answer_says_whether_the_lane_it_marks_is_active() {
        // The stylesheet writes "off" in the lane's text colour, which it knows only from the
        // answer: muted on an inactive lane, plain on an active one.
        let mut shown = LaneAttributes::default();
        shown.update(
            &lane(false, false, None),
            false,
            false,
            LaneAnswer::Said(false),
        );
        assert_eq!(shown.answer_data, Some("off"));
        let changes = shown.update(
            &lane(true, true, None),
            false,
            false,
            LaneAnswer::Said(false),
        );
        assert!(changes.answer);
        assert_eq!(shown.answer_data, Some("off active"));
    }
}
