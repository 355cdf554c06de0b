// Waiting for Chromium's own work to settle before a measured visit begins.
//
// Every browser context opens a window of its own, and a new window of headless Chromium loads
// the address bar's suggestion popups, which are pages themselves (`chrome://omnibox-popup.top-chrome`,
// in a renderer of their own): about 1.3 s of CPU in the 1.5 s after the window opens, on this
// machine's two cores. A visitor's window was opened long before they followed the link, so a
// visit measured while that work runs measures the browser's window, not the page.
// scripts/load-budget.mjs therefore waits until the whole browser is quiet before each visit.

const SAMPLE_MS = 200;
// Less CPU than this per SAMPLE_MS, all of Chromium's processes together, is quiet: the browser
// process alone answering the protocol and drawing an idle window takes a few milliseconds.
const QUIET_MS = 15;
// Quiet samples in a row: one could fall between the window opening and its popups starting.
const QUIET_SAMPLES = 2;
export const GIVE_UP_MS = 8000;

// CPU seconds used so far by each process of the browser, by process id
// (`SystemInfo.getProcessInfo`, on a session of the browser, not of a page).
async function cpuByProcess(browserSession) {
  const { processInfo } = await browserSession.send('SystemInfo.getProcessInfo');
  return new Map(processInfo.map((process) => [process.id, process.cpuTime]));
}

// The CPU the browser's processes used between two readings, in milliseconds: a process that
// ended meanwhile (the last visit's renderers closing) counts for nothing, one that started
// counts whole.
function usedMs(before, now) {
  let seconds = 0;
  for (const [id, cpu] of now) seconds += Math.max(0, cpu - (before.get(id) ?? 0));
  return seconds * 1000;
}

// Resolves once the browser's processes together used less than QUIET_MS of CPU per SAMPLE_MS
// over QUIET_SAMPLES samples in a row, or after GIVE_UP_MS (a machine busy with other work may
// never look quiet; the visit is measured then as it would have been). Gives how long it waited
// in milliseconds, and whether the browser was quiet by then.
export async function untilBrowserIdle(browserSession) {
  const start = performance.now();
  let before = await cpuByProcess(browserSession);
  let sampled = performance.now();
  let quietSamples = 0;
  while (performance.now() - start < GIVE_UP_MS) {
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    const now = await cpuByProcess(browserSession);
    const at = performance.now();
    // A timer that fires late on a busy machine makes a longer sample, allowed more CPU.
    const quiet = usedMs(before, now) < (QUIET_MS * (at - sampled)) / SAMPLE_MS;
    quietSamples = quiet ? quietSamples + 1 : 0;
    if (quietSamples >= QUIET_SAMPLES) return { waitedMs: at - start, quiet: true };
    before = now;
    sampled = at;
  }
  return { waitedMs: performance.now() - start, quiet: false };
}
