// The WAVE assembly language for CodeMirror: a line tokenizer, indentation, folding and the
// matching of block keywords. The mnemonic and special-register tables come from the engine
// (see `WaveEditor` in editor.js), so the editor never disagrees with the assembler about what a
// mnemonic is.

import { StreamLanguage, foldService, indentService, indentUnit } from "@codemirror/language";
import { tags } from "@lezer/highlight";

/// Token names the tokenizer returns, and the class each gets (styled in style/main.css).
export const waveTags = {
  mnemonic: tags.keyword,
  control: tags.controlKeyword,
  register: tags.variableName,
  predicate: tags.special(tags.variableName),
  special: tags.standard(tags.variableName),
  directive: tags.processingInstruction,
  label: tags.labelName,
  labelRef: tags.special(tags.labelName),
  number: tags.number,
  comment: tags.lineComment,
  question: tags.docComment,
  punctuation: tags.punctuation,
  invalid: tags.invalid,
  name: tags.name,
};

export const tokenClasses = [
  { tag: waveTags.mnemonic, class: "tok-mnemonic" },
  { tag: waveTags.control, class: "tok-mnemonic tok-control" },
  { tag: waveTags.register, class: "tok-register" },
  { tag: waveTags.predicate, class: "tok-predicate" },
  { tag: waveTags.special, class: "tok-special" },
  { tag: waveTags.directive, class: "tok-directive" },
  { tag: waveTags.label, class: "tok-label" },
  { tag: waveTags.labelRef, class: "tok-label" },
  { tag: waveTags.number, class: "tok-number" },
  { tag: waveTags.comment, class: "tok-comment" },
  { tag: waveTags.question, class: "tok-comment tok-question" },
  { tag: waveTags.invalid, class: "tok-invalid" },
];

/// Mnemonics that open, split or close a block, or leave one.
const CONTROL = new Set(["if", "else", "endif", "loop", "endloop", "break", "continue", "call", "ret", "halt", "barrier"]);
const OPENERS = { if: "endif", loop: "endloop", ".kernel": ".end" };
const CLOSERS = { endif: "if", endloop: "loop", ".end": ".kernel" };

