// A `page` fixture that records every page error and console error, and fails the test on any.
import { test as base, expect } from '@playwright/test';

export const test = base.extend({
  page: async ({ page }, use) => {
    const problems = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    await use(page);
    expect(problems, 'no page error or console error').toEqual([]);
  },
});

export { expect };
