import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  can,
  canActOnRole,
  effectiveWorkspaceRole,
  hasUserAction,
  isAtLeast,
  isFullyOwned,
  ORG_PERMISSIONS,
  ORG_ROLES,
  passesSecondCheck,
  rolesWith,
  showsOrganizationGear,
  showsWorkspaceGear,
  WORKSPACE_PERMISSIONS,
  type OrgPermission,
  type WorkspacePermission,
} from './access.ts';
import { ROLES, type Role } from './constants.ts';

const role = fc.constantFrom(...ROLES);
const orgRole = fc.option(fc.constantFrom(...ORG_ROLES), { nil: null });
const workspaceRole = fc.option(role, { nil: null });
const orgPermission = fc.constantFrom(...(Object.keys(ORG_PERMISSIONS) as OrgPermission[]));
const workspacePermission = fc.constantFrom(
  ...(Object.keys(WORKSPACE_PERMISSIONS) as WorkspacePermission[]),
);

describe('can', () => {
  it('gives nothing to someone outside the organization and the workspace', () => {
    fc.assert(
      fc.property(fc.oneof(orgPermission, workspacePermission), (permission) => {
        expect(can({ orgRole: null, workspaceRole: null }, permission)).toBe(false);
      }),
    );
  });

  it('is monotonic: a stronger organization role never loses a permission', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ORG_ROLES),
        fc.constantFrom(...ORG_ROLES),
        orgPermission,
        (a, b, p) => {
          fc.pre(isAtLeast(a, b));
          if (can({ orgRole: b }, p)) expect(can({ orgRole: a }, p)).toBe(true);
        },
      ),
    );
  });

  it('lets organization OWNER and ADMIN do everything in every workspace of theirs', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('OWNER', 'ADMIN' as const),
        workspaceRole,
        workspacePermission,
        (o, w, p) => {
          expect(can({ orgRole: o, workspaceRole: w }, p)).toBe(true);
        },
      ),
    );
  });

  it('rolesWith names exactly the roles that can (what queries select by role)', () => {
    fc.assert(
      fc.property(orgPermission, fc.constantFrom(...ORG_ROLES), (p, r) => {
        expect(rolesWith(p).includes(r)).toBe(can({ orgRole: r }, p));
      }),
    );
    fc.assert(
      fc.property(workspacePermission, role, (p, r) => {
        expect(rolesWith(p).includes(r)).toBe(can({ orgRole: null, workspaceRole: r }, p));
      }),
    );
    // The catalogue entries that replaced "OWNER or ADMIN" spelled by hand hold exactly those.
    expect(rolesWith('organization.clients.manage')).toEqual(['OWNER', 'ADMIN']);
    expect(rolesWith('client.shareLinks.manage')).toEqual(['OWNER', 'ADMIN']);
    expect(rolesWith('client.update')).toEqual(['OWNER', 'ADMIN']);
  });

  it('never lets a CLIENT of the organization manage it', () => {
    for (const p of Object.keys(ORG_PERMISSIONS) as OrgPermission[]) {
      const expected = p === 'organization.read' || p === 'organization.clients.read';
      expect(can({ orgRole: 'CLIENT' }, p)).toBe(expected);
    }
  });

  it('grants workspace permissions by the stronger of the two roles', () => {
    fc.assert(
      fc.property(orgRole, workspaceRole, (o, w) => {
        const effective = effectiveWorkspaceRole({ orgRole: o, workspaceRole: w });
        if (w) expect(effective && isAtLeast(effective, w)).toBe(true);
        if (o === 'OWNER' || o === 'ADMIN') expect(effective && isAtLeast(effective, o)).toBe(true);
        if (!w && o !== 'OWNER' && o !== 'ADMIN') expect(effective).toBeNull();
      }),
    );
  });

  it('matches the table of spec §6 and REFERENCE for workspace actions', () => {
    const modules = (w: Role) =>
      can({ orgRole: 'STAFF', workspaceRole: w }, 'client.modules.update');
    expect(ROLES.filter(modules)).toEqual(['OWNER', 'ADMIN', 'MANAGER']);
    const update = (w: Role) => can({ orgRole: 'STAFF', workspaceRole: w }, 'client.update');
    expect(ROLES.filter(update)).toEqual(['OWNER', 'ADMIN']);
  });
});

describe('the rules of spec §6', () => {
  it('acting on another user’s role', () => {
    const table: Record<Role, Role[]> = {
      OWNER: ['OWNER', 'ADMIN', 'MANAGER', 'STAFF', 'CLIENT'],
      ADMIN: ['ADMIN', 'MANAGER', 'STAFF', 'CLIENT'],
      MANAGER: ['MANAGER', 'STAFF', 'CLIENT'],
      STAFF: [],
      CLIENT: [],
    };
    for (const actor of ROLES)
      expect(ROLES.filter((t) => canActOnRole(actor, t))).toEqual(table[actor]);
    fc.assert(
      fc.property(role, (t) => {
        expect(canActOnRole(null, t)).toBe(false);
      }),
    );
  });

  it('the second check and hasUserAction: OWNER always, ADMIN except on an OWNER, nobody else', () => {
    fc.assert(
      fc.property(fc.option(role, { nil: null }), role, (actor, target) => {
        const expected = actor === 'OWNER' || (actor === 'ADMIN' && target !== 'OWNER');
        expect(passesSecondCheck(actor, target)).toBe(expected);
        expect(hasUserAction(actor, target)).toBe(expected);
      }),
    );
  });

  it('an organization is fully owned when every other member is an active OWNER', () => {
    const member = fc.record({
      user_id: fc.uuid(),
      role,
      status: fc.constantFrom('MEMBER', 'PENDING' as const),
    });
    fc.assert(
      fc.property(fc.uuid(), fc.array(member, { maxLength: 8 }), (me, others) => {
        const members = [
          { user_id: me, role: 'OWNER' as const, status: 'MEMBER' as const },
          ...others,
        ];
        const expected = others
          .filter((m) => m.user_id !== me)
          .every((m) => m.role === 'OWNER' && m.status === 'MEMBER');
        expect(isFullyOwned(members, me)).toBe(expected);
      }),
    );
    expect(isFullyOwned([{ user_id: 'a', role: 'OWNER', status: 'MEMBER' }], 'a')).toBe(true);
    expect(
      isFullyOwned(
        [
          { user_id: 'a', role: 'OWNER', status: 'MEMBER' },
          { user_id: 'b', role: 'OWNER', status: 'PENDING' },
        ],
        'a',
      ),
    ).toBe(false);
  });

  it('shows the gears to the roles of spec §6', () => {
    expect(ORG_ROLES.filter((r) => showsOrganizationGear({ has_access: true, role: r }))).toEqual([
      'OWNER',
      'ADMIN',
      'STAFF',
    ]);
    expect(showsOrganizationGear({ has_access: false, role: 'OWNER' })).toBe(false);
    expect(showsWorkspaceGear({ orgRole: 'STAFF', workspaceRole: 'ADMIN' })).toBe(true);
    expect(showsWorkspaceGear({ orgRole: 'ADMIN', workspaceRole: null })).toBe(true);
    expect(showsWorkspaceGear({ orgRole: 'STAFF', workspaceRole: 'MANAGER' })).toBe(false);
  });
});
