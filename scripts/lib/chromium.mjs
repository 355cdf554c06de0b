// How the scripts launch Debian's Chromium through Playwright (never a Playwright-downloaded
// browser): the binary, and the switches that keep a measurement free of background work.
export function chromiumLaunchOptions(extraArgs = []) {
  return {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', ...extraArgs],
  };
}
