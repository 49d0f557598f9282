import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../lib/auth-store';
import { ada, apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { EmailChangeMessages } from './EmailChangeCard';

const REQUEST = 'POST /v1/user/email-change/';
const CONFIRM = 'POST /v1/user/email-change/confirm/';
const NEW = 'augusta@example.com';
const sent = json({ detail: `We sent a 6-digit code to ${NEW}.`, email: NEW });

const section = () => screen.findByRole('region', { name: 'E-mail address' });

/** Opens the change, fills the new address and the password, and asks for the code. */
async function ask(user: ReturnType<typeof userEvent.setup>, password = 'correct horse') {
  const region = await section();
  await user.click(within(region).getByRole('button', { name: 'Change e-mail address' }));
  await user.type(within(region).getByRole('textbox', { name: /^New e-mail address/ }), NEW);
  await user.type(within(region).getByLabelText(/^Your password/), password);
  await user.click(within(region).getByRole('button', { name: 'Send code' }));
  return region;
}

async function typeCode(
  user: ReturnType<typeof userEvent.setup>,
  region: HTMLElement,
  code: string,
) {
  await user.click(await within(region).findByRole('textbox', { name: /digit 1 of 6/ }));
  await user.keyboard(code);
  await user.click(within(region).getByRole('button', { name: 'Confirm' }));
}

describe('My Settings, Profile: changing the e-mail address', () => {
  it('sends a code to the new address, then the code makes it the account’s', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': [json(ada), json({ ...ada, email: NEW })],
      [REQUEST]: sent,
      [CONFIRM]: json({ detail: `Your e-mail address is now ${NEW}.`, email: NEW }),
    });
    signIn();
    renderApp('/ps/profile');
    const user = userEvent.setup();

    const region = await ask(user);
    expect(await within(region).findByText(/We sent a 6-digit code to/)).toHaveTextContent(
      `We sent a 6-digit code to ${NEW}.`,
    );
    await waitFor(() =>
      expect(within(region).getByRole('textbox', { name: /digit 1 of 6/ })).toHaveFocus(),
    );
    await typeCode(user, region, '314159');

    expect(await screen.findByText(EmailChangeMessages.changed(NEW))).toBeVisible();
    expect(mock.callsTo(REQUEST).map((c) => c.body)).toEqual([
      { new_email: NEW, password: 'correct horse' },
    ]);
    expect(mock.callsTo(CONFIRM).map((c) => c.body)).toEqual([{ code: '314159' }]);
    // The profile shows the new address, and the stored user has it.
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'E-mail' })).toHaveValue(NEW));
    expect(within(region).getByText(NEW)).toBeVisible();
    expect(useAuthStore.getState().user?.email).toBe(NEW);
  });

  it('says so under the password when it is wrong, and checks the address first here', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [REQUEST]: apiError(400, 'WRONG_PASSWORD', 'Your password is not correct.', [
        { field: 'password', message: 'Your password is not correct.' },
      ]),
    });
    signIn();
    renderApp('/ps/profile');
    const user = userEvent.setup();

    const region = await section();
    await user.click(within(region).getByRole('button', { name: 'Change e-mail address' }));
    const email = within(region).getByRole('textbox', { name: /^New e-mail address/ });
    await user.type(email, ada.email.toUpperCase());
    await user.click(within(region).getByRole('button', { name: 'Send code' }));
    expect(await within(region).findByText(EmailChangeMessages.same)).toBeVisible();
    expect(within(region).getByText('Enter your password.')).toBeVisible();
    expect(mock.callsTo(REQUEST)).toHaveLength(0);

    await user.clear(email);
    await user.type(email, NEW);
    await user.type(within(region).getByLabelText(/^Your password/), 'wrong');
    await user.click(within(region).getByRole('button', { name: 'Send code' }));
    expect(await within(region).findByText('Your password is not correct.')).toBeVisible();
    expect(within(region).getByLabelText(/^Your password/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(region).queryByRole('textbox', { name: /digit 1 of 6/ })).toBeNull();
  });

  it('says a wrong code under the code; too many wrong codes ask for a new one', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [REQUEST]: sent,
      [CONFIRM]: [
        apiError(400, 'INVALID_CODE', 'The code is not correct. Check the e-mail and try again.', [
          { field: 'code', message: 'The code is not correct. Check the e-mail and try again.' },
        ]),
        apiError(429, 'TOO_MANY_ATTEMPTS', 'Too many wrong codes. Ask for a new one.', [
          { field: 'code', message: 'Too many wrong codes. Ask for a new one.' },
        ]),
      ],
    });
    signIn();
    renderApp('/ps/profile');
    const user = userEvent.setup();

    const region = await ask(user);
    await typeCode(user, region, '000000');
    expect(
      await within(region).findByText('The code is not correct. Check the e-mail and try again.'),
    ).toBeVisible();

    await user.click(within(region).getByRole('textbox', { name: /digit 1 of 6/ }));
    await user.keyboard('{Backspace>6/}111111');
    await user.click(within(region).getByRole('button', { name: 'Confirm' }));
    // Back to the first step, the address kept, to ask for a new code.
    expect(
      await within(region).findByText('Too many wrong codes. Ask for a new one.'),
    ).toBeVisible();
    expect(within(region).getByRole('textbox', { name: /^New e-mail address/ })).toHaveValue(NEW);
    expect(within(region).getByRole('button', { name: 'Send code' })).toBeVisible();
  });

  it('goes back to the address when another account took it meanwhile (409)', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [REQUEST]: sent,
      [CONFIRM]: apiError(
        409,
        'EMAIL_TAKEN',
        'Another account has taken this address meanwhile. Choose another one.',
      ),
    });
    signIn();
    renderApp('/ps/profile');
    const user = userEvent.setup();

    const region = await ask(user);
    await typeCode(user, region, '314159');
    expect(
      await within(region).findByText(
        'Another account has taken this address meanwhile. Choose another one.',
      ),
    ).toBeVisible();
    expect(within(region).getByRole('textbox', { name: /^New e-mail address/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });
});
