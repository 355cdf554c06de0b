//! Mounts the playground in a real browser and checks its components through the DOM.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use wave_playground::components::{timing, AUTOSAVE_KEY};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a browser document")
}

/// A fresh copy of the page in its own element, with no autosave from an earlier test.
struct Mounted {
    root: web_sys::HtmlElement,
    _handle: Box<dyn std::any::Any>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

async fn mount() -> Mounted {
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.clear().unwrap();
    let root: web_sys::HtmlElement = document()
        .create_element("div")
        .unwrap()
        .dyn_into()
        .unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    let handle = leptos::mount::mount_to(root.clone(), wave_playground::App);
    leptos::task::tick().await;
    let mounted = Mounted {
        root,
        _handle: Box::new(handle),
    };
    // The editor's module is fetched once the app has started (src/editor/load.js), and the
    // register table is built after the first frame (src/components/first_frame.rs): the page
    // is whole when the editor has taken the kernel listing's place and the table is there.
    let has = |selector: &str| {
        mounted
            .root
            .query_selector(selector)
            .ok()
            .flatten()
            .is_some()
    };
    wait_until(
        || has(".cm-editor") && has(".registers-view") && !has(".kernel-listing"),
        "the editor and the register table",
    )
    .await;
    mounted
}

fn one(root: &web_sys::HtmlElement, selector: &str) -> web_sys::Element {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
}

fn all(root: &web_sys::Element, selector: &str) -> Vec<web_sys::Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into().ok())
        .collect()
}

/// Where the first element matching `selector` begins, in the window.
fn top_of(root: &web_sys::HtmlElement, selector: &str) -> f64 {
    one(root, selector).get_bounding_client_rect().top()
}

fn text(element: &web_sys::Element) -> String {
    element.text_content().unwrap_or_default()
}

fn button(root: &web_sys::HtmlElement, name: &str) -> web_sys::HtmlElement {
    all(root, "button")
        .into_iter()
        .find(|b| text(b).trim().ends_with(name))
        .unwrap_or_else(|| panic!("no button {name}"))
        .dyn_into()
        .unwrap()
}

fn status(root: &web_sys::HtmlElement) -> String {
    text(&one(root, "[role=status]"))
}

fn lane_labels(root: &web_sys::HtmlElement) -> Vec<String> {
    all(root, "[role=group][aria-label=Lanes] .lane")
        .iter()
        .map(|l| l.get_attribute("aria-label").unwrap_or_default())
        .collect()
}

/// The kernel editor: CodeMirror's content element, a textbox with the accessible name.
fn editor(root: &web_sys::HtmlElement) -> web_sys::HtmlElement {
    one(root, "[role=textbox][aria-label='Kernel source']")
        .dyn_into()
        .unwrap()
}

/// The editor's text as drawn, one `.cm-line` per line.
fn editor_text(root: &web_sys::HtmlElement) -> String {
    all(root, ".cm-line")
        .iter()
        .map(text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Types `source` over the editor's text (select all, then insert, as the browser's own text
/// input does) and waits for the debounced recompile. The page autosaves the source it has just
/// compiled (`Ctx::finish_recompile`), so an autosave holding `source` says the session has it;
/// `wait_until` then lets the views follow.
async fn type_source(root: &web_sys::HtmlElement, source: &str) {
    let area = editor(root);
    area.focus().unwrap();
    let selection = web_sys::window().unwrap().get_selection().unwrap().unwrap();
    selection.select_all_children(&area).unwrap();
    let html: web_sys::HtmlDocument = document().dyn_into().unwrap();
    assert!(html
        .exec_command_with_show_ui_and_value("insertText", false, source)
        .unwrap());
    wait_until(
        || autosaved_source().as_deref() == Some(source),
        "the debounced recompile of the typed source (the autosave holding it)",
    )
    .await;
}

/// The source in the page's autosave, if there is one.
fn autosaved_source() -> Option<String> {
    let storage = web_sys::window()?.local_storage().ok()??;
    let text = storage.get_item(AUTOSAVE_KEY).ok()??;
    wave_session::Session::restore_autosave(&text)
        .ok()
        .map(|session| session.source().to_string())
}

/// Presses "Step" `times` times, letting the DOM follow each.
async fn step(root: &web_sys::HtmlElement, times: usize) {
    for _ in 0..times {
        button(root, "Step").click();
        leptos::task::tick().await;
    }
}

/// Waits for `count` animation frames. After two, what a `ResizeObserver` did after the first
/// frame's layout (it runs in that frame's rendering) has happened.
async fn frames(count: usize) {
    for _ in 0..count {
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            web_sys::window()
                .unwrap()
                .request_animation_frame(&resolve)
                .unwrap();
        });
        wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
    }
}

/// How long `wait_until` waits before it fails: far longer than anything it waits for takes on a
/// loaded machine, and shorter than the test runner's 20 s for the whole suite, so that the
/// failure names its condition.
const DEADLINE_MS: f64 = 10_000.0;

fn performance() -> web_sys::Performance {
    web_sys::window().unwrap().performance().unwrap()
}

/// Waits until `condition` holds, looking again after each animation frame (so after the
/// microtasks in which Leptos updates the DOM, the frame's own callbacks and its observers).
/// Fails naming `what` if it does not hold within `DEADLINE_MS`.
async fn wait_until(mut condition: impl FnMut() -> bool, what: &str) {
    let start = performance().now();
    loop {
        leptos::task::tick().await;
        if condition() {
            return;
        }
        if performance().now() - start > DEADLINE_MS {
            panic!("gave up after {DEADLINE_MS} ms waiting for {what}");
        }
        frames(1).await;
    }
}

