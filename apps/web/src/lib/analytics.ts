import type { PublicConfig } from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useMatches } from 'react-router';
import { publicConfigKey, publicConfigQueryOptions } from './config';
import { queryClient } from './query-client';

/**
 * Analytics (spec §1 "analytics enabled"): page views and a few named events go to the sink the
 * server names in GET /v1/config (`analytics`: set only when FEATURE_ANALYTICS is on and an id and
 * a URL are configured). With `analytics` null, or the config not loaded, nothing happens at all:
 * no request, no script, no cookie, no storage.
 *
 * No personal data leaves: no e-mail, no names, no query string (it can hold tokens), and the
 * path is masked (UUIDs become `:id`, token-like segments `:token`, addresses `:email`). Events
 * carry only the properties their caller gives, which must not be personal either.
 */

export type AnalyticsSink = NonNullable<PublicConfig['analytics']>;

/** The named events of the product's journeys (one `track` call where each succeeds). */
export type AnalyticsEvent =
  | 'sign-up completed'
  | 'sign-in'
  | 'workspace created'
  | 'organization created'
  | 'plan checkout started'
  | 'fund package checkout started'
  | 'invitation sent';

export type AnalyticsProps = Record<string, string | number | boolean | null>;

/** What the sink receives, as one JSON text per page view or event. */
export interface AnalyticsPayload {
  id: string;
  type: 'pageview' | 'event';
  name: string;
  path: string;
  props: AnalyticsProps;
  ts: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A segment that looks like a secret: long, URL-safe, with both letters and digits. */
const TOKEN = /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_.~-]{16,}$/;

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The path with every identifying segment replaced: `/ps/<uuid>/dashboard` → `/ps/:id/dashboard`. */
export function maskPath(pathname: string): string {
  const segments = pathname.split('/');
  return segments
    .map((raw, i) => {
      const segment = decoded(raw);
      if (segment === '') return raw;
      // A share link's token, whatever it looks like (it is the link's whole secret).
      if (i > 0 && segments[i - 1] === 'share') return ':token';
      if (UUID.test(segment) || /^\d+$/.test(segment)) return ':id';
      if (segment.includes('@')) return ':email';
      if (TOKEN.test(segment)) return ':token';
      return raw;
    })
    .join('/');
}

/** The sink of the loaded public config; null when analytics is off, unconfigured or unknown yet. */
export function currentSink(): AnalyticsSink | null {
  return queryClient.getQueryData<PublicConfig>(publicConfigKey)?.analytics ?? null;
}

/** Sends one payload: a beacon (it survives leaving the page), else a keepalive fetch. */
function send(sink: AnalyticsSink, payload: AnalyticsPayload): void {
  // A plain text body (a CORS-safelisted type): no preflight, and the sink parses the JSON.
  const body = JSON.stringify(payload);
  try {
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(sink.url, body)) return;
  } catch {
    // A beacon refused (too large, a bad URL): try fetch.
  }
  try {
    void fetch(sink.url, {
      method: 'POST',
      body,
      keepalive: true,
      mode: 'no-cors',
      credentials: 'omit',
      headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
    }).catch(() => {});
  } catch {
    // Analytics never breaks the page.
  }
}

function payload(
  sink: AnalyticsSink,
  type: AnalyticsPayload['type'],
  name: string,
  pathname: string,
  props: AnalyticsProps,
): AnalyticsPayload {
  return {
    id: sink.id,
    type,
    name,
    path: maskPath(pathname),
    props,
    ts: new Date().toISOString(),
  };
}

/** A named event at the current page; nothing at all when analytics is off. */
export function track(event: AnalyticsEvent, props: AnalyticsProps = {}): void {
  const sink = currentSink();
  if (!sink) return;
  send(sink, payload(sink, 'event', event, window.location.pathname, props));
}

/** A page view of `pathname`, named after its route (`ps-dashboard`); nothing when off. */
export function trackPageView(pathname: string, routeName?: string, sink = currentSink()): void {
  if (!sink) return;
  send(sink, payload(sink, 'pageview', routeName ?? 'page', pathname, {}));
}

/** The deepest route name among the matches (the spec's route names: `Login`, `ps-dashboard`). */
function routeNameOf(matches: ReturnType<typeof useMatches>): string | undefined {
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle as { name?: unknown } | null | undefined;
    if (handle && typeof handle.name === 'string') return handle.name;
  }
  return undefined;
}

/**
 * One page view per location (React's second run of an effect in development sends nothing
 * again), once the public config says where. Reads the config from the cache without fetching
 * it: the entry script prefetches it (lib/prefetch.ts), and analytics never causes a request.
 */
export function useAnalyticsPageViews(): void {
  const { data } = useQuery({ ...publicConfigQueryOptions(), enabled: false });
  const sink = data?.analytics ?? null;
  const location = useLocation();
  const name = routeNameOf(useMatches());
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (!sink || sent.current === location.key) return;
    sent.current = location.key;
    trackPageView(location.pathname, name, sink);
  }, [sink, location.key, location.pathname, name]);
}
