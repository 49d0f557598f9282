import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded the first time it is used rather than at start: for the large ones only some
 * requests need (PDF, Stripe, SMTP, CSS and HTML sanitizing), whose code and source text would
 * otherwise sit in every server process's memory from the start (issue 12: idle memory).
 */
export function lazyModule<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
