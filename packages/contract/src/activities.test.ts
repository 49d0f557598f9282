import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_ACTIONS,
  ActivityAction,
  activityCreateSchema,
  modulesMatching,
  REPORTED_ACTIVITY_ACTIONS,
} from './activities.ts';

describe('activities', () => {
  it('names every action once, by itself', () => {
    expect(new Set(ACTIVITY_ACTIONS).size).toBe(ACTIVITY_ACTIONS.length);
    for (const action of ACTIVITY_ACTIONS) expect(ActivityAction[action]).toBe(action);
    for (const action of REPORTED_ACTIVITY_ACTIONS) expect(ACTIVITY_ACTIONS).toContain(action);
  });

  it('finds modules by label or code, case-insensitively', () => {
    expect(modulesMatching('watcher')).toEqual(['MAP', 'ROG']);
    expect(modulesMatching('2D TRANSIT')).toEqual(['TR']);
    expect(modulesMatching('skuf')).toEqual(['SKUF']);
    expect(modulesMatching('  ')).toEqual([]);
    expect(modulesMatching('nothing like it')).toEqual([]);
  });

  it('lets the web app report only its own actions, on workspaces', () => {
    const base = { object_id: '0b7e6f2c-5d1a-4c3e-9f8a-1b2c3d4e5f60', object_type: 'client' };
    expect(activityCreateSchema.safeParse({ ...base, action: 'ACCESS_WORKSPACE' }).data).toEqual({
      ...base,
      action: 'ACCESS_WORKSPACE',
      data: {},
    });
    expect(activityCreateSchema.safeParse({ ...base, action: 'SIGN_IN' }).success).toBe(false);
    expect(
      activityCreateSchema.safeParse({ ...base, action: 'ACCESS_WORKSPACE', object_type: 'user' })
        .success,
    ).toBe(false);
  });
});
