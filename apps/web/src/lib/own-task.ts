/** Resolves in a new task (a zero timeout): what follows runs once the browser had the thread back. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The query with its request started in a task of its own. Background reads that become due
 * together (the billing reads 3 s after opening; the bell's count and the release notes' dot once
 * the first screen is drawn) otherwise start in one effect flush: starting a request (the fetch,
 * its headers, the loading store) costs a slow phone some 30 ms, and together with the render
 * that enabled them they made one long task (total blocking time, issue 18 item 17).
 */
export function startedInOwnTask<O extends { queryFn?: unknown }>(options: O): O {
  const queryFn = options.queryFn;
  if (typeof queryFn !== 'function') return options;
  const run = queryFn as (context: unknown) => unknown;
  return { ...options, queryFn: (context: unknown) => nextTask().then(() => run(context)) };
}
