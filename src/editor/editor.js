// The kernel editor: CodeMirror 6 with the WAVE mode, diagnostics, and the machine's state
// (breakpoints, the selected wave's line, per-line SIMD efficiency) as decorations and gutters.
// Driven from Rust through `src/codemirror.rs`; this module holds no state of the playground.

import {
  EditorState, StateEffect, StateField, Annotation, RangeSetBuilder, Prec, Compartment,
} from "@codemirror/state";
import {
  EditorView, Decoration, GutterMarker, ViewPlugin, keymap, gutter, layer, drawSelection, dropCursor,
  rectangularSelection, crosshairCursor, highlightSpecialChars, highlightActiveLineGutter, showTooltip,
} from "@codemirror/view";
import {
  syntaxHighlighting, indentOnInput, indentUnit, foldGutter, foldKeymap, codeFolding,
} from "@codemirror/language";
import { defaultKeymap, history, historyKeymap, indentWithTab, isolateHistory } from "@codemirror/commands";
import { search, searchKeymap, highlightSelectionMatches } from "@codemirror/search";
import { autocompletion, completionKeymap, snippetCompletion } from "@codemirror/autocomplete";
import { setDiagnostics, lintGutter, openLintPanel, forEachDiagnostic } from "@codemirror/lint";
import { tagHighlighter } from "@lezer/highlight";
import {
  MnemonicTable, waveLanguage, waveFolding, waveIndentation, tokenClasses, blockAt, firstWord, LINE_PREFIX,
} from "./wave-language.js";

/// Marks a change the playground made (an example, a link): it is not an edit to recompile.
const fromPlayground = Annotation.define();
const setBreakpoints = StateEffect.define();
/// The machine state changed in a way the editor must redraw for (see `machineState`): lines
/// gained or lost their heat bar, or the line's bands could not be placed without measuring.
const redrawMachineState = StateEffect.define();

/// A field holding the value of the latest `effect` in a transaction (`initial` until one comes).
function latestOf(effect, initial) {
  return StateField.define({
    create: initial,
    update: (value, tr) => tr.effects.reduce((v, e) => (e.is(effect) ? e.value : v), value),
  });
}
const breakpointField = latestOf(setBreakpoints, () => new Set());

/// What the playground last said of the machine to each editor (`setMachineState`), kept beside
/// the editor's state rather than in it: a step changes only this, and a transaction would run
/// the editor's whole update (its plugins, gutters, attributes and DOM selection) for a line
/// number and a few bars. `line`: the selected wave's line, 0 for none; `heat`: per line
/// [efficiency 0..1, executions, executions over the scale 0..1].
const machineStates = new WeakMap();
function machineState(view) {
  let state = machineStates.get(view);
  if (!state) {
    state = { line: 0, heat: new Map() };
    machineStates.set(view, state);
  }
  return state;
}
const redraws = (update) => update.transactions.some((tr) => tr.effects.some((e) => e.is(redrawMachineState)));

const breakpointLineDeco = Decoration.line({ class: "cm-bp-line" });

