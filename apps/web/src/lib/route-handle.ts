import type { UIMatch } from 'react-router';

/** Route `handle` meta: the page title, the breadcrumb label and the spec's route name. */
export interface RouteHandle {
  title?: string;
  crumb?: string;
  name?: string;
}

export function handleOf(match: UIMatch): RouteHandle {
  const handle = match.handle;
  return typeof handle === 'object' && handle !== null ? (handle as RouteHandle) : {};
}

/** The deepest title among the matched routes. */
export function titleOf(matches: UIMatch[]): string | undefined {
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const match = matches[i];
    const title = match ? handleOf(match).title : undefined;
    if (title) return title;
  }
  return undefined;
}