/// How many User Timing measures named `name` the page has published (src/components/timing.rs).
fn measures(name: &str) -> u32 {
    performance().get_entries_by_name(name).length()
}

/// Presses "Step" and waits until the frame that shows the step has been drawn: its
/// `wave:step-render` measure is recorded in the task after that frame, so the animation-frame
/// callbacks the step queued (the register table looking whether it is on screen) have run, and
/// so have the DOM updates they made.
async fn step_drawn(root: &web_sys::HtmlElement) {
    let drawn = measures(timing::STEP_RENDER);
    button(root, "Step").click();
    wait_until(
        || measures(timing::STEP_RENDER) > drawn,
        "the frame that shows the step (a new wave:step-render measure)",
    )
    .await;
}

/// Whether `target` is in view as IntersectionObservers see the current layout, once the page's
/// own observers have had their say on it (the register table's: src/components/registers.rs).
/// A fresh observer reports on its target in the next update of the document's observers, the
/// same update in which the page's observers report a change, and the browser notifies them
/// all in one task: a frame after the fresh observer's report, that task is over.
async fn in_view_as_observed(target: &web_sys::Element) -> bool {
    let mut report = None;
    let promise = js_sys::Promise::new(&mut |resolve, _| report = Some(resolve));
    let report = report.unwrap();
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        report.call1(&JsValue::NULL, &entries).unwrap();
    });
    let observer = web_sys::IntersectionObserver::new(callback.as_ref().unchecked_ref()).unwrap();
    observer.observe(target);
    let entries: js_sys::Array = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .unwrap()
        .dyn_into()
        .unwrap();
    observer.disconnect();
    drop(callback);
    frames(1).await;
    entries
        .at(-1)
        .dyn_into::<web_sys::IntersectionObserverEntry>()
        .unwrap()
        .is_intersecting()
}

#[wasm_bindgen_test]
async fn layout_has_header_editor_and_machine_with_the_default_kernel() {
    let page = mount().await;
    let root = &page.root;
    assert!(text(&one(root, "header")).contains("WAVE Playground"));
    assert!(one(root, "main .editor-pane").is_object());
    assert!(one(root, "main .machine-pane").is_object());
    assert!(one(root, "header select[aria-label=Examples]").is_object());
    wait_until(
        || editor_text(root) == wave_playground::DEFAULT_KERNEL,
        "the editor showing the default kernel",
    )
    .await;
    // One gutter button per source line.
    let lines = wave_playground::DEFAULT_KERNEL.split('\n').count();
    assert_eq!(all(root, ".cm-bp-gutter button").len(), lines);
    assert!(all(root, "button[aria-label='Toggle breakpoint on line 3']").len() == 1);
}

#[wasm_bindgen_test]
async fn lanes_have_one_cell_per_lane_and_step_changes_status_and_labels() {
    let page = mount().await;
    let root = &page.root;
    let labels = lane_labels(root);
    assert_eq!(labels.len(), 8, "one cell per lane of the 8-wide wave");
    assert!(labels.iter().all(|l| l.ends_with(": active")), "{labels:?}");
    assert_eq!(status(root), "ready");
    // Step through the default kernel until the `if` splits the lanes.
    step(root, 6).await;
    assert!(
        status(root).starts_with("paused at line"),
        "{}",
        status(root)
    );
    let labels = lane_labels(root);
    assert!(
        labels
            .iter()
            .any(|l| l.contains("inactive: else side of the if")),
        "{labels:?}"
    );
    // The divergence stack shows the `if` frame.
    let frames = all(
        root,
        "[role=list][aria-label='Divergence stack'] [role=listitem]",
    );
    assert_eq!(frames.len(), 1);
    assert!(text(&frames[0]).starts_with("if"), "{}", text(&frames[0]));
    // Reset brings every lane back.
    button(root, "Reset").click();
    leptos::task::tick().await;
    assert_eq!(status(root), "ready");
    assert!(all(
        root,
        "[role=list][aria-label='Divergence stack'] [role=listitem]"
    )
    .is_empty());
}

#[wasm_bindgen_test]
async fn diagnostics_list_shows_an_error_and_clears_when_fixed() {
    let page = mount().await;
    let root = &page.root;
    let items = || all(root, "[role=list][aria-label=Diagnostics] [role=listitem]");
    assert!(items().is_empty());
    type_source(root, ".kernel k\n    bogus_op r0\n    halt\n.end").await;
    let found = items();
    assert!(!found.is_empty(), "an error for the bad line");
    assert!(
        text(&found[0]).starts_with("Line 2: error:"),
        "{}",
        text(&found[0])
    );
    assert!(status(root).starts_with("cannot run"), "{}", status(root));
    assert!(
        !all(root, ".cm-lintRange-error").is_empty(),
        "the bad token is underlined"
    );
    type_source(root, ".kernel k\n    halt\n.end").await;
    assert!(items().is_empty(), "fixed: no diagnostic left");
    assert_eq!(status(root), "ready");
}

#[wasm_bindgen_test]
async fn gutter_toggles_breakpoints() {
    let page = mount().await;
    let root = &page.root;
    let toggle = || -> web_sys::HtmlElement {
        one(root, "button[aria-label='Toggle breakpoint on line 11']")
            .dyn_into()
            .unwrap()
    };
    assert_eq!(
        toggle().get_attribute("aria-pressed").as_deref(),
        Some("false")
    );
    toggle().click();
    leptos::task::tick().await;
    assert_eq!(
        toggle().get_attribute("aria-pressed").as_deref(),
        Some("true")
    );
    let runs = measures(timing::RUN);
    button(root, "Run").click();
    // The run goes in slices, one task each; `wave:run` is published once the views show how it
    // ended.
    wait_until(
        || measures(timing::RUN) > runs,
        "the run to end (a new wave:run measure)",
    )
    .await;
    assert_eq!(status(root), "paused at line 11 (breakpoint)");
}

