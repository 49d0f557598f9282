// Types of eslint-boundaries.js for the tests that use its functions.
export function boundaryProblem(from: string, to: string): string | null;
export function readModuleGraph(): Map<string, Set<string>>;
export function cycleThrough(
  graph: Map<string, Iterable<string>>,
  start: string,
  goal: string,
): string[] | null;
declare const plugin: { rules: Record<string, unknown> };
export default plugin;
