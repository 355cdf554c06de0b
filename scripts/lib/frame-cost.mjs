// What one frame costs the page when a single text on it changes: the part of a step's frame that
// does not depend on what the step changed (`node scripts/bench-browser.mjs --only frame`).
//
// For each target, `frames` times (`--steps`): in a `requestAnimationFrame` callback the target's
// last text node gets a space added or taken off at its end (a changed text node, which the
// browser must lay out again, repaint and commit, though the space itself shows nothing), and the
// time runs from that callback to the first task after the frame (a MessageChannel message posted
// in the callback), as `wave:step-render` does. "nothing" changes no text: the cost of a frame
// with nothing to draw.
import { median, percentile } from './stats.mjs';

// Targets by CSS selector, the first match; a target the page does not show is left out.
const TARGETS = [
  ['nothing', null],
  ["the run's status (run A's in compare mode)", '.status'],
  ["the step count (run A's in compare mode)", '.step-count'],
  ["the page's name", 'h1'],
  ['a cell of the comparison (compare mode)', 'table.comparison td'],
];

export async function benchFrame(page, frames) {
  const results = [];
  for (const [label, selector] of TARGETS) {
    const times = await page.evaluate(async ({ selector, frames }) => {
      let text = null;
      if (selector !== null) {
        const element = document.querySelector(selector);
        if (!element || element.getClientRects().length === 0) return null;
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
          if (walker.currentNode.data.trim() !== '') text = walker.currentNode;
        }
        if (text === null) return null;
      }
      const channel = new MessageChannel();
      const out = [];
      for (let i = 0; i < frames; i++) {
        // A pause between frames, so that each is measured on its own.
        await new Promise((resolve) => setTimeout(resolve, 30));
        out.push(await new Promise((resolve) => requestAnimationFrame(() => {
          if (text !== null) text.data = text.data.endsWith(' ') ? text.data.slice(0, -1) : `${text.data} `;
          const start = performance.now();
          channel.port1.onmessage = () => resolve(performance.now() - start);
          channel.port2.postMessage(null);
        })));
      }
      return out;
    }, { selector, frames });
    if (times !== null) results.push({ label, times });
  }
  return results;
}

export function reportFrame(lines, options, results) {
  const mode = options.compare ? 'compare mode, run B a copy of run A' : 'one run';
  lines.push(`One frame with a single text changed (lesson \`${options.lesson}\`, ${options.width} lanes, ${mode}, Memory tab open, window height ${options.height}), ${results[0]?.times.length ?? 0} frames each, from the frame's \`requestAnimationFrame\` callback to the first task after it:`);
  lines.push('');
  lines.push('| text changed | median | p90 |');
  lines.push('|---|---:|---:|');
  for (const { label, times } of results) {
    lines.push(`| ${label} | ${median(times).toFixed(1)} ms | ${percentile(times, 90).toFixed(1)} ms |`);
  }
  lines.push('');
}
