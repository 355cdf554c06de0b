// Waiting for Chromium's own work to settle before a measured visit begins.
//
// Every browser context opens a window of its own, and a new window of headless Chromium loads
// the address bar's suggestion popups, which are pages themselves (`chrome://omnibox-popup.top-chrome`,
// in a renderer of their own): about 1.3 s of CPU in the 1.5 s after the window opens, on this
// machine's two cores. A visitor's window was opened long before they followed the link, so a
// visit measured while that work runs measures the browser's window, not the page. The scripts
// that time a visit from a fresh context therefore wait until the whole browser is quiet.

const SAMPLE_MS = 200;
// Less CPU than this over a sample, all of Chromium's processes together, is quiet: the browser
// process alone answering the protocol and drawing an idle window takes a few milliseconds.
const QUIET_MS = 15;
const GIVE_UP_MS = 8000;

// CPU seconds used so far by every process of the browser (`SystemInfo.getProcessInfo`, on a
// session of the browser, not of a page).
async function cpuSeconds(browserSession) {
  const { processInfo } = await browserSession.send('SystemInfo.getProcessInfo');
  return processInfo.reduce((sum, process) => sum + process.cpuTime, 0);
}

// Resolves once the browser's processes together used less than QUIET_MS of CPU over one
// sample, or after GIVE_UP_MS (a machine busy with other work may never look quiet; the visit is
// measured then as it would have been). Gives how long it waited, in milliseconds.
export async function untilBrowserIdle(browserSession) {
  const start = performance.now();
  let before = await cpuSeconds(browserSession);
  while (performance.now() - start < GIVE_UP_MS) {
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    const now = await cpuSeconds(browserSession);
    if ((now - before) * 1000 < QUIET_MS) break;
    before = now;
  }
  return performance.now() - start;
}
