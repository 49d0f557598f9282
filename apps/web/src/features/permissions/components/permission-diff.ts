import type { EffectiveStatus, MemberPermissions } from '@portolan/contract';

type Effective = MemberPermissions['modules'][number]['groups'][number]['permissions'][number];

/** Every permission of an answer, by key. */
export function flattenPermissions(answer: MemberPermissions): Map<string, Effective> {
  return new Map(
    answer.modules.flatMap((m) => m.groups.flatMap((g) => g.permissions.map((p) => [p.key, p]))),
  );
}

export interface PermissionChange {
  key: string;
  name: string;
  from: EffectiveStatus;
  to: EffectiveStatus;
  /** What would decide it. */
  after: Effective;
}

/** The permissions whose status `after` differs from `before`, in the order of `after`. */
export function permissionChanges(
  before: MemberPermissions,
  after: MemberPermissions,
): PermissionChange[] {
  const now = flattenPermissions(before);
  return [...flattenPermissions(after).values()].flatMap((p) => {
    const current = now.get(p.key);
    return current && current.status !== p.status
      ? [{ key: p.key, name: p.name, from: current.status, to: p.status, after: p }]
      : [];
  });
}
