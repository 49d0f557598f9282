import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MODULE_CODES, ROLES, type ModuleCode } from './constants.ts';
import {
  describeResolution,
  explainPermission,
  resolvePermissions,
  type PermissionSetting,
  type Resolution,
  type ResolutionInput,
  type ResolutionRole,
} from './permission-resolution.ts';
import {
  DEFAULT_ROLE_RULES,
  groupByModuleAndGroup,
  PERMISSION_CATALOGUE,
  PERMISSION_GROUPS,
  PERMISSION_KEYS,
  PERMISSION_STATUSES,
  permissionsOfGroup,
  type PermissionDefinition,
} from './permissions.ts';

// ---- generators -------------------------------------------------------------------------------

/** The real catalogue plus made-up permissions of other modules, so modules can differ. */
const EXTRA: PermissionDefinition[] = [
  { key: 'map.alerts.view', name: 'View alerts', module: 'MAP', group: 'alerts' },
  { key: 'map.alerts.delete', name: 'Delete alerts', module: 'MAP', group: 'alerts' },
  { key: 'pf.reports.view', name: 'View reports', module: 'PF', group: 'reports' },
];
const ALL = [...PERMISSION_CATALOGUE, ...EXTRA];
const KEYS = ALL.map((p) => p.key);

const status = fc.constantFrom(...PERMISSION_STATUSES);
const moduleCode = fc.constantFrom<ModuleCode>('TR', 'MAP', 'PF', ...MODULE_CODES);
const setting: fc.Arbitrary<PermissionSetting> = fc.record({
  permission: fc.oneof(fc.constantFrom(...KEYS), fc.constant('tr.unknown.thing')),
  status,
});
const settings = fc.array(setting, { maxLength: 8 });
let ids = 0;
const named = (prefix: string) =>
  fc.stringMatching(/^[A-Z][a-z]{1,8}$/).map((n) => `${prefix} ${n}`);
const role: fc.Arbitrary<ResolutionRole> = fc.record({
  id: fc.constant(null).map(() => `role-${ids++}`),
  name: named('Role'),
  rules: fc.array(
    fc.record({
      id: fc.constant(null).map(() => `rule-${ids++}`),
      name: named('Rule'),
      module: fc.option(moduleCode, { nil: null }),
      permissions: settings,
    }),
    { maxLength: 4 },
  ),
});
const input: fc.Arbitrary<ResolutionInput> = fc.record({
  catalogue: fc.subarray(ALL, { minLength: 1 }),
  enabledModules: fc.subarray([...MODULE_CODES]),
  role: fc.option(fc.constantFrom(...ROLES), { nil: null }),
  overrides: settings,
  customRoles: fc.array(role, { maxLength: 4 }),
});

// ---- a reference model: the statuses in the order they are read, first explicit wins -----------

function expected(i: ResolutionInput, p: PermissionDefinition): Resolution {
  if (!i.enabledModules.includes(p.module)) {
    return { status: 'DISABLED', source: { kind: 'module_disabled' } };
  }
  const first = (list: readonly PermissionSetting[]) =>
    list.find((s) => s.permission === p.key)?.status ?? 'INHERIT';
  const said: [string, Resolution['source']][] = [[first(i.overrides), { kind: 'override' }]];
  for (const r of i.customRoles) {
    for (const rule of r.rules) {
      if (rule.module && rule.module !== p.module) continue;
      said.push([
        first(rule.permissions),
        {
          kind: 'custom_role',
          role: { id: r.id, name: r.name },
          rule: { id: rule.id, name: rule.name },
        },
      ]);
    }
  }
  if (i.role) {
    const byRole = (DEFAULT_ROLE_RULES[i.role].statuses as Record<string, string>)[p.key];
    said.push([byRole ?? 'INHERIT', { kind: 'default_role', role: i.role }]);
  }
  const decided = said.find(([s]) => s === 'ALLOW' || s === 'DENY');
  return decided
    ? { status: decided[0] as 'ALLOW' | 'DENY', source: decided[1] }
    : { status: 'DENY', source: { kind: 'inherit' } };
}

// ---- properties -------------------------------------------------------------------------------

