// The server's real mail path (outbox → nodemailer → SMTP) into this run's capture, through the
// HTTP API only: register, read the code from the e-mail, activate, sign in.
import { expect, extractCode, strongPassword, test, uniqueEmail } from '../support/fixtures.ts';

test('the activation e-mail arrives over SMTP and its code activates the account', async ({
  request,
  mailbox,
}) => {
  const email = uniqueEmail('api');
  const password = strongPassword();
  const registered = await request.post('/v1/rest-auth/registration/', {
    data: {
      email,
      password1: password,
      password2: password,
      first_name: 'Grace',
      last_name: 'Hopper',
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const { token } = (await registered.json()) as { token: string };

  const mail = await mailbox.waitFor(email, { subject: /activation code/i });
  expect(mail.html).toContain(extractCode(mail.text));

  const activated = await request.patch('/v1/rest-auth/registration/activation/', {
    headers: { Authorization: `Bearer ${token}` },
    data: { code: extractCode(mail.text) },
  });
  expect(activated.ok(), await activated.text()).toBe(true);

  const login = await request.post('/v1/rest-auth/app/login/', { data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  expect(((await login.json()) as { token: string }).token).toEqual(expect.any(String));
});
