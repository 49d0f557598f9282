import { ada } from './api-mock';

/** Members of organizations and workspaces as the API answers them, for the member pages' tests. */

type RoleKey = 'OWNER' | 'ADMIN' | 'MANAGER' | 'STAFF' | 'CLIENT';

const NAMES: Record<RoleKey, string> = {
  OWNER: 'Owner',
  ADMIN: 'Admin',
  MANAGER: 'Manager',
  STAFF: 'Staff',
  CLIENT: 'Client',
};

export const roleRef = (key: RoleKey) => ({ key, name: NAMES[key] });

export interface PersonFields {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
}

export const people = {
  ada: { id: ada.user_id, email: ada.email, first_name: 'Ada', last_name: 'Lovelace' },
  grace: {
    id: '1a2b3c4d-0000-4000-8000-000000000001',
    email: 'grace@example.com',
    first_name: 'Grace',
    last_name: 'Hopper',
  },
  linus: {
    id: '1a2b3c4d-0000-4000-8000-000000000002',
    email: 'linus@example.com',
    first_name: 'Linus',
    last_name: 'Pauling',
  },
  ken: {
    id: '1a2b3c4d-0000-4000-8000-000000000003',
    email: 'ken@example.com',
    first_name: '',
    last_name: '',
  },
} satisfies Record<string, PersonFields>;

const membershipId = (userId: string) => `aaaaaaaa${userId.slice(8)}`;

/** A member of an organization (GET /v1/organizations/{orgId}/users/…). */
export function orgMember(
  person: PersonFields,
  role: RoleKey,
  fields: Partial<{
    status: 'MEMBER' | 'PENDING';
    client_count: number;
    last_active_at: string | null;
  }> = {},
) {
  return {
    id: membershipId(person.id),
    user: { ...person, avatar: null },
    role: roleRef(role),
    status: fields.status ?? 'MEMBER',
    last_active_at:
      fields.last_active_at === undefined ? '2026-03-04T12:00:00.000Z' : fields.last_active_at,
    created: '2026-01-20T09:00:00.000Z',
    client_count: fields.client_count ?? 0,
  };
}

/** A member of a workspace (GET /v1/clients/{id}/users/). */
export function clientMember(
  person: PersonFields,
  role: RoleKey,
  fields: Partial<{ status: 'MEMBER' | 'PENDING'; organization_role: RoleKey | null }> = {},
) {
  const orgRole = fields.organization_role === undefined ? 'STAFF' : fields.organization_role;
  return {
    id: membershipId(person.id),
    user: { ...person, avatar: null },
    role: roleRef(role),
    status: fields.status ?? 'MEMBER',
    last_active_at: null,
    created: '2026-01-20T09:00:00.000Z',
    organization_role: orgRole ? roleRef(orgRole) : null,
  };
}
