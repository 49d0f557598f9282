import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signIn, type TestApp } from '../../../test/support/app.ts';
import { createUser, FACTORY_PASSWORD } from '../../seed/factories.ts';

/**
 * Spec §1 "some users see a custom shipment template depending on e-mail domain; the domain list
 * is not shown" and §6 internal staff domains: GET and PATCH /v1/rest-auth/user/ say what the
 * signed-in user's domain means, and nothing ever names the lists.
 */
describe('the user info flags from e-mail domains', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      CUSTOM_TEMPLATE_EMAIL_DOMAINS: 'Template.Example, other-template.example',
      INTERNAL_EMAIL_DOMAINS: 'staff.example',
    });
  });
  afterAll(() => t.close());

  async function headersFor(email: string) {
    const user = await createUser(t.ctx.db, { email });
    return bearer(await signIn(t, user.email, FACTORY_PASSWORD));
  }
  const me = (headers: { authorization: string }) =>
    t.app.inject({ method: 'GET', url: '/v1/rest-auth/user/', headers });

  it.each([
    ['ada@template.example', true, false],
    ['Bob@TEMPLATE.Example', true, false],
    ['cy@other-template.example', true, false],
    ['dee@staff.example', false, true],
    ['eve@example.com', false, false],
    // Exact domains only: a subdomain or a look-alike is not covered.
    ['fay@eu.template.example', false, false],
    ['gus@nottemplate.example', false, false],
    ['hal@staff.example.com', false, false],
  ])('%s: custom template %s, internal %s', async (email, custom, internal) => {
    const res = await me(await headersFor(email));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      email,
      custom_shipment_template: custom,
      is_internal: internal,
    });
  });

  it('is in the answer of PATCH too', async () => {
    const headers = await headersFor('ivy@template.example');
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/v1/rest-auth/user/',
      headers,
      payload: { first_name: 'Ivy' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ custom_shipment_template: true, is_internal: false });
    // An empty change answers the user as is, with the flags.
    const empty = await t.app.inject({
      method: 'PATCH',
      url: '/v1/rest-auth/user/',
      headers,
      payload: {},
    });
    expect(empty.json()).toMatchObject({ custom_shipment_template: true });
  });

  it('cannot be set by the user (unknown fields are refused)', async () => {
    const headers = await headersFor('jo@example.com');
    for (const field of ['custom_shipment_template', 'is_internal']) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: '/v1/rest-auth/user/',
        headers,
        payload: { [field]: true },
      });
      expect(res.statusCode, field).toBe(400);
    }
    expect((await me(headers)).json()).toMatchObject({
      custom_shipment_template: false,
      is_internal: false,
    });
  });

  it('never names the domain lists: not in the user info, the public config or the OpenAPI', async () => {
    const headers = await headersFor('kim@template.example');
    const bodies = [
      (await me(headers)).body,
      (await t.app.inject({ method: 'GET', url: '/v1/config' })).body,
      (await t.app.inject({ method: 'GET', url: '/docs/json' })).body,
    ];
    for (const body of bodies) {
      expect(body).not.toMatch(/other-template\.example|staff\.example/i);
    }
  });

  it('is 401 without a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/rest-auth/user/' })).statusCode).toBe(
      401,
    );
  });
});

describe('without configured domains', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('nobody has the custom template or is internal', async () => {
    const user = await createUser(t.ctx.db, { email: 'lee@template.example' });
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/rest-auth/user/',
      headers: bearer(await signIn(t, user.email, FACTORY_PASSWORD)),
    });
    expect(res.json()).toMatchObject({ custom_shipment_template: false, is_internal: false });
  });
});
