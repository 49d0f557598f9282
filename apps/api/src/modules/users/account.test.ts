import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { bearer, createTestApp, signIn, type TestApp } from '../../../test/support/app.ts';
import { createUser, FACTORY_PASSWORD } from '../../seed/factories.ts';

/** The workspace view preference (spec §3 clientsViewOption) on GET/PATCH /v1/rest-auth/user/. */
describe('clientsViewOption', () => {
  let t: TestApp;
  let headers: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp();
    const user = await createUser(t.ctx.db);
    headers = bearer(await signIn(t, user.email, FACTORY_PASSWORD));
  });
  afterAll(() => t.close());

  const me = () => t.app.inject({ method: 'GET', url: '/v1/rest-auth/user/', headers });
  const patch = (payload: object) =>
    t.app.inject({ method: 'PATCH', url: '/v1/rest-auth/user/', headers, payload });

  it('is ClientsListView until changed, and is kept', async () => {
    expect((await me()).json().clientsViewOption).toBe('ClientsListView');
    const res = await patch({ clientsViewOption: 'ClientsGridView' });
    expect(res.statusCode).toBe(200);
    expect(res.json().clientsViewOption).toBe('ClientsGridView');
    expect((await me()).json().clientsViewOption).toBe('ClientsGridView');
    // Changing something else leaves it as it is.
    expect((await patch({ first_name: 'Grid' })).json()).toMatchObject({
      first_name: 'Grid',
      clientsViewOption: 'ClientsGridView',
    });
  });

  it('answers 400 naming the field for a value that is not a view, and keeps the old one', async () => {
    for (const value of ['Table', '', null, 1, 'clientslistview']) {
      const res = await patch({ clientsViewOption: value });
      expect(res.statusCode, String(value)).toBe(400);
      expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
      expect(res.json().details.map((d: { field: string }) => d.field)).toEqual([
        'clientsViewOption',
      ]);
    }
    expect((await me()).json().clientsViewOption).toBe('ClientsGridView');
  });
});