/// `wave:step` (src/components/timing.rs) ends after the microtasks that follow a command,
/// because that is when Leptos updates the DOM: not synchronously inside the command.
#[wasm_bindgen_test]
async fn the_dom_follows_a_command_in_the_microtasks_after_it() {
    let page = mount().await;
    let root = &page.root;
    assert_eq!(status(root), "ready");
    button(root, "Step").click();
    assert_eq!(
        status(root),
        "ready",
        "not yet: the views update after the click returns"
    );
    leptos::task::tick().await;
    assert!(
        status(root).starts_with("paused at line"),
        "{}",
        status(root)
    );
}

/// Row headers ("r0", "p1") of the register table's rendered rows, top to bottom.
fn register_rows(root: &web_sys::HtmlElement) -> Vec<String> {
    all(root, ".registers tbody tr:not(.gap-row) th[scope=row]")
        .iter()
        .map(text)
        .collect()
}

/// Removes the page's stylesheet when dropped.
struct Unstyle(web_sys::Element);

impl Drop for Unstyle {
    fn drop(&mut self) {
        self.0.remove();
    }
}

/// Adds the page's stylesheet (the tests run unstyled otherwise) until the guard is dropped.
fn with_stylesheet() -> Unstyle {
    let style = document().create_element("style").unwrap();
    style.set_text_content(Some(include_str!("../style/main.css")));
    document().head().unwrap().append_child(&style).unwrap();
    Unstyle(style)
}

/// The texts and `changed` marks of a register's rendered cells, lane by lane.
fn register_cells(root: &web_sys::HtmlElement, name: &str) -> Vec<(String, bool)> {
    let row = all(root, ".registers tbody tr:not(.gap-row)")
        .into_iter()
        .find(|tr| text(&one_in(tr, "th[scope=row]")) == name)
        .unwrap_or_else(|| panic!("no row for {name}"));
    let cells = row.query_selector_all("td[aria-colindex]").unwrap();
    (0..cells.length())
        .map(|i| {
            let cell: web_sys::Element = cells.item(i).unwrap().dyn_into().unwrap();
            (text(&cell), cell.class_list().contains("changed"))
        })
        .collect()
}

fn one_in(parent: &web_sys::Element, selector: &str) -> web_sys::Element {
    parent
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
}

/// Fills the window with the page (as it does on its own), loads `source`, and puts a block
/// 3000 px tall above the register view, out of the machine pane's view; returns the block.
async fn registers_pushed_out_of_view(
    root: &web_sys::HtmlElement,
    source: &str,
) -> web_sys::HtmlElement {
    root.set_attribute(
        "style",
        "position: fixed; inset: 0; z-index: 10; background: #fff",
    )
    .unwrap();
    type_source(root, source).await;
    let spacer: web_sys::HtmlElement = document()
        .create_element("div")
        .unwrap()
        .dyn_into()
        .unwrap();
    spacer.set_attribute("style", "height: 3000px").unwrap();
    one(root, ".machine-body")
        .insert_before(&spacer, Some(&one(root, ".registers-view")))
        .unwrap();
    // The table learns that it is out of view from its IntersectionObserver.
    assert!(
        !in_view_as_observed(&one(root, "table.registers tbody")).await,
        "the block pushes the register rows out of view"
    );
    spacer
}

/// Off screen the register table leaves its cells as they are while stepping (and says so with
/// `aria-busy`); brought back into view, by scrolling or by the layout changing, it shows the
/// current values with the latest step's changes marked (src/components/registers.rs).
#[wasm_bindgen_test]
async fn the_register_table_off_screen_catches_up_when_it_comes_back_into_view() {
    let _unstyle = with_stylesheet();
    let page = mount().await;
    let root = &page.root;
    let spacer = registers_pushed_out_of_view(
        root,
        ".kernel k\n.registers 2\n    mov_imm r0, 1\n    mov_imm r1, 5\n    mov_imm r0, 2\n    mov_imm r0, 3\n    halt\n.end\n",
    )
    .await;
    let table = one(root, "table.registers");
    let rows = one(root, "table.registers tbody");
    let view = one(root, ".registers-view");
    // The table looks whether it is seen in the frame after a step: once that frame is drawn, a
    // table that was going to update its cells has done so.
    let step = || step_drawn(root);
    step().await; // r0 = 1
    assert_eq!(table.get_attribute("aria-busy").as_deref(), Some("true"));
    assert!(
        register_cells(root, "r0").iter().all(|(t, _)| t == "0"),
        "off screen the cells wait: {:?}",
        register_cells(root, "r0")
    );
    step().await; // r1 = 5
                  // Scrolled back into view: the current values, and only the latest step's change marked.
    view.scroll_into_view();
    wait_until(
        || table.get_attribute("aria-busy").is_none(),
        "the table scrolled into view to catch up (no aria-busy)",
    )
    .await;
    let r0 = register_cells(root, "r0");
    assert_eq!(r0.len(), 8, "one cell per lane of the 8-wide wave");
    assert!(r0.iter().all(|c| *c == ("1".to_string(), false)), "{r0:?}");
    let r1 = register_cells(root, "r1");
    assert!(r1.iter().all(|c| *c == ("5".to_string(), true)), "{r1:?}");
    // Out of view again and back without a scroll (the block above it grows, then shrinks;
    // the pane does not keep the table in place meanwhile): the same.
    one(root, ".machine-body")
        .set_attribute("style", "overflow-anchor: none")
        .unwrap();
    spacer.set_attribute("style", "height: 6000px").unwrap();
    assert!(
        !in_view_as_observed(&rows).await,
        "the grown block pushes the rows out of view again"
    );
    step().await; // r0 = 2
    step().await; // r0 = 3
    assert_eq!(table.get_attribute("aria-busy").as_deref(), Some("true"));
    assert!(register_cells(root, "r0").iter().all(|c| c.0 == "1"));
    spacer.set_attribute("style", "height: 3000px").unwrap();
    wait_until(
        || table.get_attribute("aria-busy").is_none(),
        "the table back in view to catch up (no aria-busy)",
    )
    .await;
    let r0 = register_cells(root, "r0");
    assert!(r0.iter().all(|c| *c == ("3".to_string(), true)), "{r0:?}");
    let r1 = register_cells(root, "r1");
    assert!(r1.iter().all(|c| *c == ("5".to_string(), false)), "{r1:?}");
}

