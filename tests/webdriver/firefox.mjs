// The Firefox session every Firefox walk (tests/firefox/) starts: Debian's firefox-esr, headless,
// through geckodriver (GECKODRIVER, else the one on PATH; FIREFOX_BIN picks another binary), in a
// 1400 × 1000 window.
import { execFileSync } from 'node:child_process';
import { Builder } from 'selenium-webdriver';
import firefox from 'selenium-webdriver/firefox.js';

export async function startFirefox() {
  const geckodriver = process.env.GECKODRIVER || execFileSync('sh', ['-c', 'command -v geckodriver']).toString().trim();
  const options = new firefox.Options().addArguments('-headless').windowSize({ width: 1400, height: 1000 });
  if (process.env.FIREFOX_BIN) options.setBinary(process.env.FIREFOX_BIN);
  return new Builder()
    .forBrowser('firefox')
    .setFirefoxOptions(options)
    .setFirefoxService(new firefox.ServiceBuilder(geckodriver))
    .build();
}
