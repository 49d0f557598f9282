import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../../test/support/app.ts';
import {
  clientMembers,
  clientModules,
  clients,
  organizationMembers,
  organizations,
} from '../db/schema/index.ts';
import { DEMO_OWNER, DEMO_WORKSPACES, seedDemo } from './demo.ts';

describe('demo seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates an owner who can sign in, an organization and two TR workspaces, once', async () => {
    expect(await seedDemo(t.ctx.db, 'transit')).toEqual({ created: true });
    expect(await seedDemo(t.ctx.db, 'transit')).toEqual({ created: false });

    const token = await signIn(t, DEMO_OWNER.email, DEMO_OWNER.password);
    expect(token).toBeTruthy();
    const orgs = await t.ctx.db.select().from(organizations);
    expect(orgs).toHaveLength(1);
    const [membership] = await t.ctx.db
      .select()
      .from(organizationMembers)
      .where(eq(organizationMembers.organization_id, orgs[0]!.id));
    expect(membership!.role).toBe('OWNER');
    const workspaces = await t.ctx.db.select().from(clients);
    expect(workspaces.map((w) => w.name).sort()).toEqual([...DEMO_WORKSPACES].sort());
    const modules = await t.ctx.db.select().from(clientModules);
    expect(modules).toHaveLength(2);
    expect(modules.every((m) => m.module === 'TR' && m.enabled)).toBe(true);
    expect(await t.ctx.db.select().from(clientMembers)).toHaveLength(2);
  });
});