#[wasm_bindgen_test]
async fn the_register_table_renders_only_the_rows_in_view_and_follows_scrolling() {
    // The page's stylesheet gives the table its fixed geometry and its scroll container a height.
    let _unstyle = with_stylesheet();
    let page = mount().await;
    let root = &page.root;
    // r40 is written first; r0–r40 are all used: 41 register rows and p0–p3.
    let mut source = String::from(".kernel many\n.registers 48\n    mov_imm r40, 7\n");
    for r in 0..40 {
        source.push_str(&format!("    mov_imm r{r}, {r}\n"));
    }
    source.push_str("    halt\n.end\n");
    type_source(root, &source).await;
    // The table measures itself in an animation frame: the step's is drawn.
    step_drawn(root).await;
    let table = one(root, "table.registers");
    assert_eq!(table.get_attribute("aria-rowcount").as_deref(), Some("46"));
    let rows = register_rows(root);
    assert_eq!(rows.first().map(String::as_str), Some("r0"));
    assert!(
        rows.len() < 41,
        "only the rows in view and a few more: {rows:?}"
    );
    assert!(!rows.iter().any(|r| r == "r40"), "{rows:?}");
    // Scrolled to the end, the last rows are there and the first ones gone; the value the step
    // wrote is still marked as changed.
    let scroller: web_sys::HtmlElement = one(root, ".registers-scroll").dyn_into().unwrap();
    scroller.set_scroll_top(scroller.scroll_height());
    scroller
        .dispatch_event(&web_sys::Event::new("scroll").unwrap())
        .unwrap();
    leptos::task::tick().await;
    assert!(
        scroller.scroll_top() > 0,
        "the table scrolls within its container"
    );
    let rows = register_rows(root);
    assert_eq!(rows.last().map(String::as_str), Some("p3"), "{rows:?}");
    assert!(!rows.iter().any(|r| r == "r0"), "{rows:?}");
    let r40 = all(root, ".registers tbody tr")
        .into_iter()
        .find(|tr| tr.get_attribute("aria-rowindex").as_deref() == Some("42"))
        .expect("r40's row (row 42 counting the header)");
    let cells = r40.query_selector_all("td[aria-colindex]").unwrap();
    assert_eq!(cells.length(), 8, "one cell per lane of the 8-wide wave");
    let first: web_sys::Element = cells.item(0).unwrap().dyn_into().unwrap();
    assert_eq!(text(&first), "7");
    assert!(first.class_list().contains("changed"));
    // The rows before the window are stood in for by a spacer as tall as they are.
    let spacer = one(root, ".registers tbody tr.gap-row:not([hidden]) td");
    assert!(spacer.get_bounding_client_rect().height() > 100.0);
}

fn lanes(root: &web_sys::HtmlElement) -> Vec<web_sys::Element> {
    all(root, "[role=group][aria-label=Lanes] .lane")
}

fn dispatch(target: &web_sys::Element, kind: &str, bubbles: bool) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(bubbles);
    let event = web_sys::Event::new_with_event_init_dict(kind, &init).unwrap();
    target.dispatch_event(&event).unwrap();
}

/// A lane's state is in data attributes (`data-state`, `data-changed`), its class says only
/// whether it is selected, and only the lane under the pointer carries its reason as a `title`
/// (src/components/lanes.rs).
#[wasm_bindgen_test]
async fn lanes_show_their_state_by_attributes_and_the_hovered_lane_its_reason() {
    let page = mount().await;
    let root = &page.root;
    // Step the default kernel until the `if` splits the lanes.
    step(root, 6).await;
    let cells = lanes(root);
    assert_eq!(cells.len(), 8);
    for cell in &cells {
        let label = cell.get_attribute("aria-label").unwrap_or_default();
        let inactive = label.contains(": inactive");
        assert_eq!(
            cell.get_attribute("data-state").as_deref(),
            Some(if inactive { "inactive" } else { "active" }),
            "{label}"
        );
        // The `if` turned the odd lanes off: those changed.
        assert_eq!(cell.has_attribute("data-changed"), inactive, "{label}");
        let selected = cell.get_attribute("data-lane").as_deref() == Some("0");
        assert_eq!(
            cell.get_attribute("class").as_deref(),
            Some(if selected { "lane selected" } else { "lane" }),
            "{label}"
        );
        assert_eq!(cell.get_attribute("title"), None, "no pointer over {label}");
    }
    // The next step clears the change marks.
    step(root, 1).await;
    assert!(lanes(root).iter().all(|c| !c.has_attribute("data-changed")));
    // The pointer over lane 3 (on its change bar, an element inside it): lane 3 alone has a
    // title, its reason.
    let bar = lanes(root)[3].query_selector(".lane-bar").unwrap().unwrap();
    dispatch(&bar, "pointerover", true);
    leptos::task::tick().await;
    let titles: Vec<Option<String>> = lanes(root)
        .iter()
        .map(|c| c.get_attribute("title"))
        .collect();
    assert_eq!(
        titles[3].as_deref(),
        Some("else side of the if at line 10"),
        "{titles:?}"
    );
    assert!(
        titles
            .iter()
            .enumerate()
            .all(|(i, t)| i == 3 || t.is_none()),
        "{titles:?}"
    );
    // Over an active lane, the tooltip says so; the next step keeps it current.
    dispatch(&lanes(root)[2], "pointerover", true);
    leptos::task::tick().await;
    assert_eq!(
        lanes(root)[2].get_attribute("title").as_deref(),
        Some("active")
    );
    assert_eq!(lanes(root)[3].get_attribute("title"), None);
    // Leaving the lanes takes the title away.
    dispatch(
        &one(root, "[role=group][aria-label=Lanes]"),
        "pointerleave",
        false,
    );
    leptos::task::tick().await;
    assert!(lanes(root)
        .iter()
        .all(|c| c.get_attribute("title").is_none()));
}

