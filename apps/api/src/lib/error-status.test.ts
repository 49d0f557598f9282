import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, ErrorCode } from '@portolan/contract';

describe('error statuses', () => {
  it('gives every code one status, a 4xx or a 5xx', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual(Object.keys(ErrorCode).sort());
    for (const status of Object.values(ERROR_STATUS)) {
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
    }
  });

  it('agrees with the status each code documents (": 409" in its comment)', () => {
    const source = fs.readFileSync(
      new URL('../../../../packages/contract/src/error-codes.ts', import.meta.url),
      'utf8',
    );
    const documented = [
      ...source.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*?): (\d{3})\b[\s\S]*?\*\/\s*(\w+):/g),
    ];
    expect(documented.length).toBeGreaterThan(20);
    for (const [, , status, code] of documented) {
      expect([code, ERROR_STATUS[code as ErrorCode]]).toEqual([code, Number(status)]);
    }
  });
});