describe('resolvePermissions', () => {
  it('answers the first explicit ALLOW or DENY in reading order, for every permission', () => {
    fc.assert(
      fc.property(input, (i) => {
        const resolved = resolvePermissions(i);
        expect(Object.keys(resolved).sort()).toEqual(
          [...new Set(i.catalogue.map((p) => p.key))].sort(),
        );
        for (const p of i.catalogue) expect(resolved[p.key]).toEqual(expected(i, p));
      }),
      { numRuns: 500 },
    );
  });

  it('lets an explicit status put in front win over everything after it', () => {
    fc.assert(
      fc.property(
        input,
        fc.constantFrom('ALLOW', 'DENY' as const),
        fc.nat(),
        fc.boolean(),
        (i, s, pick, asOverride) => {
          const p = i.catalogue[pick % i.catalogue.length]!;
          fc.pre(i.enabledModules.includes(p.module));
          const front: PermissionSetting = { permission: p.key, status: s };
          const changed: ResolutionInput = asOverride
            ? { ...i, overrides: [front, ...i.overrides] }
            : {
                ...i,
                overrides: i.overrides.filter((o) => o.permission !== p.key),
                customRoles: [
                  {
                    id: 'first',
                    name: 'First',
                    rules: [{ id: 'r', name: 'R', permissions: [front] }],
                  },
                  ...i.customRoles,
                ],
              };
          const got = resolvePermissions(changed)[p.key]!;
          expect(got.status).toBe(s);
          expect(got.source.kind).toBe(asOverride ? 'override' : 'custom_role');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ends as DENY what stays INHERIT everywhere, and only from there comes the inherit source', () => {
    const allInherit = (list: readonly PermissionSetting[]) =>
      list.map((s) => ({ ...s, status: 'INHERIT' as const }));
    fc.assert(
      fc.property(input, fc.constantFrom('CLIENT' as const, null), (i, role) => {
        const quiet: ResolutionInput = {
          ...i,
          role,
          overrides: allInherit(i.overrides),
          customRoles: i.customRoles.map((r) => ({
            ...r,
            rules: r.rules.map((rule) => ({ ...rule, permissions: allInherit(rule.permissions) })),
          })),
        };
        for (const p of quiet.catalogue) {
          const got = resolvePermissions(quiet)[p.key]!;
          if (quiet.enabledModules.includes(p.module)) {
            expect(got).toEqual({ status: 'DENY', source: { kind: 'inherit' } });
          }
        }
        for (const got of Object.values(resolvePermissions(i))) {
          if (got.source.kind === 'inherit') expect(got.status).toBe('DENY');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reports every permission of a disabled module DISABLED, and no other', () => {
    fc.assert(
      fc.property(input, (i) => {
        const resolved = resolvePermissions(i);
        for (const p of i.catalogue) {
          const disabled = !i.enabledModules.includes(p.module);
          expect(resolved[p.key]!.status === 'DISABLED').toBe(disabled);
          if (disabled) expect(resolved[p.key]!.source).toEqual({ kind: 'module_disabled' });
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('explainPermission', () => {
  it('agrees with the resolver on every permission of every generated case', () => {
    fc.assert(
      fc.property(input, (i) => {
        const resolved = resolvePermissions(i);
        for (const p of i.catalogue) {
          const explained = explainPermission(i, p.key)!;
          expect({ status: explained.status, source: explained.source }).toEqual(resolved[p.key]);
          expect(explained.permission).toEqual(p);
          expect(explained.sentence).toBe(describeResolution(resolved[p.key]!, p.module));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('lists the steps in reading order: the module, then steps that left it to inherit, then the decision', () => {
    fc.assert(
      fc.property(input, fc.nat(), (i, pick) => {
        const p = i.catalogue[pick % i.catalogue.length]!;
        const { steps, source } = explainPermission(i, p.key)!;
        expect(steps[0]).toEqual({
          kind: 'module',
          module: p.module,
          enabled: i.enabledModules.includes(p.module),
        });
        const said = steps.slice(1).map((s) => ('status' in s ? s.status : null));
        const last = said.at(-1);
        if (source.kind === 'module_disabled') expect(steps).toHaveLength(1);
        else if (source.kind === 'inherit') expect(said.every((s) => s === 'INHERIT')).toBe(true);
        else {
          expect(said.slice(0, -1).every((s) => s === 'INHERIT')).toBe(true);
          expect(last).not.toBe('INHERIT');
          expect(steps.at(-1)!.kind).toBe(source.kind);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('knows nothing of a key outside the catalogue it was given', () => {
    const i: ResolutionInput = {
      catalogue: permissionsOfGroup('TR', 'history'),
      enabledModules: ['TR'],
      role: 'OWNER',
      overrides: [],
      customRoles: [],
    };
    expect(explainPermission(i, 'tr.settings.update')).toBeUndefined();
  });
});

// ---- written-out examples ---------------------------------------------------------------------

describe('examples', () => {
  const packers: ResolutionRole = {
    id: 'role-packers',
    name: 'Packers',
    rules: [
      {
        id: 'rule-labels',
        name: 'Label printing',
        module: 'TR',
        permissions: [
          { permission: 'tr.shipping_label.create', status: 'DENY' },
          { permission: 'tr.fnsku.print', status: 'ALLOW' },
          { permission: 'tr.history.view', status: 'INHERIT' },
        ],
      },
      {
        id: 'rule-history',
        name: 'History readers',
        permissions: [{ permission: 'tr.history.view', status: 'ALLOW' }],
      },
    ],
  };
  const base: ResolutionInput = {
    catalogue: PERMISSION_CATALOGUE,
    enabledModules: ['TR'],
    role: 'STAFF',
    overrides: [{ permission: 'tr.shipment_box.delete', status: 'ALLOW' }],
    customRoles: [packers],
  };

  it('says which custom role and rule denied a permission', () => {
    const e = explainPermission(base, 'tr.shipping_label.create')!;
    expect(e.status).toBe('DENY');
    expect(e.sentence).toBe('Denied by the custom role Packers, rule Label printing.');
    expect(e.steps).toEqual([
      { kind: 'module', module: 'TR', enabled: true },
      { kind: 'override', status: 'INHERIT' },
      {
        kind: 'custom_role',
        role: { id: 'role-packers', name: 'Packers' },
        rule: { id: 'rule-labels', name: 'Label printing' },
        status: 'DENY',
      },
    ]);
  });

  it('goes past a rule that leaves a permission to inherit to the next rule', () => {
    const e = explainPermission(base, 'tr.history.view')!;
    expect(e.sentence).toBe('Allowed by the custom role Packers, rule History readers.');
    expect(e.steps).toHaveLength(4);
  });

  it('puts the member’s own override before everything', () => {
    expect(explainPermission(base, 'tr.shipment_box.delete')!.sentence).toBe(
      "Allowed by the member's own override.",
    );
  });

  it('falls back to the default role: the staff rule denies settings and deletions', () => {
    const e = explainPermission(base, 'tr.settings.update')!;
    expect(e.sentence).toBe('Denied by the default role Staff (the staff rule).');
    expect(e.steps.at(-1)).toEqual({ kind: 'default_role', role: 'STAFF', status: 'DENY' });
    expect(resolvePermissions(base)['tr.efficiency_report.view']).toEqual({
      status: 'ALLOW',
      source: { kind: 'default_role', role: 'STAFF' },
    });
  });

  it('denies a CLIENT what nothing allowed', () => {
    const e = explainPermission({ ...base, role: 'CLIENT', customRoles: [] }, 'tr.history.view')!;
    expect(e.status).toBe('DENY');
    expect(e.source).toEqual({ kind: 'inherit' });
    expect(e.sentence).toMatch(/^Denied: no override, custom role or default role/);
  });

  it('reports a disabled module before looking at anything else', () => {
    const e = explainPermission({ ...base, enabledModules: [] }, 'tr.shipment_box.delete')!;
    expect(e).toMatchObject({ status: 'DISABLED', source: { kind: 'module_disabled' } });
    expect(e.sentence).toBe('Disabled: the module 2D Transit is switched off in this workspace.');
    expect(e.steps).toEqual([{ kind: 'module', module: 'TR', enabled: false }]);
  });
});

describe('the catalogue and the default roles', () => {
  it('has unique keys of the form tr.<group>.<action>, each in a listed group of its module', () => {
    expect(new Set(PERMISSION_KEYS).size).toBe(PERMISSION_KEYS.length);
    for (const p of PERMISSION_CATALOGUE) {
      expect(p.key).toMatch(new RegExp(`^${p.module.toLowerCase()}\\.${p.group}\\.[a-z_]+$`));
      expect(PERMISSION_GROUPS.some((g) => g.module === p.module && g.key === p.group)).toBe(true);
    }
    // Every group has a permission.
    for (const g of PERMISSION_GROUPS)
      expect(permissionsOfGroup(g.module, g.key).length).toBeGreaterThan(0);
  });

  it('groups by module and group in the catalogue’s order', () => {
    const grouped = groupByModuleAndGroup(PERMISSION_CATALOGUE, ['TR']);
    expect(grouped).toHaveLength(1);
    expect(grouped[0]!.groups.map((g) => g.group.key)).toEqual(PERMISSION_GROUPS.map((g) => g.key));
    expect(grouped[0]!.groups.flatMap((g) => g.items.map((p) => p.key))).toEqual(PERMISSION_KEYS);
    expect(groupByModuleAndGroup(PERMISSION_CATALOGUE, ['MAP'])).toEqual([]);
  });

  it('gives OWNER and ADMIN everything, CLIENT nothing, MANAGER all but settings, STAFF no settings nor deletions', () => {
    const statusOf = (r: keyof typeof DEFAULT_ROLE_RULES) => (key: string) =>
      (DEFAULT_ROLE_RULES[r].statuses as Record<string, string>)[key] ?? 'INHERIT';
    for (const key of PERMISSION_KEYS) {
      const settings = key.startsWith('tr.settings.');
      const deletion = key.endsWith('delete');
      expect(statusOf('OWNER')(key)).toBe('ALLOW');
      expect(statusOf('ADMIN')(key)).toBe('ALLOW');
      expect(statusOf('CLIENT')(key)).toBe('INHERIT');
      expect(statusOf('MANAGER')(key)).toBe(settings ? 'DENY' : 'ALLOW');
      expect(statusOf('STAFF')(key)).toBe(settings || deletion ? 'DENY' : 'ALLOW');
    }
  });
});