/// A lane's computed style property, with the page's stylesheet in.
fn computed(element: &web_sys::Element, property: &str) -> String {
    web_sys::window()
        .unwrap()
        .get_computed_style(element)
        .unwrap()
        .unwrap()
        .get_property_value(property)
        .unwrap()
}

/// The page's colour variable `name` (a `#rrggbb` in the stylesheet) as red, green, blue.
fn theme_colour(name: &str) -> [u8; 3] {
    let value = computed(&document().document_element().unwrap(), name);
    let hex = value.trim().trim_start_matches('#');
    assert_eq!(hex.len(), 6, "{name} is {value}");
    let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    [channel(0), channel(2), channel(4)]
}

/// The lanes' canvas.
fn lanes_canvas(root: &web_sys::HtmlElement) -> web_sys::HtmlCanvasElement {
    one(root, "[role=group][aria-label=Lanes] canvas")
        .dyn_into()
        .unwrap()
}

/// The canvas's pixel (red, green, blue, alpha) under the point `(x, y)` of the window.
fn pixel_at(canvas: &web_sys::HtmlCanvasElement, x: f64, y: f64) -> [u8; 4] {
    let rect = canvas.get_bounding_client_rect();
    let scale = f64::from(canvas.width()) / rect.width();
    let context: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let data = context
        .get_image_data(
            ((x - rect.left()) * scale).floor(),
            ((y - rect.top()) * scale).floor(),
            1.0,
            1.0,
        )
        .unwrap()
        .data();
    [data[0], data[1], data[2], data[3]]
}

/// The middle of an element's box, in the window.
fn centre_of(element: &web_sys::Element) -> (f64, f64) {
    let r = element.get_bounding_client_rect();
    (r.left() + r.width() / 2.0, r.top() + r.height() / 2.0)
}

/// Points of a lane's picture: inside its box (clear of the dot and the number), the middle of
/// its dot, and the middle of its change bar.
fn lane_points(cell: &web_sys::Element) -> [(f64, f64); 3] {
    let r = cell.get_bounding_client_rect();
    let inside = (r.left() + 3.5, r.top() + r.height() / 2.0);
    let bar = one_in(cell, ".lane-bar").get_bounding_client_rect();
    [
        inside,
        centre_of(&one_in(cell, ".lane-glyph")),
        (r.left() + r.width() / 2.0, bar.top() + 0.5),
    ]
}

fn opaque(rgb: [u8; 3]) -> [u8; 4] {
    [rgb[0], rgb[1], rgb[2], 255]
}

