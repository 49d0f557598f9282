import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canActOnRole,
  effectiveWorkspaceRole,
  hasUserAction,
  isAtLeast,
  ORG_ROLES,
  passesSecondCheck,
  type OrgRole,
} from './access.ts';
import { ROLES, type Role } from './constants.ts';
import {
  canAddWorkspaceMember,
  canChangeOrgRole,
  canChangeWorkspaceRole,
  canRemoveOrgMember,
  canRemoveWorkspaceMember,
  MEMBER_REFUSAL_MESSAGES,
  MEMBER_REFUSALS,
  type MemberRefusal,
  type WorkspaceActorRef,
} from './member-rules.ts';

/**
 * Every (acting role × member's role) of spec §6 and REFERENCE "Who may do what", each row the
 * answer written out by hand (null: allowed), not recomputed with the rules under test.
 */

const ok = null;
const NOT_PERMITTED = 'NOT_PERMITTED';
const SELF = 'SELF';
const TARGET = 'TARGET_OUTRANKS';
const ROLE = 'ROLE_OUTRANKS';
const WS_OWNER_ROLE = 'WORKSPACE_OWNER_ROLE';
const WS_OWNER = 'WORKSPACE_OWNER';
type Answer = MemberRefusal | null;

const ME = 'actor';
const THEM = 'member';

describe('canChangeOrgRole', () => {
  // [acting role, member's role, answer for new role OWNER, ADMIN, STAFF, CLIENT]
  const others: [OrgRole, OrgRole, [Answer, Answer, Answer, Answer]][] = [
    ['OWNER', 'OWNER', [ok, ok, ok, ok]],
    ['OWNER', 'ADMIN', [ok, ok, ok, ok]],
    ['OWNER', 'STAFF', [ok, ok, ok, ok]],
    ['OWNER', 'CLIENT', [ok, ok, ok, ok]],
    ['ADMIN', 'OWNER', [TARGET, TARGET, TARGET, TARGET]],
    ['ADMIN', 'ADMIN', [ROLE, ok, ok, ok]],
    ['ADMIN', 'STAFF', [ROLE, ok, ok, ok]],
    ['ADMIN', 'CLIENT', [ROLE, ok, ok, ok]],
    ['STAFF', 'OWNER', [NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED]],
    ['STAFF', 'ADMIN', [NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED]],
    ['STAFF', 'STAFF', [NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED]],
    ['STAFF', 'CLIENT', [NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED]],
    ['CLIENT', 'OWNER', [NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED]],
    ['CLIENT', 'ADMIN', [NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED]],
    ['CLIENT', 'STAFF', [NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED]],
    ['CLIENT', 'CLIENT', [NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED]],
  ];
  it.each(others)('%s changing a %s to OWNER, ADMIN, STAFF, CLIENT', (actor, target, answers) => {
    const got = ORG_ROLES.map((newRole) =>
      canChangeOrgRole({ userId: ME, role: actor }, { userId: THEM, role: target }, newRole),
    );
    expect(got).toEqual(answers);
  });

  // One's own role: stepping down is allowed (the server keeps the last OWNER), raising never.
  const own: [OrgRole, [Answer, Answer, Answer, Answer]][] = [
    ['OWNER', [ok, ok, ok, ok]],
    ['ADMIN', [ROLE, ok, ok, ok]],
    ['STAFF', [NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED]],
    ['CLIENT', [NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED]],
  ];
  it.each(own)('%s changing their own role', (role, answers) => {
    const self = { userId: ME, role };
    expect(ORG_ROLES.map((newRole) => canChangeOrgRole(self, self, newRole))).toEqual(answers);
  });
});

