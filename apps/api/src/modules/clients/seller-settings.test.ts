import crypto from 'node:crypto';
import { CUSTOM_CSS_MAX_BYTES, ErrorCode } from '@portolan/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  createTenantScene,
  type OrgPerson,
  type Person,
  type TenantScene,
} from '../../../test/support/tenants.ts';
import { activities, clients, uploads } from '../../db/schema/index.ts';
import { addClientMember, createClient } from '../../seed/factories.ts';

/** GET and PATCH /v1/clients/{id}/seller-settings/: a workspace's header logo and stylesheet. */
describe('/v1/clients/{id}/seller-settings/', () => {
  let t: TestApp;
  let s: TenantScene;
  let p: Record<OrgPerson, Person>;
  let clientId: string;
  let ws: Record<'OWNER' | 'ADMIN' | 'MANAGER' | 'STAFF' | 'CLIENT', Person>;
  const url = (id = clientId) => `/v1/clients/${id}/seller-settings/`;

  /** An image stored as `who` uploaded it: its address. */
  async function uploadedBy(who: Person): Promise<string> {
    const key = `${crypto.randomUUID()}.png`;
    await t.ctx.db
      .insert(uploads)
      .values({ user_id: who.id, storage_key: key, content_type: 'image/png', size: 68 });
    return `/uploads/${key}`;
  }

  const row = async (id = clientId) =>
    (await t.ctx.db.select().from(clients).where(eq(clients.id, id)))[0]!;
  const updates = () =>
    t.ctx.db
      .select()
      .from(activities)
      .where(and(eq(activities.object_id, clientId), eq(activities.action, 'UPDATE_WORKSPACE')));

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    p = s.people;
    clientId = (
      await createClient(t.ctx.db, { organizationId: s.orgId, ownerId: p.OWNER.id, name: 'Quay' })
    ).id;
    ws = {} as typeof ws;
    for (const role of ['OWNER', 'ADMIN', 'MANAGER', 'STAFF', 'CLIENT'] as const) {
      ws[role] = await s.member(role === 'CLIENT' ? 'CLIENT' : 'STAFF');
      await addClientMember(t.ctx.db, { clientId, userId: ws[role].id, role });
    }
  });
  afterAll(() => t.close());

  describe('GET', () => {
    it('answers every member of the workspace, external ones too; a new workspace has none', async () => {
      const expected: [Person | 'anonymous', number][] = [
        [p.OWNER, 200],
        [p.ADMIN, 200],
        [ws.OWNER, 200],
        [ws.ADMIN, 200],
        [ws.MANAGER, 200],
        [ws.STAFF, 200],
        [ws.CLIENT, 200],
        // Members of the organization outside this workspace, and another organization's owner.
        [p.STAFF, 404],
        [p.CLIENT, 404],
        [p.STRANGER, 404],
        ['anonymous', 401],
      ];
      for (const [i, [who, status]] of expected.entries()) {
        const res = await s.send('GET', url(), who);
        expect({ i, status: res.statusCode }).toEqual({ i, status });
        if (status === 200) {
          expect(res.json()).toEqual({
            default_client_header_logo: null,
            custom_css: '',
            scoped_css: '',
          });
        }
      }
    });

    it('answers 404 for no such workspace and 400 for an id that is not one', async () => {
      expect((await s.send('GET', url(crypto.randomUUID()), p.OWNER)).statusCode).toBe(404);
      const bad = await s.send('GET', url('nope'), p.OWNER);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe(ErrorCode.VALIDATION_ERROR);
    });
  });

  describe('PATCH', () => {
    it('lets the OWNERs and ADMINs of the workspace and of its organization change it, nobody else', async () => {
      const expected: [Person | 'anonymous', number][] = [
        [p.OWNER, 200],
        [p.ADMIN, 200],
        [ws.OWNER, 200],
        [ws.ADMIN, 200],
        [ws.MANAGER, 403],
        [ws.STAFF, 403],
        [ws.CLIENT, 403],
        [p.STAFF, 404],
        [p.CLIENT, 404],
        [p.STRANGER, 404],
        ['anonymous', 401],
      ];
      for (const [i, [who, status]] of expected.entries()) {
        const css = `body { --workspace-accent: #00000${i}; }`;
        const before = await row();
        const res = await s.send('PATCH', url(), who, { custom_css: css });
        expect({ i, status: res.statusCode }).toEqual({ i, status });
        if (status === 200) expect(res.json().custom_css).toBe(css);
        else expect((await row()).custom_css).toBe(before.custom_css);
      }
      // A stranger's 404 is the same as for a workspace that does not exist.
      const stranger = await s.send('PATCH', url(), p.STRANGER, { custom_css: '' });
      const missing = await s.send('PATCH', url(crypto.randomUUID()), p.OWNER, { custom_css: '' });
      expect(stranger.json()).toEqual(missing.json());
    });

    it('sets the logo and the stylesheet, records the change, and GET answers them', async () => {
      const logo = await uploadedBy(ws.ADMIN);
      const css = `.brand { background: url(${logo}) no-repeat; }\n@media (max-width: 600px) { .brand { display: none } }`;
      const before = (await updates()).length;
      const res = await s.send('PATCH', url(), ws.ADMIN, {
        default_client_header_logo: logo,
        custom_css: css,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        default_client_header_logo: logo,
        custom_css: css,
        // As applied: under the workspace's regions only (a modal's header is not one of them).
        scoped_css: `[data-workspace-style] .brand{background:url(${logo})no-repeat}@media (max-width:600px){[data-workspace-style] .brand{display:none}}`,
      });
      expect((await s.send('GET', url(), ws.CLIENT)).json()).toEqual(res.json());
      const recorded = await updates();
      expect(recorded).toHaveLength(before + 1);
      expect(recorded.at(-1)!.data).toMatchObject({
        client_id: clientId,
        client_name: 'Quay',
        changes: ['default_client_header_logo', 'custom_css'],
      });
      expect(recorded.at(-1)!.user_id).toBe(ws.ADMIN.id);

      // The same again changes nothing and records nothing.
      const again = await s.send('PATCH', url(), ws.ADMIN, {
        default_client_header_logo: logo,
        custom_css: css,
      });
      expect(again.statusCode).toBe(200);
      expect(await updates()).toHaveLength(before + 1);

      // Another admin changes the stylesheet only: the logo someone else uploaded stays.
      const other = await s.send('PATCH', url(), p.OWNER, {
        default_client_header_logo: logo,
        custom_css: 'a { color: red }',
      });
      expect(other.statusCode).toBe(200);
      expect(other.json()).toEqual({
        default_client_header_logo: logo,
        custom_css: 'a { color: red }',
        scoped_css: '[data-workspace-style] a{color:red}',
      });

      // null (or '') removes the logo; '' removes the stylesheet.
      const cleared = await s.send('PATCH', url(), p.OWNER, {
        default_client_header_logo: '',
        custom_css: '',
      });
      expect(cleared.json()).toEqual({
        default_client_header_logo: null,
        custom_css: '',
        scoped_css: '',
      });
      const none = await s.send('PATCH', url(), p.OWNER, { default_client_header_logo: null });
      expect(none.json().default_client_header_logo).toBeNull();
    });

    it('takes a stylesheet of exactly the size bound', async () => {
      const css = 'a { color: red }'.padEnd(CUSTOM_CSS_MAX_BYTES, ' ');
      const res = await s.send('PATCH', url(), p.ADMIN, { custom_css: css });
      expect(res.statusCode).toBe(200);
      expect((await row()).custom_css).toBe(css);
    });

    it('refuses a hostile stylesheet or a foreign logo with 400 on the field, changing nothing', async () => {
      const mine = await uploadedBy(p.OWNER);
      await s.send('PATCH', url(), p.OWNER, {
        default_client_header_logo: mine,
        custom_css: 'body { color: navy }',
      });
      const someoneElses = await uploadedBy(p.STRANGER);
      const before = await row();
      const recordedBefore = (await updates()).length;

      const cases: [unknown, string, string][] = [
        [
          { custom_css: '@import url(https://evil.example/x.css);' },
          'custom_css',
          'Line 1: @import',
        ],
        [{ custom_css: 'a{}\n@\\69mport "x.css";' }, 'custom_css', 'Line 2: '],
        [
          { custom_css: 'a { background: url(https://evil.example/p.png) }' },
          'custom_css',
          'url(https://evil.example/p.png)',
        ],
        [
          { custom_css: 'a { background: url("data:image/png;base64,AAAA") }' },
          'custom_css',
          'url(data:',
        ],
        [
          { custom_css: 'a { background: url(http\\3a //evil.example/) }' },
          'custom_css',
          'url(http://evil.example/)',
        ],
        [
          { custom_css: 'a { background: \\75 rl(https://evil.example/) }' },
          'custom_css',
          'backslash escapes',
        ],
        [{ custom_css: 'a { width: expression(alert(1)) }' }, 'custom_css', 'expression()'],
        [{ custom_css: 'a { width: \\65xpression(alert(1)) }' }, 'custom_css', 'expression()'],
        [{ custom_css: 'a { -moz-binding: url(x.xml#x) }' }, 'custom_css', '-moz-binding'],
        [{ custom_css: 'a {} </style><script>alert(1)</script>' }, 'custom_css', '</style'],
        [{ custom_css: 'a { color: red } }' }, 'custom_css', 'cannot be read'],
        [{ custom_css: 'a {}\u0000' }, 'custom_css', 'control character'],
        [{ custom_css: 'a{}'.padEnd(CUSTOM_CSS_MAX_BYTES + 1, ' ') }, 'custom_css', 'within 20 KB'],
        [{ custom_css: 42 }, 'custom_css', ''],
        [
          { default_client_header_logo: 'https://evil.example/logo.png' },
          'default_client_header_logo',
          'Upload the image first',
        ],
        [
          { default_client_header_logo: '/uploads/not-a-key.png' },
          'default_client_header_logo',
          'Upload the image first',
        ],
        [
          { default_client_header_logo: someoneElses },
          'default_client_header_logo',
          'Upload the image first',
        ],
        [{ default_client_header_logo: '/uploads/a\nb.png' }, 'default_client_header_logo', ''],
        // A good logo with a bad stylesheet: neither is written.
        [{ default_client_header_logo: null, custom_css: '@import "x";' }, 'custom_css', '@import'],
        [{ custom_css: 'a{}', theme: 'dark' }, 'theme', ''],
      ];
      for (const [i, [payload, field, message]] of cases.entries()) {
        const res = await s.send('PATCH', url(), p.OWNER, payload);
        expect({ i, status: res.statusCode }).toEqual({ i, status: 400 });
        const body = res.json();
        expect(body.code).toBe(ErrorCode.VALIDATION_ERROR);
        const detail = body.details.find((d: { field: string }) => d.field.endsWith(field));
        expect({ i, field: detail?.field.replace(/^body\./, '') }).toEqual({ i, field });
        expect(detail.message).toContain(message);
      }
      expect(await row()).toEqual(before);
      expect(await updates()).toHaveLength(recordedBefore);
    });
  });
});
