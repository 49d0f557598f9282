// The failed Vitest tests, read from its JSON report, so that the summary at the end of `npm test`
// names them: a CI log is often read from its tail, and Vitest's own failure list is hundreds of
// lines above it, before the browser tests' output.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface JsonReport {
  testResults?: {
    name: string;
    status: string;
    message?: string;
    assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

/** One line per failed test (or failed file, when the file itself failed to run). */
export function vitestFailures(reportFile: string, root: string): string[] {
  if (!existsSync(reportFile)) return [];
  let report: JsonReport;
  try {
    report = JSON.parse(readFileSync(reportFile, 'utf8')) as JsonReport;
  } catch {
    return [];
  }
  const lines: string[] = [];
  for (const file of report.testResults ?? []) {
    const name = path.relative(root, file.name);
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const test of failed) {
      lines.push(`${name} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
    if (failed.length === 0 && file.status === 'failed') {
      lines.push(`${name}: ${firstLine(file.message)}`);
    }
  }
  return lines;
}

function firstLine(text: string | undefined): string {
  const line = (text ?? '').split('\n', 1)[0]!.trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line || '(no message)';
}