describe('canRemoveOrgMember', () => {
  // [acting role, answer for a member who is OWNER, ADMIN, STAFF, CLIENT, and for oneself]
  const rows: [OrgRole, [Answer, Answer, Answer, Answer], Answer][] = [
    ['OWNER', [ok, ok, ok, ok], SELF],
    ['ADMIN', [TARGET, ok, ok, ok], SELF],
    ['STAFF', [NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED], NOT_PERMITTED],
    ['CLIENT', [NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED], NOT_PERMITTED],
  ];
  it.each(rows)('%s removing an OWNER, ADMIN, STAFF, CLIENT, themself', (actor, answers, self) => {
    const me = { userId: ME, role: actor };
    expect(ORG_ROLES.map((role) => canRemoveOrgMember(me, { userId: THEM, role }))).toEqual(
      answers,
    );
    expect(canRemoveOrgMember(me, me)).toBe(self);
  });
});

/** Who acts in a workspace: their organization role and their own workspace membership's role. */
const WORKSPACE_ACTORS: Record<string, Omit<WorkspaceActorRef, 'userId'>> = {
  'organization OWNER': { orgRole: 'OWNER', role: null },
  'organization ADMIN': { orgRole: 'ADMIN', role: null },
  'organization ADMIN, workspace OWNER': { orgRole: 'ADMIN', role: 'OWNER' },
  'workspace OWNER': { orgRole: 'STAFF', role: 'OWNER' },
  'workspace ADMIN': { orgRole: 'STAFF', role: 'ADMIN' },
  'workspace MANAGER': { orgRole: 'STAFF', role: 'MANAGER' },
  'workspace STAFF': { orgRole: 'STAFF', role: 'STAFF' },
  'workspace CLIENT': { orgRole: 'CLIENT', role: 'CLIENT' },
  'organization STAFF outside the workspace': { orgRole: 'STAFF', role: null },
};
type WorkspaceActor = keyof typeof WORKSPACE_ACTORS;
type Five = [Answer, Answer, Answer, Answer, Answer];
const NONE: Five = [NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED, NOT_PERMITTED];
const actorOf = (name: WorkspaceActor): WorkspaceActorRef => ({
  userId: ME,
  ...WORKSPACE_ACTORS[name]!,
});