/// The lanes are drawn on one canvas under their buttons, sized to the group at the device's
/// pixel ratio, in the theme's colours: an active lane green with a filled dot, an inactive one
/// grey with a hollow ring (colour and a glyph), a bar under the lanes the last step changed.
/// The buttons themselves paint nothing over it.
#[wasm_bindgen_test]
async fn the_lanes_are_drawn_on_a_canvas_under_transparent_buttons() {
    let _style = with_stylesheet();
    let page = mount().await;
    let root = &page.root;
    step(root, 6).await;
    let canvas = lanes_canvas(root);
    assert_eq!(canvas.get_attribute("aria-hidden").as_deref(), Some("true"));
    let group = one(root, "[role=group][aria-label=Lanes]");
    let cells = lanes(root);
    let on = cells
        .iter()
        .find(|c| c.get_attribute("data-state").as_deref() == Some("active"))
        .expect("an active lane");
    let off = cells
        .iter()
        .find(|c| c.get_attribute("data-state").as_deref() == Some("inactive"))
        .expect("an inactive lane");
    // The canvas is drawn after the layout that placed the lanes (which may still move them
    // as the page settles), at the group's size.
    let ratio = web_sys::window().unwrap().device_pixel_ratio();
    wait_until(
        || {
            let inside = lane_points(on)[0];
            let fits = f64::from(canvas.width())
                == (canvas.get_bounding_client_rect().width() * ratio).round();
            fits && pixel_at(&canvas, inside.0, inside.1)[3] == 255
        },
        "the lanes drawn on the canvas, at its size",
    )
    .await;
    let [on_inside, on_dot, on_bar] = lane_points(on);
    // One canvas for the group, covering it, at the device's pixel ratio.
    assert_eq!(all(&group, "canvas").len(), 1);
    let (area, drawn) = (
        group.get_bounding_client_rect(),
        canvas.get_bounding_client_rect(),
    );
    assert_eq!(drawn.left(), area.left());
    assert_eq!(drawn.top(), area.top());
    assert_eq!(drawn.width(), area.width());
    assert!(
        drawn.height() > area.height(),
        "room for the last row's bars"
    );
    assert_eq!(f64::from(canvas.width()), (drawn.width() * ratio).round());
    assert_eq!(f64::from(canvas.height()), (drawn.height() * ratio).round());
    // The buttons paint nothing of the lane: no background, border or visible parts.
    let clear = "rgba(0, 0, 0, 0)";
    for cell in [on, off] {
        assert_eq!(computed(cell, "background-color"), clear);
        assert_eq!(computed(cell, "background-image"), "none");
        assert_eq!(computed(cell, "border-top-color"), clear);
        for part in [".lane-glyph", ".lane-number", ".lane-bar"] {
            assert_eq!(
                computed(&one_in(cell, part), "visibility"),
                "hidden",
                "{part}"
            );
        }
    }
    // Colour: the fills differ, and are the theme's.
    let active_soft = opaque(theme_colour("--active-soft"));
    let inactive_soft = opaque(theme_colour("--inactive-soft"));
    assert_ne!(active_soft, inactive_soft);
    let [off_inside, off_dot, off_bar] = lane_points(off);
    assert_eq!(pixel_at(&canvas, on_inside.0, on_inside.1), active_soft);
    assert_eq!(pixel_at(&canvas, off_inside.0, off_inside.1), inactive_soft);
    // Glyph: the active dot is filled, the inactive one a ring with the fill inside.
    assert_eq!(
        pixel_at(&canvas, on_dot.0, on_dot.1),
        opaque(theme_colour("--active"))
    );
    assert_eq!(pixel_at(&canvas, off_dot.0, off_dot.1), inactive_soft);
    // The `if` turned the inactive lane off: its bar shows; the active lane's does not.
    assert_eq!(
        pixel_at(&canvas, off_bar.0, off_bar.1),
        opaque(theme_colour("--accent"))
    );
    assert_eq!(pixel_at(&canvas, on_bar.0, on_bar.1)[3], 0);
    // The next step takes the bar away and leaves the rest.
    step(root, 1).await;
    assert_eq!(pixel_at(&canvas, off_bar.0, off_bar.1)[3], 0);
    assert_eq!(pixel_at(&canvas, off_inside.0, off_inside.1), inactive_soft);
    // A new theme: the lanes are drawn again in its colours.
    let root_element = document().document_element().unwrap();
    let was_dark = root_element.get_attribute("data-theme").as_deref() == Some("dark");
    while root_element.get_attribute("data-theme").as_deref() != Some("dark") {
        let theme = all(root, "button")
            .into_iter()
            .find(|b| text(b).contains("Theme:"))
            .unwrap()
            .dyn_into::<web_sys::HtmlElement>()
            .unwrap();
        theme.click();
        leptos::task::tick().await;
    }
    let dark_soft = opaque(theme_colour("--active-soft"));
    assert!(was_dark || dark_soft != active_soft);
    wait_until(
        || pixel_at(&canvas, on_inside.0, on_inside.1) == dark_soft,
        "the lanes drawn again in the dark theme's colours",
    )
    .await;
    root_element.remove_attribute("data-theme").unwrap();
}

/// A step writes on a lane only attributes no stylesheet rule reads outside forced colours, so
/// it restyles no lane element: not its class, and nothing the stylesheet matches.
#[wasm_bindgen_test]
async fn a_step_changes_no_class_or_styled_attribute_of_a_lane() {
    // Every rule on the state attributes is in the forced-colours block.
    let css = include_str!("../style/main.css");
    let block = css
        .find("@media (forced-colors: active)")
        .expect("a forced-colours block");
    let block_end = block + css[block..].find("\n}\n").expect("the block's end");
    for attribute in ["data-state", "data-changed"] {
        for (at, _) in css.match_indices(attribute) {
            assert!(
                (block..block_end).contains(&at),
                "{attribute} at byte {at} is read outside forced colours"
            );
        }
    }
    let page = mount().await;
    let root = &page.root;
    step(root, 5).await;
    let group = one(root, "[role=group][aria-label=Lanes]");
    let written = std::rc::Rc::new(std::cell::RefCell::new(Vec::<String>::new()));
    let record = written.clone();
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |records: js_sys::Array| {
        for record_value in records.iter() {
            let mutation: web_sys::MutationRecord = record_value.unchecked_into();
            record.borrow_mut().push(
                mutation
                    .attribute_name()
                    .unwrap_or_else(|| mutation.type_()),
            );
        }
    });
    let observer = web_sys::MutationObserver::new(callback.as_ref().unchecked_ref()).unwrap();
    let options = web_sys::MutationObserverInit::new();
    options.set_attributes(true);
    options.set_child_list(true);
    options.set_subtree(true);
    observer.observe_with_options(&group, &options).unwrap();
    let before = lanes(root)
        .iter()
        .map(|c| c.get_attribute("data-state"))
        .collect::<Vec<_>>();
    // The `if` turns the odd lanes off.
    step(root, 1).await;
    let after = lanes(root)
        .iter()
        .map(|c| c.get_attribute("data-state"))
        .collect::<Vec<_>>();
    assert_ne!(before, after, "the step flipped lanes");
    for record_value in observer.take_records().iter() {
        let mutation: web_sys::MutationRecord = record_value.unchecked_into();
        written.borrow_mut().push(
            mutation
                .attribute_name()
                .unwrap_or_else(|| mutation.type_()),
        );
    }
    observer.disconnect();
    let written = written.borrow();
    assert!(!written.is_empty());
    for name in written.iter() {
        assert!(
            ["data-state", "data-changed", "aria-label"].contains(&name.as_str()),
            "a step wrote {name}: {written:?}"
        );
    }
}