/// A comment that asks the learner a question: `; ?mask`, `; ?next`, `; ?stack`, `; ?value r4`.
const QUESTION = /^[;#]\s*\?/;
const WORD = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/;
// As the assembler reads a number: hex runs on over word characters; a decimal may carry an
// exponent sign right after its `e`.
const NUMBER = /^-?(?:0[xX][A-Za-z0-9_]*|[0-9](?:[eE][+-][0-9]|[A-Za-z0-9_.])*)/;

/// The mnemonic table as the engine gives it: `name<TAB>operands` lines, and the cache hints.
export class MnemonicTable {
  constructor(table, cacheHints, specials) {
    this.entries = [];
    this.names = new Set();
    for (const line of table.split("\n")) {
      if (!line) continue;
      const [name, operands = ""] = line.split("\t");
      this.entries.push({ name, operands });
      this.names.add(name);
    }
    this.cacheHints = new Set(cacheHints.split(" ").filter(Boolean));
    this.specials = specials.split(" ").filter(Boolean);
    this.specialSet = new Set(this.specials);
  }

  /// As the assembler reads a written mnemonic: cache hints dropped, dots read as underscores.
  resolves(written) {
    const parts = written.split(".");
    while (parts.length > 1 && this.cacheHints.has(parts[parts.length - 1])) parts.pop();
    return this.names.has(parts.join("_"));
  }
}

/// What may stand before a line's mnemonic or directive: indentation, a label, a guard.
export const LINE_PREFIX = /^\s*(?:[A-Za-z_]\w*:\s*)?(?:@!?p\d\s+)?/;
const FIRST_WORD = new RegExp(`${LINE_PREFIX.source}(\\.?[A-Za-z_][\\w.]*)`);

/// The first word of a line (after a label and a guard), or "".
export function firstWord(text) {
  const match = FIRST_WORD.exec(text);
  return match ? match[1] : "";
}

export function waveLanguage(table) {
  return StreamLanguage.define({
    name: "wave",
    startState: () => ({ operands: false }),
    token(stream, state) {
      if (stream.sol()) state.operands = false;
      if (stream.eatSpace()) return null;
      const ch = stream.peek();
      if (ch === ";" || ch === "#") {
        const question = QUESTION.test(stream.string.slice(stream.pos));
        stream.skipToEnd();
        return question ? "question" : "comment";
      }
      if (ch === "," || ch === "@" || ch === "!") {
        stream.next();
        return "punctuation";
      }
      if (stream.match(/^\.[A-Za-z_]\w*/)) {
        state.operands = true;
        return "directive";
      }
      if (stream.match(NUMBER)) return "number";
      const word = stream.match(WORD);
      if (word) {
        const text = word[0];
        if (!text.includes(".") && stream.peek() === ":") {
          stream.next();
          return "label";
        }
        if (/^r[0-9]/.test(text)) return /^r[0-9]+(\.(lo|hi))?$/.test(text) ? "register" : "invalid";
        if (/^p[0-9]/.test(text)) return /^p[0-3]$/.test(text) ? "predicate" : "invalid";
        if (text.startsWith("sr_")) return table.specialSet.has(text) ? "special" : "invalid";
        if (!state.operands) {
          state.operands = true;
          if (table.resolves(text)) return CONTROL.has(text) ? "control" : "mnemonic";
          return "invalid";
        }
        return "labelRef";
      }
      stream.next();
      return "invalid";
    },
    languageData: {
      commentTokens: { line: ";" },
      indentOnInput: /^\s*(else|endif|endloop|\.end)$/,
    },
    tokenTable: waveTags,
  });
}

/// The line holding the block keyword that pairs with line `number`'s, scanning in `direction`
/// (+1 or -1) for `wanted` and counting nested blocks of the same kind. Null when unmatched.
function scan(doc, number, direction, wanted) {
  const opening = direction > 0 ? CLOSERS[wanted] : OPENERS[wanted];
  let depth = 0;
  for (let n = number + direction; n >= 1 && n <= doc.lines; n += direction) {
    const word = firstWord(doc.line(n).text);
    if (word === opening) depth += 1;
    else if (word === wanted) {
      if (depth === 0) return n;
      depth -= 1;
    }
  }
  return null;
}

/// The `else` of the `if` on line `ifLine` closed on `endifLine`, at its own nesting level.
function elseOf(doc, ifLine, endifLine) {
  let depth = 0;
  for (let n = ifLine + 1; n < endifLine; n++) {
    const word = firstWord(doc.line(n).text);
    if (word === "if") depth += 1;
    else if (word === "endif") depth -= 1;
    else if (word === "else" && depth === 0) return n;
  }
  return null;
}

/// The lines of the block a keyword line belongs to (opener, middle, closer), or null when the
/// line holds no block keyword. `complete` says whether every part was found.
export function blockAt(doc, number) {
  const word = firstWord(doc.line(number).text);
  let open = null;
  let close = null;
  if (word in OPENERS) {
    open = number;
    close = scan(doc, number, 1, OPENERS[word]);
  } else if (word in CLOSERS) {
    close = number;
    open = scan(doc, number, -1, CLOSERS[word]);
  } else if (word === "else") {
    open = scan(doc, number, -1, "if");
    close = scan(doc, number, 1, "endif");
  } else if (word === "break" || word === "continue") {
    open = scan(doc, number, -1, "loop");
    close = scan(doc, number, 1, "endloop");
    return { lines: [number, open, close].filter((n) => n !== null), complete: open !== null && close !== null };
  } else {
    return null;
  }
  const lines = [open, close];
  if (open !== null && close !== null && firstWord(doc.line(open).text) === "if") lines.push(elseOf(doc, open, close));
  if (word === "else") lines.push(number);
  return { lines: lines.filter((n) => n !== null), complete: open !== null && close !== null };
}

/// Folds an `if` (to its `else` or `endif`), an `else`, a `loop` and a `.kernel`, keeping the
/// closing line visible.
export const waveFolding = foldService.of((state, lineStart) => {
  const line = state.doc.lineAt(lineStart);
  const word = firstWord(line.text);
  if (!(word in OPENERS) && word !== "else") return null;
  const wanted = word === "else" ? "endif" : OPENERS[word];
  let end = scan(state.doc, line.number, 1, wanted);
  if (end === null) return null;
  if (word === "if") end = elseOf(state.doc, line.number, end) ?? end;
  if (end <= line.number + 1) return null;
  return { from: line.to, to: state.doc.line(end - 1).to };
});

/// Indents one unit inside `if`/`else`/`loop` and inside a kernel; a closing keyword lines up
/// with its opener. Works on the context's lines, so a line break being typed counts.
export const waveIndentation = indentService.of((context, pos) => {
  const doc = context.state.doc;
  const unit = context.state.facet(indentUnit).length;
  const current = context.lineAt(pos, 1);
  // With a break simulated inside line N, the part before it is line N itself.
  const realLine = doc.lineAt(current.from).number + (current.from > doc.lineAt(current.from).from ? 1 : 0);
  const word = firstWord(current.text);
  const partner = word in CLOSERS ? CLOSERS[word] : word === "else" ? "if" : null;
  if (partner) {
    const open = scan(doc, realLine, -1, partner);
    return open === null ? null : context.lineIndent(doc.line(open).from, -1);
  }
  for (let end = current.from - 1; end >= 0;) {
    const line = context.lineAt(end, -1);
    end = line.from - 1;
    if (!line.text.trim() || /^\s*[;#]/.test(line.text)) continue;
    const previous = firstWord(line.text);
    const indent = /^\s*/.exec(line.text)[0].replace(/\t/g, " ".repeat(unit)).length;
    if (previous === ".end") return 0;
    if (previous === ".kernel") return indent;
    if (previous.startsWith(".")) return Math.max(indent, unit);
    if (previous === "if" || previous === "else" || previous === "loop") return indent + unit;
    return indent;
  }
  return 0;
});
