// What the WebDriver walks (tests/firefox/, tests/webkit/) share: finding elements by their
// accessible names (WebDriver's computed label), as a person using a screen reader would find
// them, clicking them where a person would see them, and waiting for the page's words.
import { By } from 'selenium-webdriver';

export const WAIT_MS = 20_000;

// The helpers bound to one browser session.
export function helpers(driver) {
  // The first element matching `css` whose accessible name is `name` (or matches it).
  const named = (css, name) => driver.wait(async () => {
    for (const element of await driver.findElements(By.css(css))) {
      const label = await element.getAccessibleName().catch(() => '');
      if (typeof name === 'string' ? label === name : name.test(label)) return element;
    }
    return false;
  }, WAIT_MS, `no ${css} named ${name}`);

  // Clicks `element` once it is in the middle of its scroll container: WebDriver clicks an
  // element that is on screen where it is, even when the machine pane's sticky run controls
  // cover it.
  const press = async (element) => {
    await driver.executeScript("arguments[0].scrollIntoView({ block: 'center' })", element);
    await element.click();
  };

  const text = async (css) => (await driver.findElement(By.css(css))).getText();

  const waitForText = (css, expected) => driver.wait(async () => {
    const now = await text(css).catch(() => '');
    return typeof expected === 'string' ? now === expected : expected.test(now);
  }, WAIT_MS, `${css} never read ${expected}`);

  const body = () => driver.findElement(By.css('body'));

  // Waits until `element` no longer says it is catching up (`aria-busy`): a view off screen may
  // show its numbers once the steps pause.
  const settled = (element) => driver.wait(async () => (await element.getAttribute('aria-busy')) !== 'true',
    WAIT_MS, 'the element stayed busy');

  return { named, press, text, waitForText, body, settled };
}