/// The list of what the last step did keeps room for two events, so the lanes below it stay in
/// place whether a step had none, one or two: a step that moved them repainted and re-rastered
/// everything below the status.
#[wasm_bindgen_test]
async fn the_lanes_stay_in_place_whether_the_last_step_had_events_or_not() {
    let _style = with_stylesheet();
    let page = mount().await;
    let root = &page.root;
    let lanes_top = || top_of(root, "[role=group][aria-label=Lanes]");
    let mut seen = Vec::new();
    for _ in 0..14 {
        button(root, "Step").click();
        leptos::task::tick().await;
        seen.push((all(root, ".events li").len(), lanes_top()));
    }
    let counts: Vec<usize> = seen.iter().map(|(count, _)| *count).collect();
    assert!(counts.contains(&0), "{seen:?}");
    assert!(counts.contains(&2), "{seen:?}");
    let first = seen[0].1;
    assert!(
        seen.iter()
            .filter(|(count, _)| *count <= 2)
            .all(|(_, top)| *top == first),
        "{seen:?}"
    );
}

/// The selected lane's values stay the same elements while stepping: Leptos updates the texts
/// and marks of the re-rendered block in place (most steps change some register of the lane,
/// and building the block again each time would cost far more).
#[wasm_bindgen_test]
async fn the_selected_lane_detail_updates_its_items_in_place() {
    let page = mount().await;
    let root = &page.root;
    let items = || all(root, "[aria-label='Selected lane'] .detail-item");
    let named = |name: &str| -> web_sys::Element {
        items()
            .into_iter()
            .find(|i| text(i).starts_with(&format!("{name} = ")))
            .unwrap_or_else(|| panic!("no item {name}"))
    };
    // Lane 1: its registers start at 0 and the first two steps write 1 into r0, then r1.
    lanes(root)[1]
        .dyn_ref::<web_sys::HtmlElement>()
        .unwrap()
        .click();
    leptos::task::tick().await;
    button(root, "Step").click(); // mov_sr r0, sr_lane_id
    leptos::task::tick().await;
    let r0 = named("r0");
    let r1 = named("r1");
    assert_eq!(text(&r0), "r0 = 1");
    assert_eq!(text(&r1), "r1 = 0");
    assert!(r0.class_list().contains("changed"));
    assert!(!r1.class_list().contains("changed"));
    let count = items().len();
    button(root, "Step").click(); // mov_imm r1, 1
    leptos::task::tick().await;
    assert_eq!(items().len(), count);
    assert!(named("r0").is_same_node(Some(&r0)), "r0's item was kept");
    assert!(named("r1").is_same_node(Some(&r1)), "r1's item was kept");
    assert_eq!(text(&r1), "r1 = 1");
    assert!(r1.class_list().contains("changed"));
    assert!(!r0.class_list().contains("changed"));
    assert!(text(&one(root, "[aria-label='Selected lane']")).starts_with("Lane 1"));
}

/// The divergence stack keeps the height of its deepest state since the machine started over,
/// so the registers below it stay in place when a frame is popped (a moved view is repainted
/// and re-rastered whole); a reset gives the room back.
#[wasm_bindgen_test]
async fn the_registers_stay_in_place_when_the_stack_pops_until_a_reset() {
    let _style = with_stylesheet();
    let page = mount().await;
    let root = &page.root;
    let registers_top = || top_of(root, ".registers-view");
    let depth = || all(root, "[aria-label='Divergence stack'] > [role=listitem]").len();
    // The held height is set after a layout (by a ResizeObserver): give each step its frames.
    frames(2).await;
    let at_start = registers_top();
    let mut seen = Vec::new();
    for _ in 0..12 {
        step(root, 1).await;
        frames(2).await;
        seen.push((depth(), registers_top()));
    }
    let pushed = seen
        .iter()
        .position(|(depth, _)| *depth == 1)
        .unwrap_or_else(|| panic!("the if pushes a frame: {seen:?}"));
    let popped = seen[pushed..]
        .iter()
        .position(|(depth, _)| *depth == 0)
        .unwrap_or_else(|| panic!("the endif pops it: {seen:?}"));
    assert!(
        seen[pushed].1 > at_start,
        "a push moves them once: {seen:?}"
    );
    assert!(
        seen[pushed..].iter().all(|(_, top)| *top == seen[pushed].1),
        "the pop at step {} moved them: {seen:?}",
        pushed + popped + 1
    );
    button(root, "Reset").click();
    leptos::task::tick().await;
    frames(2).await;
    assert_eq!(registers_top(), at_start, "a reset gives the room back");
}

