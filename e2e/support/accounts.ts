// Accounts made through the HTTP API, for tests that are not about registration itself.
import { expect, type APIRequestContext } from '@playwright/test';
import { extractCode, type Mailbox } from './mailbox.ts';
import type { NewUser } from './pages.ts';
import { clientAddress, strongPassword, uniqueEmail } from './fixtures.ts';

export { clientAddress };

/** Register and activate a new user (the code read from the captured e-mail). */
export async function createActiveUser(
  request: APIRequestContext,
  mailbox: Mailbox,
  label = 'user',
): Promise<NewUser> {
  const user: NewUser = {
    email: uniqueEmail(label),
    password: strongPassword(),
    firstName: 'Test',
    lastName: 'User',
  };
  const address = { 'X-Forwarded-For': clientAddress() };
  const registered = await request.post('/v1/rest-auth/registration/', {
    headers: address,
    data: {
      email: user.email,
      password1: user.password,
      password2: user.password,
      first_name: user.firstName,
      last_name: user.lastName,
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const { token } = (await registered.json()) as { token: string };
  const mail = await mailbox.waitFor(user.email, { subject: /activation code/i });
  const activated = await request.patch('/v1/rest-auth/registration/activation/', {
    headers: { ...address, Authorization: `Bearer ${token}` },
    data: { code: extractCode(mail.text) },
  });
  expect(activated.ok(), await activated.text()).toBe(true);
  return user;
}
