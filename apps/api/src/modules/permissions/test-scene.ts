// The scene this module's tests share: an organization with a member of each role, a workspace
// with a member of each workspace role, and a stranger who owns another organization and its
// workspace.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person } from '../../../test/support/tenants.ts';
import { addClientMember, createClient } from '../../seed/factories.ts';

/** Who acts in a workspace test: the workspace roles (and their organization roles), a stranger. */
export const WORKSPACE_PEOPLE = [
  'OWNER',
  'ADMIN',
  'MANAGER',
  'STAFF',
  'CLIENT',
  'STRANGER',
] as const;
export type WorkspacePerson = (typeof WORKSPACE_PEOPLE)[number];

export async function permissionScene(t: TestApp) {
  const s = await createTenantScene(t);
  const db = t.ctx.db;
  // OWNER owns the workspace; ADMIN is the organization's ADMIN (and so the workspace's); MANAGER
  // and STAFF are organization STAFF, CLIENT the organization's external user.
  const workspace = await createClient(db, { organizationId: s.orgId, ownerId: s.people.OWNER.id });
  const manager = await s.member('STAFF');
  const members: [Person, 'ADMIN' | 'MANAGER' | 'STAFF' | 'CLIENT'][] = [
    [s.people.ADMIN, 'ADMIN'],
    [manager, 'MANAGER'],
    [s.people.STAFF, 'STAFF'],
    [s.people.CLIENT, 'CLIENT'],
  ];
  for (const [who, role] of members) {
    await addClientMember(db, { clientId: workspace.id, userId: who.id, role });
  }
  const elsewhere = await createClient(db, {
    organizationId: s.otherOrgId,
    ownerId: s.people.STRANGER.id,
  });
  const people: Record<WorkspacePerson, Person> = {
    OWNER: s.people.OWNER,
    ADMIN: s.people.ADMIN,
    MANAGER: manager,
    STAFF: s.people.STAFF,
    CLIENT: s.people.CLIENT,
    STRANGER: s.people.STRANGER,
  };
  /** Another member of the workspace with this role. */
  const workspaceMember = async (role: 'ADMIN' | 'MANAGER' | 'STAFF' | 'CLIENT') => {
    const p = await s.member(role === 'CLIENT' ? 'CLIENT' : 'STAFF');
    await addClientMember(db, { clientId: workspace.id, userId: p.id, role });
    return p;
  };
  return {
    ...s,
    people,
    workspaceId: workspace.id,
    elsewhereId: elsewhere.id,
    workspaceMember,
    org: (path = '') => `/v1/organizations/${s.orgId}/${path}`,
    ws: (path = '') => `/v1/clients/${workspace.id}/${path}`,
  };
}
export type PermissionScene = Awaited<ReturnType<typeof permissionScene>>;

/** Asserts a 400 VALIDATION_ERROR whose details name `field`. */
export function expectFieldError(res: LightMyRequestResponse, field: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().code).toBe('VALIDATION_ERROR');
  expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
}

/** An access rule body. */
export const ruleBody = (
  name: string,
  permissions: { permission: string; status: string }[] = [
    { permission: 'tr.history.view', status: 'ALLOW' },
  ],
  extra: Record<string, unknown> = {},
) => ({ name, permissions, ...extra });