/// With only the register table's header row on screen (the rows below the machine pane's
/// edge), the cells wait as they do off screen: the header shows lane numbers, which steps do
/// not change. The first row scrolled into view brings them up to date.
#[wasm_bindgen_test]
async fn the_register_cells_wait_while_only_the_header_row_is_on_screen() {
    let _unstyle = with_stylesheet();
    let page = mount().await;
    let root = &page.root;
    let body = one(root, ".machine-body");
    body.set_attribute("style", "overflow-anchor: none")
        .unwrap();
    registers_pushed_out_of_view(
        root,
        ".kernel k\n.registers 2\n    mov_imm r0, 1\n    mov_imm r1, 5\n    halt\n.end\n",
    )
    .await;
    // Scroll the pane so that the first row is a few pixels below the edge of what is seen: the
    // pane's bottom or, when the pane runs past it, the window's.
    let rows = one(root, "table.registers tbody");
    let header = one(root, "table.registers thead");
    let edge = || {
        let window = web_sys::window().unwrap().inner_height().unwrap();
        body.get_bounding_client_rect()
            .bottom()
            .min(window.as_f64().unwrap())
    };
    let rows_below_edge = rows.get_bounding_client_rect().top() - edge();
    body.set_scroll_top(body.scroll_top() + rows_below_edge.floor() as i32 - 3);
    // The page's observer has seen the scrolled layout: the rows are still out of its view.
    assert!(
        !in_view_as_observed(&rows).await,
        "the rows are out of view"
    );
    assert!(
        header.get_bounding_client_rect().top() < edge(),
        "the header is on screen"
    );
    assert!(
        rows.get_bounding_client_rect().top() >= edge(),
        "the rows are not"
    );
    let table = one(root, "table.registers");
    // Once the frame after the step is drawn, the table has looked whether its rows are seen.
    step_drawn(root).await;
    assert_eq!(table.get_attribute("aria-busy").as_deref(), Some("true"));
    assert!(
        register_cells(root, "r0").iter().all(|(t, _)| t == "0"),
        "{:?}",
        register_cells(root, "r0")
    );
    // One row's height further: the first row is on screen and catches up.
    body.set_scroll_top(body.scroll_top() + 20);
    wait_until(
        || table.get_attribute("aria-busy").is_none(),
        "the table with its first row on screen to catch up (no aria-busy)",
    )
    .await;
    let r0 = register_cells(root, "r0");
    assert!(r0.iter().all(|c| *c == ("1".to_string(), true)), "{r0:?}");
}

fn stack_items(root: &web_sys::HtmlElement) -> Vec<String> {
    all(root, "[aria-label='Divergence stack'] > [role=listitem]")
        .iter()
        .map(text)
        .collect()
}

/// What a step shows: the status, every lane's accessible name, the stack's items, the
/// register rows, and the timeline slider's value and text.
fn shown_views(root: &web_sys::HtmlElement) -> Vec<String> {
    let timeline = one(root, "[role=slider][aria-label=Timeline]");
    let mut shown = vec![
        status(root),
        timeline.get_attribute("aria-valuenow").unwrap_or_default(),
        timeline.get_attribute("aria-valuetext").unwrap_or_default(),
    ];
    shown.extend(lane_labels(root));
    shown.extend(stack_items(root));
    shown.extend(all(root, ".registers tbody tr").iter().map(text));
    shown
}

#[wasm_bindgen_test]
async fn step_back_shows_every_view_as_the_step_forward_did() {
    let mounted = mount().await;
    let root = &mounted.root;
    let back = button(root, "Step back");
    assert!(
        back.has_attribute("disabled"),
        "nothing to go back to at the start"
    );
    let mut forward = vec![shown_views(root)];
    for _ in 0..10 {
        step(root, 1).await;
        wait_until(
            || stack_items(root).len() == all(root, "[aria-label='Divergence stack'] > *").len(),
            "the stack's animations to end",
        )
        .await;
        forward.push(shown_views(root));
    }
    assert!(
        forward.windows(2).all(|pair| pair[0] != pair[1]),
        "every step changed something"
    );
    for (index, expected) in forward.iter().enumerate().rev().skip(1) {
        back.click();
        leptos::task::tick().await;
        wait_until(
            || shown_views(root) == *expected,
            &format!("the views of step {index} after Step back"),
        )
        .await;
    }
    assert!(back.has_attribute("disabled"), "back at the start");
}

/// The editor's highlighting (CodeMirror's WAVE mode, in JavaScript) agrees with the engine's
/// lexer on every token of every example: same text, same class.
#[wasm_bindgen_test]
async fn the_editor_highlights_every_example_as_the_engine_lexes_it() {
    let page = mount().await;
    let root = &page.root;
    let picker: web_sys::HtmlSelectElement =
        one(root, "select[aria-label=Examples]").dyn_into().unwrap();
    for example in wave_session::examples::examples() {
        picker.set_value(example.id);
        picker
            .dispatch_event(&web_sys::Event::new("change").unwrap())
            .unwrap();
        let first_line = example
            .source
            .lines()
            .next()
            .unwrap_or_default()
            .to_string();
        wait_until(
            || {
                all(root, ".cm-line")
                    .first()
                    .is_some_and(|l| text(l) == first_line)
            },
            "the example in the editor",
        )
        .await;
        let engine = wave_session::highlight_lines(&example.source);
        let drawn = all(root, ".cm-line");
        assert!(
            drawn.len() >= 10,
            "{}: {} lines drawn",
            example.id,
            drawn.len()
        );
        for (index, line) in drawn.iter().enumerate() {
            let shown: Vec<(String, String)> = all(line, "span[class^=tok-]")
                .iter()
                .map(|span| (text(span), span.get_attribute("class").unwrap_or_default()))
                .collect();
            let expected: Vec<(String, String)> = engine[index]
                .iter()
                .filter_map(|piece| {
                    let class = match piece.class? {
                        "punct" => return None,
                        "ident" | "label" => "tok-label",
                        "mnemonic" if is_control(&piece.text) => "tok-mnemonic tok-control",
                        "comment" if is_question(&piece.text) => "tok-comment tok-question",
                        other => return Some((piece.text.clone(), format!("tok-{other}"))),
                    };
                    Some((piece.text.clone(), class.to_string()))
                })
                .collect();
            assert_eq!(shown, expected, "{} line {}", example.id, index + 1);
        }
    }
}

fn is_control(mnemonic: &str) -> bool {
    matches!(
        mnemonic,
        "if" | "else"
            | "endif"
            | "loop"
            | "endloop"
            | "break"
            | "continue"
            | "call"
            | "ret"
            | "halt"
            | "barrier"
    )
}

fn is_question(comment: &str) -> bool {
    comment[1..].trim_start().starts_with('?')
}
