import { activitiesExporter } from '../activities/index.ts';
import { authExporter } from '../auth/index.ts';
import { billingExporter } from '../billing/index.ts';
import { clientsExporter } from '../clients/index.ts';
import { invitationsExporter } from '../invitations/index.ts';
import { membersExporter } from '../members/index.ts';
import { notificationsExporter } from '../notifications/index.ts';
import { organizationsExporter } from '../organizations/index.ts';
import { permissionsExporter } from '../permissions/index.ts';
import { securityLogExporter } from '../security-log/index.ts';
import { uploadsExporter } from '../uploads/index.ts';
import { usersExporter } from '../users/index.ts';
import type { ExportInput, ExportKind, ExportSection, Exporter } from '../../lib/data-export.ts';
import type { ZipWriter } from './zip-writer.ts';

/**
 * The archives' layout: their files in order (README.txt first), each filled by the sections the
 * modules' exporters give (a JSON file several modules fill lists its keys in order). Every query
 * of a section is scoped by the user's or the organization's id, so nothing of anyone else can
 * come out. Never written: password hashes, one-time codes, token hashes, session ids, gateway
 * references, idempotency keys; of a card only brand, last 4 and expiry exist at all.
 */

/** Each module's exporter, by the owner path of db/ownership.ts. */
export const EXPORTERS: Record<string, Exporter> = {
  'modules/users': usersExporter,
  'modules/auth': authExporter,
  'modules/security-log': securityLogExporter,
  'modules/members': membersExporter,
  'modules/invitations': invitationsExporter,
  'modules/permissions': permissionsExporter,
  'modules/notifications': notificationsExporter,
  'modules/activities': activitiesExporter,
  'modules/uploads': uploadsExporter,
  'modules/organizations': organizationsExporter,
  'modules/clients': clientsExporter,
  'modules/billing': billingExporter,
};

export const USER_README = (brand: string, userEmail: string, at: Date) =>
  `Your ${brand} data
${'='.repeat(brand.length + 10)}

Everything ${brand} holds about the account ${userEmail}, as of ${at.toISOString()} (UTC).
Times are ISO 8601 in UTC; ids are UUIDs; money is in minor units (cents) with its currency.

profile.json        Your account: e-mail, names, phone, photo, settings, when it was made and
                    activated; your sign-in methods (password: yes or no; Google) and your
                    sessions (when, from which browser and address). No password or token.
memberships.json    The organizations and workspaces you belong to (or are invited to), your role
                    and status in each, your custom roles and permission overrides, and the
                    invitations sent to you.
security-log.json   Your security log: sign-ins (method, browser, address), failed second
                    factors, changes of password and two-step verification, step-ups.
notifications.json  Your notifications (the bell), seen or not.
activities.jsonl    What you did in the portal, one JSON document per line, oldest first.
uploads.json        The files you uploaded (photos, logos): type, size, when.
uploads/            The files themselves, named as in uploads.json.
`;

export const ORGANIZATION_README = (brand: string, name: string, at: Date) =>
  `${name}: organization data from ${brand}
${'='.repeat(name.length + brand.length + 25)}

Everything ${brand} holds about the organization "${name}", as of ${at.toISOString()} (UTC).
Times are ISO 8601 in UTC; ids are UUIDs; money is in minor units (cents) with its currency.

organization.json        The organization: name, logo, owner, when it was made.
workspaces.json          Its workspaces with their settings (branding, custom CSS) and modules;
                         deleted ones are marked with deleted_at.
members.json             Its members and the members of its workspaces (user, role, status), and
                         the invitations sent (never their links).
roles-and-rules.json     Access rules with their permissions, custom roles with their ordered
                         rules, the custom roles members hold and their permission overrides.
activities.jsonl         The organization's activity log, one JSON document per line, oldest first.
billing/account.json     The balance, the monthly spend cap, the low-balance thresholds and the
                         auto top-up settings.
billing/subscriptions.json  Subscriptions with their plan, period and limits.
billing/invoices.json    Every invoice (numbered), paid or failed, with its lines.
billing/ledger.jsonl     Every movement of the balance, one per line, oldest first.
billing/cards.json       Cards on file: brand, last 4 digits and expiry only (no card number is
                         ever kept).
billing/workspace-spend-caps.json  Each workspace's monthly spend cap and this month's spending.
billing/auto-top-ups.json  Every automatic top-up: paid, declined (with the reason) or pending.
billing/details.json     The billing details printed on invoices (company, address, tax ID).
billing/credit-notes.json  Every credit note (numbered) with the invoice it credits.
`;