describe('canChangeWorkspaceRole', () => {
  // [actor, member's role, answer for new role OWNER, ADMIN, MANAGER, STAFF, CLIENT]
  const rows: [WorkspaceActor, Role, Five][] = [
    ['organization OWNER', 'OWNER', [ok, ok, ok, ok, ok]],
    ['organization OWNER', 'ADMIN', [ok, ok, ok, ok, ok]],
    ['organization OWNER', 'MANAGER', [ok, ok, ok, ok, ok]],
    ['organization OWNER', 'STAFF', [ok, ok, ok, ok, ok]],
    ['organization OWNER', 'CLIENT', [ok, ok, ok, ok, ok]],
    ['organization ADMIN', 'OWNER', [ROLE, ok, ok, ok, ok]],
    ['organization ADMIN', 'ADMIN', [ROLE, ok, ok, ok, ok]],
    ['organization ADMIN', 'MANAGER', [ROLE, ok, ok, ok, ok]],
    ['organization ADMIN', 'STAFF', [ROLE, ok, ok, ok, ok]],
    ['organization ADMIN', 'CLIENT', [ROLE, ok, ok, ok, ok]],
    ['organization ADMIN, workspace OWNER', 'OWNER', [ok, ok, ok, ok, ok]],
    ['organization ADMIN, workspace OWNER', 'ADMIN', [ok, ok, ok, ok, ok]],
    ['organization ADMIN, workspace OWNER', 'MANAGER', [ok, ok, ok, ok, ok]],
    ['organization ADMIN, workspace OWNER', 'STAFF', [ok, ok, ok, ok, ok]],
    ['organization ADMIN, workspace OWNER', 'CLIENT', [ok, ok, ok, ok, ok]],
    [
      'workspace OWNER',
      'OWNER',
      [WS_OWNER_ROLE, WS_OWNER_ROLE, WS_OWNER_ROLE, WS_OWNER_ROLE, WS_OWNER_ROLE],
    ],
    ['workspace OWNER', 'ADMIN', [ok, ok, ok, ok, ok]],
    ['workspace OWNER', 'MANAGER', [ok, ok, ok, ok, ok]],
    ['workspace OWNER', 'STAFF', [ok, ok, ok, ok, ok]],
    ['workspace OWNER', 'CLIENT', [ok, ok, ok, ok, ok]],
    [
      'workspace ADMIN',
      'OWNER',
      [WS_OWNER_ROLE, WS_OWNER_ROLE, WS_OWNER_ROLE, WS_OWNER_ROLE, WS_OWNER_ROLE],
    ],
    ['workspace ADMIN', 'ADMIN', [ROLE, ok, ok, ok, ok]],
    ['workspace ADMIN', 'MANAGER', [ROLE, ok, ok, ok, ok]],
    ['workspace ADMIN', 'STAFF', [ROLE, ok, ok, ok, ok]],
    ['workspace ADMIN', 'CLIENT', [ROLE, ok, ok, ok, ok]],
    [
      'workspace MANAGER',
      'OWNER',
      [WS_OWNER_ROLE, WS_OWNER_ROLE, WS_OWNER_ROLE, WS_OWNER_ROLE, WS_OWNER_ROLE],
    ],
    ['workspace MANAGER', 'ADMIN', [TARGET, TARGET, TARGET, TARGET, TARGET]],
    ['workspace MANAGER', 'MANAGER', [ROLE, ROLE, ok, ok, ok]],
    ['workspace MANAGER', 'STAFF', [ROLE, ROLE, ok, ok, ok]],
    ['workspace MANAGER', 'CLIENT', [ROLE, ROLE, ok, ok, ok]],
    ['workspace STAFF', 'OWNER', NONE],
    ['workspace STAFF', 'ADMIN', NONE],
    ['workspace STAFF', 'MANAGER', NONE],
    ['workspace STAFF', 'STAFF', NONE],
    ['workspace STAFF', 'CLIENT', NONE],
    ['workspace CLIENT', 'OWNER', NONE],
    ['workspace CLIENT', 'ADMIN', NONE],
    ['workspace CLIENT', 'MANAGER', NONE],
    ['workspace CLIENT', 'STAFF', NONE],
    ['workspace CLIENT', 'CLIENT', NONE],
    ['organization STAFF outside the workspace', 'STAFF', NONE],
  ];
  it.each(rows)(
    '%s changing a %s to OWNER, ADMIN, MANAGER, STAFF, CLIENT',
    (actor, target, answers) => {
      const got = ROLES.map((newRole) =>
        canChangeWorkspaceRole(actorOf(actor), { userId: THEM, role: target }, newRole),
      );
      expect(got).toEqual(answers);
    },
  );

  // Never one's own workspace role; those who manage nobody are told that first.
  const own: [WorkspaceActor, Role, Answer][] = [
    ['organization OWNER', 'OWNER', SELF],
    ['organization ADMIN, workspace OWNER', 'OWNER', SELF],
    ['workspace ADMIN', 'ADMIN', SELF],
    ['workspace MANAGER', 'MANAGER', SELF],
    ['workspace STAFF', 'STAFF', NOT_PERMITTED],
    ['workspace CLIENT', 'CLIENT', NOT_PERMITTED],
  ];
  it.each(own)('%s changing their own role', (actor, role, answer) => {
    for (const newRole of ROLES) {
      expect(canChangeWorkspaceRole(actorOf(actor), { userId: ME, role }, newRole)).toBe(answer);
    }
  });
});

