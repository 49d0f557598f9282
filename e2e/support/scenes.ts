// Scenes for browser tests, made through the HTTP API: an owner with an organization and two
// workspaces, and what an invitation leaves in the mail.
import { expect, type APIRequestContext } from '@playwright/test';
import { clientAddress, createActiveUser } from './accounts.ts';
import { uniqueEmail } from './fixtures.ts';
import type { Mailbox } from './mailbox.ts';
import type { NewUser } from './pages.ts';

export interface Scene {
  user: NewUser;
  token: string;
  orgId: string;
  harbour: string;
  dock: string;
}

/** An owner with the organization "Acme e2e" and the workspaces Harbour and Dock, through the API. */
export async function ownerScene(request: APIRequestContext, mailbox: Mailbox): Promise<Scene> {
  const user = await createActiveUser(request, mailbox, 'owner');
  const login = await request.post('/v1/rest-auth/app/login/', {
    headers: { 'X-Forwarded-For': clientAddress() },
    data: { email: user.email, password: user.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const { token } = (await login.json()) as { token: string };
  const auth = { Authorization: `Bearer ${token}` };
  const org = await request.post('/v1/organizations/', {
    headers: auth,
    data: { name: 'Acme e2e' },
  });
  expect(org.status(), await org.text()).toBe(201);
  const orgId = ((await org.json()) as { id: string }).id;
  const ids: string[] = [];
  for (const name of ['Harbour', 'Dock']) {
    const res = await request.post(`/v1/organizations/${orgId}/clients/`, {
      headers: auth,
      data: { name },
    });
    expect(res.status(), await res.text()).toBe(201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  return { user, token, orgId, harbour: ids[0]!, dock: ids[1]! };
}

/** The bearer header of a scene's owner. */
export const authOf = (scene: Pick<Scene, 'token'>) => ({ Authorization: `Bearer ${scene.token}` });

/** The password of the members staffMember adds. */
export const STAFF_PASSWORD = 'Stevedore passphrase 2026';

/**
 * A STAFF member of the scene's organization, Sam Stevedore, added at once (with STAFF_PASSWORD),
 * with Harbour as a STAFF member.
 */
export async function staffMember(request: APIRequestContext, scene: Scene) {
  const email = uniqueEmail('staff');
  const added = await request.post(`/v1/organizations/${scene.orgId}/users/force-invitation/`, {
    headers: authOf(scene),
    data: {
      email,
      role: 'STAFF',
      first_name: 'Sam',
      last_name: 'Stevedore',
      password: STAFF_PASSWORD,
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  const userId = ((await added.json()) as { user: { id: string } }).user.id;
  const granted = await request.post(
    `/v1/organizations/${scene.orgId}/users/${userId}/clients/grant_access/`,
    { headers: authOf(scene), data: { clients: [{ client_id: scene.harbour, role: 'STAFF' }] } },
  );
  expect(granted.ok(), await granted.text()).toBe(true);
  return { email, password: STAFF_PASSWORD, userId };
}

/** The path and query of the invitation link in the newest invitation e-mail to `email`. */
export async function invitationLink(
  mailbox: Mailbox,
  email: string,
  since?: Date,
): Promise<string> {
  const mail = await mailbox.waitFor(email, { subject: /invit/i, since });
  const link = /\/ps\/(?:clients|organizations)\/invitation\?token=[\w-]+/.exec(mail.text)?.[0];
  expect(link, `an invitation link in:\n${mail.text}`).toBeTruthy();
  return link!;
}