/** A file of an archive, and the keys (in order) when several sections fill it. */
type FileLayout = { file: string; keys?: readonly string[] };

export const LAYOUT: Record<ExportKind, readonly FileLayout[]> = {
  USER: [
    { file: 'profile.json', keys: ['user', 'sign_in_methods', 'sessions'] },
    {
      file: 'memberships.json',
      keys: ['organizations', 'workspaces', 'custom_roles', 'permission_overrides', 'invitations'],
    },
    { file: 'security-log.json' },
    { file: 'notifications.json' },
    { file: 'activities.jsonl' },
    { file: 'uploads.json' },
  ],
  ORGANIZATION: [
    { file: 'organization.json' },
    { file: 'workspaces.json' },
    { file: 'members.json', keys: ['organization', 'workspaces', 'invitations'] },
    { file: 'roles-and-rules.json' },
    { file: 'activities.jsonl' },
    { file: 'billing/account.json' },
    { file: 'billing/subscriptions.json' },
    { file: 'billing/invoices.json' },
    { file: 'billing/ledger.jsonl' },
    { file: 'billing/cards.json' },
    { file: 'billing/workspace-spend-caps.json' },
    { file: 'billing/auto-top-ups.json' },
    { file: 'billing/details.json' },
    { file: 'billing/credit-notes.json' },
  ],
};

/** The section names a layout needs: `file` or `file#key`. */
const sectionNames = (layout: readonly FileLayout[]) =>
  layout.flatMap(({ file, keys }) => (keys ? keys.map((k) => `${file}#${k}`) : [file]));

/**
 * Each section of the kind's layout with the exporter that gives it. Throws (at start-up) when a
 * section has no exporter, two, or an exporter gives one the layout does not place.
 */
export function sectionsOf(kind: ExportKind): Map<string, ExportSection> {
  const given = new Map<string, ExportSection>();
  for (const [owner, exporter] of Object.entries(EXPORTERS)) {
    for (const [name, section] of Object.entries(exporter.sections[kind] ?? {})) {
      if (given.has(name)) throw new Error(`${kind} export: ${name} is given twice (${owner})`);
      given.set(name, section);
    }
  }
  const needed = sectionNames(LAYOUT[kind]);
  const missing = needed.filter((name) => !given.has(name));
  const extra = [...given.keys()].filter((name) => !needed.includes(name));
  if (missing.length || extra.length) {
    throw new Error(
      `${kind} export: no exporter gives ${missing.join(', ') || '-'}; no place for ${extra.join(', ') || '-'}`,
    );
  }
  return given;
}

const SECTIONS = { USER: sectionsOf('USER'), ORGANIZATION: sectionsOf('ORGANIZATION') };

const jsonOf = async (section: ExportSection, input: ExportInput, zip: ZipWriter) => {
  if (!('json' in section)) throw new Error('a JSON file needs a json section');
  return section.json(input, zip);
};

/** Writes the archive's files after its README.txt, section by section, into `zip`. */
export async function writeArchive(
  kind: ExportKind,
  zip: ZipWriter,
  input: ExportInput,
  readme: string,
): Promise<void> {
  const sections = SECTIONS[kind];
  await zip.text('README.txt', readme);
  for (const { file, keys } of LAYOUT[kind]) {
    if (keys) {
      const value: Record<string, unknown> = {};
      for (const key of keys)
        value[key] = await jsonOf(sections.get(`${file}#${key}`)!, input, zip);
      await zip.json(file, value);
      continue;
    }
    const section = sections.get(file)!;
    if ('lines' in section) await zip.lines(file, section.lines(input));
    else await zip.json(file, await section.json(input, zip));
  }
}