describe('canRemoveWorkspaceMember', () => {
  // [actor, answer for a member who is OWNER, ADMIN, MANAGER, STAFF, CLIENT, and for oneself]
  const rows: [WorkspaceActor, Five, Answer][] = [
    ['organization OWNER', [WS_OWNER, ok, ok, ok, ok], SELF],
    ['organization ADMIN', [WS_OWNER, ok, ok, ok, ok], SELF],
    ['organization ADMIN, workspace OWNER', [WS_OWNER, ok, ok, ok, ok], SELF],
    ['workspace OWNER', [WS_OWNER, ok, ok, ok, ok], SELF],
    ['workspace ADMIN', [WS_OWNER, ok, ok, ok, ok], SELF],
    ['workspace MANAGER', [WS_OWNER, TARGET, ok, ok, ok], SELF],
    ['workspace STAFF', NONE, NOT_PERMITTED],
    ['workspace CLIENT', NONE, NOT_PERMITTED],
    ['organization STAFF outside the workspace', NONE, NOT_PERMITTED],
  ];
  it.each(rows)(
    '%s removing an OWNER, ADMIN, MANAGER, STAFF, CLIENT, themself',
    (actor, answers, self) => {
      const me = actorOf(actor);
      expect(ROLES.map((role) => canRemoveWorkspaceMember(me, { userId: THEM, role }))).toEqual(
        answers,
      );
      expect(canRemoveWorkspaceMember(me, { userId: ME, role: 'STAFF' })).toBe(self);
    },
  );
});

describe('a workspace member who is an organization OWNER or ADMIN (§6: ADMIN on anyone except an OWNER)', () => {
  // [actor, the member's organization role, their workspace role, answer for a change to STAFF, removal]
  const rows: [WorkspaceActor, OrgRole, Role, Answer, Answer][] = [
    ['organization ADMIN, workspace OWNER', 'OWNER', 'OWNER', TARGET, WS_OWNER],
    ['organization ADMIN, workspace OWNER', 'OWNER', 'MANAGER', TARGET, TARGET],
    ['organization ADMIN', 'OWNER', 'STAFF', TARGET, TARGET],
    ['workspace OWNER', 'OWNER', 'STAFF', TARGET, TARGET],
    ['workspace MANAGER', 'OWNER', 'STAFF', TARGET, TARGET],
    ['workspace MANAGER', 'ADMIN', 'STAFF', TARGET, TARGET],
    ['organization OWNER', 'OWNER', 'MANAGER', ok, ok],
    ['organization OWNER', 'OWNER', 'OWNER', ok, WS_OWNER],
    ['organization ADMIN, workspace OWNER', 'ADMIN', 'STAFF', ok, ok],
    ['workspace ADMIN', 'ADMIN', 'MANAGER', ok, ok],
  ];
  it.each(rows)(
    '%s acting on an organization %s who is the workspace’s %s',
    (actor, orgRole, role, change, removal) => {
      const them = { userId: THEM, role, orgRole };
      expect(canChangeWorkspaceRole(actorOf(actor), them, 'STAFF')).toBe(change);
      expect(canRemoveWorkspaceMember(actorOf(actor), them)).toBe(removal);
    },
  );
});

describe('canAddWorkspaceMember', () => {
  // [actor, answer for giving OWNER, ADMIN, MANAGER, STAFF, CLIENT]
  const rows: [WorkspaceActor, Five][] = [
    ['organization OWNER', [ok, ok, ok, ok, ok]],
    ['organization ADMIN', [ROLE, ok, ok, ok, ok]],
    ['organization ADMIN, workspace OWNER', [ok, ok, ok, ok, ok]],
    ['workspace OWNER', [ok, ok, ok, ok, ok]],
    ['workspace ADMIN', [ROLE, ok, ok, ok, ok]],
    ['workspace MANAGER', [ROLE, ROLE, ok, ok, ok]],
    ['workspace STAFF', NONE],
    ['workspace CLIENT', NONE],
    ['organization STAFF outside the workspace', NONE],
  ];
  it.each(rows)('%s giving OWNER, ADMIN, MANAGER, STAFF, CLIENT', (actor, answers) => {
    expect(ROLES.map((role) => canAddWorkspaceMember(actorOf(actor), role))).toEqual(answers);
  });
});

// ---- properties ---------------------------------------------------------------------------------

