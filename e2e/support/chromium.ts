// Debian's Chromium (never a downloaded browser), with the flags this closed, root-run machine needs.
// The headless shell (package chromium-headless-shell, the same Chromium built as the old headless
// mode, which Playwright itself uses for headless runs) when installed: it draws without the full
// browser's compositor and costs about a quarter less CPU per test; otherwise the full
// /usr/bin/chromium. CHROMIUM_PATH chooses another. Decision 0016.
import { existsSync } from 'node:fs';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL_BROWSER = '/usr/bin/chromium';

export const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_BROWSER);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
