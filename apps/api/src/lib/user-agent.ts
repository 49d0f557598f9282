import Bowser from 'bowser';
import type { SessionDevice } from '@portolan/contract';

const DEVICES: readonly string[] = ['desktop', 'mobile', 'tablet'];

interface ParsedAgent {
  device: SessionDevice;
  browser: { name: string; version: string };
  os: { name: string; version: string };
}

function parse(userAgent: string): ParsedAgent {
  const parsed = Bowser.parse(userAgent);
  const type = parsed.platform.type ?? '';
  return {
    device: DEVICES.includes(type) ? (type as SessionDevice) : 'unknown',
    browser: { name: parsed.browser.name ?? '', version: parsed.browser.version ?? '' },
    os: { name: parsed.os.name ?? '', version: parsed.os.versionName ?? parsed.os.version ?? '' },
  };
}

/** What a User-Agent says of its device, browser and system (bowser), for people to recognise. */
export function describeUserAgent(userAgent: string | null): {
  device: SessionDevice;
  browser: string | null;
  os: string | null;
} {
  if (!userAgent) return { device: 'unknown', browser: null, os: null };
  const { device, browser, os } = parse(userAgent);
  const named = (name: string, version: string) =>
    name ? [name, version.replace(/(\.0)+$/, '')].filter(Boolean).join(' ') : null;
  return {
    device,
    browser: named(browser.name, browser.version.split('.')[0] ?? ''),
    os: named(os.name, os.version),
  };
}

/**
 * The device a session signed in from, as far as its User-Agent tells: the kind, the browser and
 * the system, without versions (an update is the same device). Null when it says nothing usable:
 * such a sign-in (a script) is never taken for a new device.
 */
export function deviceKey(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  const { device, browser, os } = parse(userAgent);
  if (!browser.name && !os.name) return null;
  return [device, browser.name, os.name].join('/').toLowerCase();
}

/** "Chrome 156 on macOS Catalina": what a person recognises a device by. */
export function deviceName(userAgent: string | null | undefined): string {
  const { browser, os } = describeUserAgent(userAgent ?? null);
  return `${browser ?? 'An unknown browser'} on ${os ?? 'an unknown system'}`;
}