const orgRole = fc.constantFrom(...ORG_ROLES);
const role = fc.constantFrom(...ROLES);
const userId = fc.constantFrom('a', 'b');
const workspaceActor = fc.record({
  userId,
  role: fc.option(role, { nil: null }),
  orgRole: fc.option(orgRole, { nil: null }),
});
const workspaceMember = fc.record({
  userId,
  role,
  orgRole: fc.option(orgRole, { nil: null }),
});

describe('member rules, for any roles', () => {
  it('never allow what §6 refuses in an organization', () => {
    fc.assert(
      fc.property(userId, orgRole, userId, orgRole, orgRole, (a, actor, b, target, next) => {
        if (
          canChangeOrgRole({ userId: a, role: actor }, { userId: b, role: target }, next) === ok
        ) {
          expect(hasUserAction(actor, target) && passesSecondCheck(actor, next)).toBe(true);
        }
        if (canRemoveOrgMember({ userId: a, role: actor }, { userId: b, role: target }) === ok) {
          expect(a !== b && hasUserAction(actor, target)).toBe(true);
        }
      }),
    );
  });

  it('give a stronger organization role everything a weaker one has, on someone else', () => {
    fc.assert(
      fc.property(orgRole, orgRole, orgRole, orgRole, (strong, weak, target, next) => {
        fc.pre(isAtLeast(strong, weak));
        const them = { userId: THEM, role: target };
        if (canChangeOrgRole({ userId: ME, role: weak }, them, next) === ok) {
          expect(canChangeOrgRole({ userId: ME, role: strong }, them, next)).toBe(ok);
        }
        if (canRemoveOrgMember({ userId: ME, role: weak }, them) === ok) {
          expect(canRemoveOrgMember({ userId: ME, role: strong }, them)).toBe(ok);
        }
      }),
    );
  });

  it('never allow what §6 refuses in a workspace, nor removing a workspace OWNER or oneself', () => {
    fc.assert(
      fc.property(workspaceActor, workspaceMember, role, (actor, target, next) => {
        const effective = effectiveWorkspaceRole({
          orgRole: actor.orgRole,
          workspaceRole: actor.role,
        });
        if (canChangeWorkspaceRole(actor, target, next) === ok) {
          expect(actor.userId).not.toBe(target.userId);
          expect(canActOnRole(effective, next)).toBe(true);
          if (target.role === 'OWNER') expect(['OWNER', 'ADMIN']).toContain(actor.orgRole);
          else expect(canActOnRole(effective, target.role)).toBe(true);
          if (target.orgRole === 'OWNER') expect(actor.orgRole).toBe('OWNER');
        }
        if (canRemoveWorkspaceMember(actor, target) === ok) {
          expect(actor.userId).not.toBe(target.userId);
          expect(target.role).not.toBe('OWNER');
          expect(canActOnRole(effective, target.role)).toBe(true);
          if (target.orgRole === 'OWNER') expect(actor.orgRole).toBe('OWNER');
          if (target.orgRole === 'ADMIN') expect(canActOnRole(effective, 'ADMIN')).toBe(true);
        }
      }),
    );
  });

  it('answer alike whether given the own membership role or the effective one', () => {
    fc.assert(
      fc.property(workspaceActor, workspaceMember, role, (actor, target, next) => {
        const effective = {
          ...actor,
          role: effectiveWorkspaceRole({ orgRole: actor.orgRole, workspaceRole: actor.role }),
        };
        expect(canChangeWorkspaceRole(effective, target, next)).toBe(
          canChangeWorkspaceRole(actor, target, next),
        );
        expect(canRemoveWorkspaceMember(effective, target)).toBe(
          canRemoveWorkspaceMember(actor, target),
        );
        expect(canAddWorkspaceMember(effective, next)).toBe(canAddWorkspaceMember(actor, next));
      }),
    );
  });

  it('have words for every refusal', () => {
    for (const refusal of MEMBER_REFUSALS) {
      expect(MEMBER_REFUSAL_MESSAGES[refusal]).toMatch(/\.$/);
    }
  });
});