/// The breakpoint lines, as line decorations (visible lines only).
const breakpointLines = ViewPlugin.fromClass(
  class {
    constructor(view) {
      this.decorations = this.build(view);
    }
    update(update) {
      const changed = update.transactions.some((tr) => tr.effects.some((e) => e.is(setBreakpoints)));
      if (changed || update.docChanged || update.viewportChanged) this.decorations = this.build(update.view);
    }
    build(view) {
      const { doc } = view.state;
      const breakpoints = view.state.field(breakpointField);
      const builder = new RangeSetBuilder();
      for (const { from, to } of view.visibleRanges) {
        for (let pos = from; pos <= to;) {
          const line = doc.lineAt(pos);
          if (breakpoints.has(line.number)) builder.add(line.from, line.from, breakpointLineDeco);
          pos = line.to + 1;
        }
      }
      return builder.finish();
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/// The band of the selected wave's line (see `currentLineBand`). It is moved by a transform
/// rather than by its `top`: moving a positioned element marks the layout of every element
/// above it, and with two editors, one editor's move made the other's next measure lay the
/// page out again; a transform needs no layout.
class Band {
  constructor(left, top, width, height) {
    this.left = left;
    this.top = top;
    this.width = width;
    this.height = height;
  }
  draw() {
    const band = document.createElement("div");
    band.className = "cm-exec-line";
    band.style.top = "0";
    this.place(band);
    return band;
  }
  place(band) {
    band.style.left = `${this.left}px`;
    band.style.width = `${this.width}px`;
    moveBand(band, this.top, this.height);
  }
  update(band, previous) {
    if (previous.left !== this.left || previous.width !== this.width) {
      this.place(band);
    } else {
      moveBand(band, this.top, this.height);
    }
    return true;
  }
  eq(other) {
    return other.left === this.left && other.top === this.top && other.width === this.width
      && other.height === this.height;
  }
}

/// Where the band's layer last measured a view (see `currentLineBand`): the content's left edge
/// and width and the document's top, relative to the scrolled content's corner, the scroller's
/// height and scroll position; `scrolled` once the scroller has moved since, other than by
/// `setMachineState` (`ownScroll` until the scroll it asked for has happened).
const bandGeometry = new WeakMap();
/// The layer's element of each view, which holds the band.
const bandLayers = new WeakMap();

/// The block of `line` when the editor draws it (a line of the text, in the viewport), else null.
function drawnLineBlock(view, line) {
  if (line < 1 || line > view.state.doc.lines) return null;
  const from = view.state.doc.line(line).from;
  return view.visibleRanges.some((r) => r.from <= from && from <= r.to) ? view.lineBlockAt(from) : null;
}

/// Moves a band to `top`, as tall as its line, writing the height only when it changed.
function moveBand(band, top, height) {
  const px = `${height}px`;
  if (band.style.height !== px) band.style.height = px;
  band.style.transform = `translateY(${top}px)`;
}

/// The selected wave's line, as a band behind its text (a layer) rather than a class on the
/// line: a step that moves it moves one element, where a line decoration would have the editor
/// redraw both lines and restyle its content. It covers the line as the line's own background
/// did (a breakpoint line's translucent background shows over it), and it lies above the
/// selection layer, which the line's background used to hide too (see the extensions' order).
/// Lines folded away or out of the viewport have no band.
///
/// A step that only moves the line places the band at once from the last measured geometry and
/// CodeMirror's own line heights (`placeBand`): asking the layer to measure would run the
/// editor's whole measure cycle, which reads the layout of the page, at every step of both
/// editors in compare mode. Text, viewport and geometry changes measure as layers do.
const currentLineBand = layer({
  above: false,
  class: "cm-exec-layer",
  update: (update) => update.docChanged || update.viewportChanged || update.geometryChanged || redraws(update),
  mount(dom, view) {
    bandLayers.set(view, dom);
    // A scroll the editor did not ask for leaves the record of the scroll position stale (see
    // `lineInSight`); the scroll is not read here, in the middle of a frame.
    view.scrollDOM.addEventListener("scroll", () => {
      const geometry = bandGeometry.get(view);
      if (!geometry) return;
      if (geometry.ownScroll) geometry.ownScroll = false;
      else geometry.scrolled = true;
    }, { passive: true });
  },
  markers(view) {
    const scroller = view.scrollDOM.getBoundingClientRect();
    const content = view.contentDOM.getBoundingClientRect();
    const scrollTop = view.scrollDOM.scrollTop;
    // Relative to the scrolled content's corner, where the layer's markers are placed.
    const geometry = {
      left: content.left - scroller.left + view.scrollDOM.scrollLeft,
      top: view.documentTop - scroller.top + scrollTop,
      width: content.width,
      scrollTop,
      height: view.scrollDOM.clientHeight,
      scrolled: false,
      ownScroll: false,
    };
    bandGeometry.set(view, geometry);
    const block = drawnLineBlock(view, machineState(view).line);
    return block ? [new Band(geometry.left, geometry.top + block.top, geometry.width, block.height)] : [];
  },
});

/// Moves the drawn band to `line` without reading the layout; false when it cannot (nothing
/// measured or drawn yet, no line, or the line out of the viewport): then the layer must
/// measure. The layer's own record of what it drew is not told: it only ever compares its next
/// measurement with it, and that measurement is of the line placed here.
function placeBand(view, line) {
  const geometry = bandGeometry.get(view);
  const band = bandLayers.get(view)?.firstChild;
  const block = drawnLineBlock(view, line);
  if (!geometry || !band || !block) return false;
  moveBand(band, geometry.top + block.top, block.height);
  return true;
}

/// Whether the lines from `from` are in sight in the scroller, by the last measured geometry;
/// null when that is unknown (never measured, or scrolled since).
function lineInSight(view, from) {
  const geometry = bandGeometry.get(view);
  if (!geometry || geometry.scrolled) return null;
  const block = view.lineBlockAt(from);
  const top = geometry.top + block.top;
  return top >= geometry.scrollTop && top + block.height <= geometry.scrollTop + geometry.height;
}

/// A line number that is also the line's breakpoint button. Whether it is the wave's line is
/// shown by a band behind the gutters (`currentLineGutterBand`), so a step that moves the line
/// keeps every button as it is.
class LineButton extends GutterMarker {
  constructor(line, breakpoint, hooks) {
    super();
    this.line = line;
    this.breakpoint = breakpoint;
    this.hooks = hooks;
  }
  eq(other) {
    return other.line === this.line && other.breakpoint === this.breakpoint;
  }
  toDOM() {
    const button = document.createElement("button");
    button.type = "button";
    button.className = this.breakpoint ? "bp-toggle bp" : "bp-toggle";
    button.tabIndex = -1;
    button.setAttribute("aria-label", `Toggle breakpoint on line ${this.line}`);
    button.setAttribute("aria-pressed", this.breakpoint ? "true" : "false");
    const dot = document.createElement("span");
    dot.className = "bp-dot";
    dot.setAttribute("aria-hidden", "true");
    const number = document.createElement("span");
    number.className = "line-number";
    number.textContent = String(this.line);
    button.append(dot, number);
    const line = this.line;
    const hooks = this.hooks;
    button.addEventListener("mousedown", (event) => event.preventDefault());
    button.addEventListener("click", () => hooks.toggleBreakpoint(line));
    return button;
  }
}

/// The selected wave's line across the gutters: a band behind the line numbers, in line with
/// the band behind the text (`currentLineBand`). A step that moves the line moves this one
/// element; a class on the line's gutter element would have every gutter compare its markers
/// for every line at each step. Placed as `placeBand` places the other: from where the gutters
/// were last measured and CodeMirror's line heights, measuring only when the text, the
/// viewport or the geometry change.
const currentLineGutterBand = ViewPlugin.fromClass(class {
  constructor(view) {
    this.band = document.createElement("div");
    this.band.className = "cm-exec-gutter-line";
    this.band.setAttribute("aria-hidden", "true");
    this.band.hidden = true;
    // The first line's top within the gutters; null until measured.
    this.top = null;
    this.measureRequest = {
      key: this,
      read: (view) => {
        const gutters = view.dom.querySelector(".cm-gutters");
        return gutters ? { gutters, top: view.documentTop - gutters.getBoundingClientRect().top } : null;
      },
      write: (measured, view) => {
        if (!measured) return;
        if (this.band.parentNode !== measured.gutters) measured.gutters.appendChild(this.band);
        this.top = measured.top;
        this.place(view);
      },
    };
    view.requestMeasure(this.measureRequest);
  }
  update(update) {
    if (update.docChanged || update.viewportChanged || update.geometryChanged) {
      update.view.requestMeasure(this.measureRequest);
    } else if (redraws(update)) {
      this.place(update.view);
    }
  }
  /// Follows the line (`setMachineState` calls it when the line moves).
  place(view) {
    const block = this.top === null ? null : drawnLineBlock(view, machineState(view).line);
    if (this.band.hidden !== !block) this.band.hidden = !block;
    if (block) moveBand(this.band, this.top + block.top, block.height);
  }
  destroy() {
    this.band.remove();
  }
});

/// As many 9s as `lines` has digits: the widest line number the gutter must fit.
const widestNumber = (lines) => String(lines).replace(/./g, "9");

class Spacer extends GutterMarker {
  constructor(text) {
    super();
    this.text = text;
  }
  eq(other) {
    return other.text === this.text;
  }
  toDOM() {
    const span = document.createElement("span");
    span.className = "bp-toggle";
    span.innerHTML = '<span class="bp-dot"></span><span class="line-number"></span>';
    span.lastChild.textContent = this.text;
    return span;
  }
}

function breakpointGutter(hooks) {
  return gutter({
    class: "cm-bp-gutter",
    lineMarker(view, block) {
      const line = view.state.doc.lineAt(block.from).number;
      return new LineButton(line, view.state.field(breakpointField).has(line), hooks);
    },
    lineMarkerChange: (update) => update.transactions.some((tr) => tr.effects.some((e) => e.is(setBreakpoints))),
    initialSpacer: (view) => new Spacer(widestNumber(view.state.doc.lines)),
    // The same spacer while the line count keeps its digits: the gutter compares a new one with
    // the old on every update (every step), and keeps the old one without asking when it is
    // the same object.
    updateSpacer: (spacer, update) => {
      const text = widestNumber(update.state.doc.lines);
      return text === spacer.text ? spacer : new Spacer(text);
    },
  });
}

/// Brings a heat bar up to date with `heat` ([SIMD efficiency 0..1, executions, share of the
/// gutter's width]), writing only what changed.
function showHeat(bar, heat) {
  const shown = bar.waveHeat;
  if (shown === heat) return;
  const [efficiency, executions, share] = heat;
  if (shown?.[0] !== efficiency) bar.style.setProperty("--heat", efficiency.toFixed(3));
  // The bar's length where the gutter is wide enough to show it (two runs compared).
  if (shown?.[2] !== share) bar.style.setProperty("--share", share.toFixed(3));
  if (shown?.[0] !== efficiency || shown?.[1] !== executions) {
    bar.title = `${executions} wave-instructions, SIMD efficiency ${Math.round(efficiency * 100)}%`;
  }
  bar.waveHeat = heat;
}

/// A line's heat bar. Markers of the same line are equal whatever their heat, so the gutter
/// keeps a line's bar while its heat changes, and `heatBars` rewrites the bar's colour, length
/// and hover text in place: a step changes a few style properties instead of replacing the bars
/// of the lines it ran.
class HeatMarker extends GutterMarker {
  constructor(line, heat, bars) {
    super();
    this.line = line;
    this.heat = heat;
    this.bars = bars;
  }
  eq(other) {
    return other.line === this.line;
  }
  toDOM() {
    const bar = document.createElement("span");
    bar.className = "heat shown";
    showHeat(bar, this.heat);
    bar.setAttribute("aria-hidden", "true");
    this.bars.set(this.line, bar);
    return bar;
  }
  destroy(dom) {
    if (this.bars.get(this.line) === dom) this.bars.delete(this.line);
  }
}

/// The heat gutter; `bars` holds the bar shown for each line.
function heatGutter(bars) {
  return gutter({
    class: "cm-heat-gutter",
    lineMarker(view, block) {
      const line = view.state.doc.lineAt(block.from).number;
      const heat = machineState(view).heat.get(line);
      return heat ? new HeatMarker(line, heat, bars) : null;
    },
    // Only when lines gain or lose their bar: a bar's colour, length and hover text change in
    // place (`showHeats`), and asking would have the gutters compare every line's markers anew.
    lineMarkerChange: redraws,
  });
}

/// Brings every bar the heat gutter shows up to date with `heat`.
function showHeats(bars, heat) {
  for (const [line, bar] of bars) {
    const now = heat.get(line);
    if (now) showHeat(bar, now);
  }
}

/// Rewrites the bars the heat gutter keeps when the text changes (lines move under them).
function heatBars(bars) {
  return ViewPlugin.define((view) => ({
    update(update) {
      if (update.docChanged) showHeats(bars, machineState(view).heat);
    },
  }));
}

/// The diagnostic under the caret as a tooltip, so a keyboard user reads what the mouse user
/// reads on hover. Shown after the caret moves, hidden on the next edit.
const caretDiagnostic = StateField.define({
  create: () => null,
  update(value, tr) {
    if (tr.docChanged) return null;
    if (!tr.selection && !tr.effects.length) return value;
    if (tr.selection && !tr.isUserEvent("select")) return null;
    const { head, empty } = tr.state.selection.main;
    if (!empty) return null;
    const found = [];
    forEachDiagnostic(tr.state, (d, from, to) => {
      if (from <= head && head <= Math.max(to, from + 1)) found.push(d);
    });
    if (!found.length) return null;
    return {
      pos: head,
      above: false,
      create() {
        const dom = document.createElement("div");
        dom.className = "cm-caret-diagnostic";
        dom.setAttribute("aria-live", "polite");
        for (const d of found) {
          const item = document.createElement("div");
          item.className = `cm-diagnostic cm-diagnostic-${d.severity}`;
          item.textContent = `${d.severity}: ${d.message}`;
          dom.append(item);
        }
        return { dom };
      },
    };
  },
  provide: (field) => showTooltip.from(field),
});

const matchDeco = Decoration.mark({ class: "cm-block-match" });
const unmatchedDeco = Decoration.mark({ class: "cm-block-unmatched" });

/// With the caret on `if`, `else`, `endif`, `loop`, `endloop`, `.kernel` or `.end` (or on a
/// `break`/`continue`), marks the keywords of that block, or the lone keyword when unmatched.
const blockMatching = ViewPlugin.fromClass(
  class {
    constructor(view) {
      this.decorations = this.build(view.state);
    }
    update(update) {
      if (update.docChanged || update.selectionSet) this.decorations = this.build(update.state);
    }
    build(state) {
      const { doc } = state;
      const head = state.selection.main.head;
      const line = doc.lineAt(head);
      const word = firstWord(line.text);
      if (!word) return Decoration.none;
      const start = line.from + line.text.indexOf(word);
      if (head < start || head > start + word.length) return Decoration.none;
      const block = blockAt(doc, line.number);
      if (!block) return Decoration.none;
      const deco = block.complete ? matchDeco : unmatchedDeco;
      const ranges = [...new Set(block.lines)].sort((a, b) => a - b).map((n) => {
        const l = doc.line(n);
        const w = firstWord(l.text);
        const at = l.from + l.text.indexOf(w);
        return deco.range(at, at + w.length);
      });
      return Decoration.set(ranges);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/// Labels defined in the document (`name:` at the start of a line).
function labelsIn(doc) {
  const labels = new Map();
  for (let n = 1; n <= doc.lines; n++) {
    const match = /^\s*([A-Za-z_]\w*):/.exec(doc.line(n).text);
    if (match && !labels.has(match[1])) labels.set(match[1], n);
  }
  return labels;
}

function completions(table) {
  const mnemonics = table.entries.map(({ name, operands }) =>
    operands
      ? snippetCompletion(`${name} ${operands.split(", ").map((o) => "${" + o + "}").join(", ")}`,
        { label: name, detail: operands, type: "keyword" })
      : { label: name, type: "keyword" });
  const specials = table.specials.map((name) => ({ label: name, type: "constant" }));
  // Nothing but what may come before a mnemonic: the word being typed is one.
  const onlyPrefix = new RegExp(`${LINE_PREFIX.source}$`);
  return (context) => {
    const word = context.matchBefore(/[.\w]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    const line = context.state.doc.lineAt(context.pos);
    const before = line.text.slice(0, word.from - line.from);
    const opcodePosition = onlyPrefix.test(before);
    if (opcodePosition) return { from: word.from, options: mnemonics, validFor: /^[\w.]*$/ };
    if (/[;#]/.test(before)) return null;
    const labels = [...labelsIn(context.state.doc).keys()].map((label) => ({ label, type: "variable", detail: "label" }));
    return { from: word.from, options: [...labels, ...specials], validFor: /^\w*$/ };
  };
}

/// Moves the caret to the definition of the label under it. True when there was one.
function goToDefinition(view, pos = view.state.selection.main.head) {
  const word = view.state.wordAt(pos);
  if (!word) return false;
  const name = view.state.sliceDoc(word.from, word.to);
  const line = labelsIn(view.state.doc).get(name);
  if (!line) return false;
  const target = view.state.doc.line(line);
  const at = target.from + target.text.indexOf(name);
  view.dispatch({ selection: { anchor: at, head: at + name.length }, scrollIntoView: true, userEvent: "select" });
  return true;
}

const theme = EditorView.theme({
  "&": { height: "100%", backgroundColor: "var(--code-bg)", color: "var(--text)", fontSize: "var(--code-size)" },
  "&.cm-focused": { outline: "2px solid color-mix(in srgb, var(--focus) 60%, transparent)", outlineOffset: "-2px" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "var(--code-line)" },
  ".cm-content": { caretColor: "var(--text)", padding: "var(--code-pad) 0 calc(var(--code-pad) + 40px)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--text)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection":
    { backgroundColor: "color-mix(in srgb, var(--accent) 30%, transparent)" },
  ".cm-gutters": { backgroundColor: "var(--panel-2)", color: "var(--muted)", borderRight: "1px solid var(--panel-edge)" },
  ".cm-activeLineGutter": { backgroundColor: "transparent", color: "var(--text)" },
  ".cm-panels": { backgroundColor: "var(--panel)", color: "var(--text)" },
  ".cm-panels.cm-panels-top": { borderBottom: "1px solid var(--panel-edge)" },
  ".cm-panels.cm-panels-bottom": { borderTop: "1px solid var(--panel-edge)" },
  ".cm-tooltip": { backgroundColor: "var(--panel)", color: "var(--text)", border: "1px solid var(--panel-edge)" },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": { backgroundColor: "var(--accent)", color: "var(--accent-text)" },
  ".cm-searchMatch": { backgroundColor: "color-mix(in srgb, var(--warning) 30%, transparent)" },
  ".cm-searchMatch-selected": { backgroundColor: "color-mix(in srgb, var(--accent) 40%, transparent)" },
  ".cm-foldPlaceholder": { backgroundColor: "var(--panel-2)", color: "var(--muted)", border: "1px solid var(--panel-edge)" },
  ".cm-textfield": { backgroundColor: "var(--code-bg)", color: "var(--text)", border: "1px solid var(--panel-edge)" },
  ".cm-button": { backgroundImage: "none", backgroundColor: "var(--panel-2)", color: "var(--text)", border: "1px solid var(--panel-edge)" },
});

/// What the playground gives the editor: the engine's tables, and callbacks for edits
/// (`changed(lineCount)`), caret moves (`caret(line)`) and breakpoint toggles (`toggleBreakpoint(line)`).
export class WaveEditor {
  constructor(parent, text, mnemonics, cacheHints, specials, changed, caret, toggleBreakpoint) {
    const hooks = { changed, caret, toggleBreakpoint };
    this.hooks = hooks;
    const bars = new Map();
    this.bars = bars;
    const table = new MnemonicTable(mnemonics, cacheHints, specials);
    const toggleAtCaret = (view) => {
      hooks.toggleBreakpoint(view.state.doc.lineAt(view.state.selection.main.head).number);
      return true;
    };
    const withoutModEnter = defaultKeymap.filter((binding) => binding.key !== "Mod-Enter");
    this.editing = new Compartment();
    this.view = new EditorView({
      parent,
      state: EditorState.create({
        doc: text,
        extensions: [
          breakpointGutter(hooks),
          lintGutter(),
          heatGutter(bars),
          heatBars(bars),
          foldGutter(),
          highlightActiveLineGutter(),
          highlightSpecialChars(),
          history(),
          codeFolding(),
          // Before `drawSelection`: the band is drawn over the selection, as the line's
          // background was.
          currentLineBand,
          drawSelection(),
          dropCursor(),
          EditorState.allowMultipleSelections.of(true),
          indentUnit.of("    "),
          EditorState.tabSize.of(4),
          indentOnInput(),
          rectangularSelection(),
          crosshairCursor(),
          highlightSelectionMatches(),
          search({ top: true }),
          waveLanguage(table),
          syntaxHighlighting(tagHighlighter(tokenClasses)),
          waveFolding,
          waveIndentation,
          blockMatching,
          autocompletion({ override: [completions(table)], icons: false }),
          breakpointField,
          breakpointLines,
          currentLineGutterBand,
          caretDiagnostic,
          Prec.high(keymap.of([
            { key: "Mod-F9", run: toggleAtCaret, preventDefault: true },
            { key: "F12", run: (view) => goToDefinition(view) },
            { key: "Mod-Shift-m", run: openLintPanel },
          ])),
          keymap.of([...completionKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap, ...withoutModEnter, indentWithTab]),
          EditorView.domEventHandlers({
            mousedown(event, view) {
              if (!(event.ctrlKey || event.metaKey) || event.button !== 0) return false;
              const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
              return pos !== null && goToDefinition(view, pos) && (event.preventDefault(), true);
            },
          }),
          EditorView.contentAttributes.of({
            "aria-label": "Kernel source",
            "aria-multiline": "true",
            spellcheck: "false",
            autocapitalize: "off",
            autocorrect: "off",
          }),
          theme,
          this.editing.of([]),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !update.transactions.every((tr) => tr.annotation(fromPlayground))) {
              hooks.changed(update.state.doc.lines);
            }
            if (update.selectionSet || update.docChanged) {
              hooks.caret(update.state.doc.lineAt(update.state.selection.main.head).number);
            }
          }),
        ],
      }),
    });
    // CodeMirror hides its gutters from assistive technology; the line numbers here are the
    // breakpoint buttons, so only the other gutters stay hidden.
    this.view.dom.querySelector(".cm-gutters")?.removeAttribute("aria-hidden");
    for (const other of this.view.dom.querySelectorAll(".cm-gutter:not(.cm-bp-gutter)")) {
      other.setAttribute("aria-hidden", "true");
    }
  }

  text() {
    return this.view.state.doc.toString();
  }

  /// An embedded page may show its kernel read-only: no typing, and assistive technology is
  /// told so; selecting and copying still work.
  setReadOnly(readOnly) {
    this.view.dispatch({
      effects: this.editing.reconfigure(readOnly
        ? [EditorState.readOnly.of(true), EditorView.contentAttributes.of({ "aria-readonly": "true" })]
        : []),
    });
  }

  /// Replaces the whole text (an example, a link). Undo brings the previous text back.
  setText(text) {
    if (this.view.state.doc.toString() === text) return;
    this.view.dispatch({
      changes: { from: 0, to: this.view.state.doc.length, insert: text },
      selection: { anchor: 0 },
      annotations: [fromPlayground.of(true), isolateHistory.of("full")],
      scrollIntoView: true,
    });
  }

  /// `list`: [from, to, severity, message, ...] flattened, in UTF-16 offsets of the current text.
  setDiagnostics(list) {
    const diagnostics = [];
    const length = this.view.state.doc.length;
    for (let i = 0; i + 3 < list.length; i += 4) {
      const from = Math.min(list[i], length);
      const to = Math.min(Math.max(list[i + 1], from), length);
      diagnostics.push({ from, to, severity: list[i + 2], message: list[i + 3] });
    }
    // Nothing to change, nothing dispatched: every update reads the DOM selection, which makes
    // the browser lay out whatever is pending (at the app's start, the whole new page). What
    // was last sent decides, not the count in the state: an edit over a diagnostic's text
    // drops its range but leaves its gutter marker until diagnostics are set again.
    if (diagnostics.length === 0 && !this.diagnosticsShown) return;
    this.diagnosticsShown = diagnostics.length > 0;
    this.view.dispatch(setDiagnostics(this.view.state, diagnostics));
  }

  setBreakpoints(lines) {
    const wanted = new Set(lines);
    const current = this.view.state.field(breakpointField);
    if (wanted.size === current.size && [...wanted].every((line) => current.has(line))) return;
    this.view.dispatch({ effects: setBreakpoints.of(wanted) });
  }

  /// What a step changes, in one update: the selected wave's line (0 for none) and the heat as
  /// parallel arrays (line numbers, SIMD efficiency 0..1, executions), with the executions a
  /// full-length bar stands for (`scale`). When the line moves out of sight, the editor scrolls
  /// to it; the page around the editor stays where it is.
  setMachineState(line, heatLines, efficiency, executions, scale) {
    const view = this.view;
    const state = machineState(view);
    const moved = line !== state.line;
    // No line and no heat, as before (a page that has not run yet): nothing to do.
    if (!moved && heatLines.length === 0 && state.heat.size === 0) return;
    const heat = new Map();
    // In twentieths, so a step that moves the busiest line's count rewrites few bars; no scale
    // (a single run): every bar full.
    const share = (count) => (scale > 0 ? Math.max(1, Math.round((count / scale) * 20)) / 20 : 1);
    heatLines.forEach((n, i) => heat.set(n, [efficiency[i], executions[i], Math.min(share(executions[i]), 1)]));
    // A transaction only when the editor must redraw: lines gaining or losing a bar (the gutter
    // makes or drops it), or a band that cannot be placed without measuring.
    let redraw = heat.size !== state.heat.size || heatLines.some((n) => !state.heat.has(n));
    state.heat = heat;
    state.line = line;
    showHeats(this.bars, heat);
    if (moved) {
      if (!placeBand(view, line)) redraw = true;
      view.plugin(currentLineGutterBand)?.place(view);
    }
    if (redraw) view.dispatch({ effects: redrawMachineState.of(null) });
    if (!moved || line < 1 || line > view.state.doc.lines) return;
    const from = view.state.doc.line(line).from;
    // Known to be in sight: no measure (see `currentLineBand`).
    if (lineInSight(view, from)) return;
    view.requestMeasure({
      key: "wave-current-line",
      read(view) {
        const scroller = view.scrollDOM;
        const block = view.lineBlockAt(from);
        const scrollTop = scroller.scrollTop;
        const height = scroller.clientHeight;
        const top = view.documentTop - scroller.getBoundingClientRect().top + scrollTop + block.top;
        // What the band's layer keeps, brought up to date now that the layout is read anyway.
        const geometry = bandGeometry.get(view);
        if (geometry) Object.assign(geometry, { scrollTop, height, scrolled: false });
        if (top >= scrollTop && top + block.height <= scrollTop + height) return null;
        const wanted = Math.max(0, Math.min(top - height / 3, scroller.scrollHeight - height));
        return wanted === scrollTop ? null : wanted;
      },
      write(scrollTop, view) {
        if (scrollTop === null) return;
        view.scrollDOM.scrollTop = scrollTop;
        // The scroll event this causes is ours: the geometry knows where it leads.
        const geometry = bandGeometry.get(view);
        if (geometry) Object.assign(geometry, { scrollTop, ownScroll: true });
      },
    });
  }

  destroy() {
    this.view.destroy();
  }
}
