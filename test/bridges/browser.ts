/**
 * A real headless Chromium for the dashboard's tests and benchmark: Debian's `chromium` package, driven
 * by playwright-core (which downloads nothing). Tests skip, with one line saying why, where it is missing.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's package puts it. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Whether Chromium is installed here. */
export const hasChromium = existsSync(CHROMIUM_PATH);

/** The one line a skipped browser test prints. */
export const NO_CHROMIUM = `browser tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium)`;

/**
 * A fresh headless Chromium (playwright gives it a new, empty --user-data-dir); close it with `browser.close()`.
 * Each `browser.newContext()` is one person: its own cookies.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
