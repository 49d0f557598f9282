import type { OrgRole } from '@portolan/contract';
import type { LightMyRequestResponse } from 'fastify';
import {
  addOrganizationMember,
  createOrganization,
  createUser,
  FACTORY_PASSWORD,
} from '../../src/seed/factories.ts';
import { bearer, type TestApp } from './app.ts';

/** Who a tenant test acts as: the organization's roles, and the OWNER of another organization. */
export const ORG_PEOPLE = ['OWNER', 'ADMIN', 'STAFF', 'CLIENT', 'STRANGER'] as const;
export type OrgPerson = (typeof ORG_PEOPLE)[number];

export interface Person {
  id: string;
  email: string;
  token: string;
}

export interface TenantScene {
  orgId: string;
  otherOrgId: string;
  people: Record<OrgPerson, Person>;
  /** A new signed-in user (not a member of anything until the test makes them one). */
  person(fields?: { first_name?: string; last_name?: string; email?: string }): Promise<Person>;
  /** A new member of the organization with this role. */
  member(role: OrgRole): Promise<Person>;
  /** An inject with the person's token (none for 'anonymous'). */
  send(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    who: Person | 'anonymous',
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
}

let address = 0;

/** Signs in from an address of its own, so a test file's sign-ins never meet the per-IP limit. */
async function signInFresh(t: TestApp, email: string): Promise<string> {
  const n = address++;
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/rest-auth/app/login/',
    payload: { email, password: FACTORY_PASSWORD },
    remoteAddress: `10.77.${Math.floor(n / 250)}.${(n % 250) + 1}`,
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
  const token = res.json().token as string;
  // The session cache holds it, as after any user's first request (counted requests are their own work).
  const me = await t.app.inject({
    method: 'GET',
    url: '/v1/rest-auth/user/',
    headers: { authorization: `Bearer ${token}` },
  });
  if (me.statusCode !== 200) throw new Error(`the new session was refused: ${me.body}`);
  return token;
}

/**
 * An organization with a signed-in OWNER, ADMIN, STAFF and CLIENT member, and a STRANGER who owns
 * another organization.
 */
export async function createTenantScene(t: TestApp): Promise<TenantScene> {
  const person: TenantScene['person'] = async (fields = {}) => {
    const row = await createUser(t.ctx.db, fields);
    return { id: row.id, email: row.email, token: await signInFresh(t, row.email) };
  };
  const owner = await person({ first_name: 'Olive', last_name: 'Owner' });
  const org = await createOrganization(t.ctx.db, { ownerId: owner.id });
  const member: TenantScene['member'] = async (role) => {
    const p = await person({ first_name: role.charAt(0) + role.slice(1).toLowerCase() });
    await addOrganizationMember(t.ctx.db, { organizationId: org.id, userId: p.id, role });
    return p;
  };
  const admin = await member('ADMIN');
  const staff = await member('STAFF');
  const client = await member('CLIENT');
  const stranger = await person({ first_name: 'Stan', last_name: 'Stranger' });
  const other = await createOrganization(t.ctx.db, { ownerId: stranger.id });
  return {
    orgId: org.id,
    otherOrgId: other.id,
    people: { OWNER: owner, ADMIN: admin, STAFF: staff, CLIENT: client, STRANGER: stranger },
    person,
    member,
    send: (method, url, who, payload) =>
      t.app.inject({
        method,
        url,
        headers: who === 'anonymous' ? {} : bearer(who.token),
        ...(payload !== undefined && { payload: payload as object }),
      }),
  };
}
