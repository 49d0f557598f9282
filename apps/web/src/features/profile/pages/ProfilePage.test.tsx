import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../lib/auth-store';
import { ada, apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { PASSWORD_CHANGED, WRONG_PASSWORD_MESSAGE } from '../components/PasswordChangeForm';

describe('ProfilePage (My Settings)', () => {
  const created: string[] = [];
  beforeEach(() => {
    // jsdom has no object URLs; the page only needs them for the preview.
    Object.assign(URL, {
      createObjectURL: () => {
        created.push('blob:preview');
        return 'blob:preview';
      },
      revokeObjectURL: () => {},
    });
  });
  afterEach(() => {
    created.length = 0;
  });

  it('saves first name, last name and phone with PATCH /v1/rest-auth/user/', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      'PATCH /v1/rest-auth/user/': (call) => json({ ...ada, ...(call.body as object) }),
    });
    signIn();
    renderApp('/ps/profile');
    const user = userEvent.setup();

    const first = await screen.findByRole('textbox', { name: 'First name' });
    expect(first).toHaveValue('Ada');
    await user.clear(first);
    await user.type(first, ' Augusta ');
    await user.type(screen.getByRole('textbox', { name: 'Phone' }), '+44 20 7946 0000');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Your profile has been saved.')).toBeVisible();
    expect(mock.callsTo('PATCH /v1/rest-auth/user/')[0]?.body).toEqual({
      first_name: 'Augusta',
      last_name: 'Lovelace',
      phone: '+44 20 7946 0000',
    });
  });

  it('uploads a photo: preview, POST /v1/upload/, then PATCH avatar', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      'POST /v1/upload/': json({ url: '/uploads/ada.png' }, 201),
      'PATCH /v1/rest-auth/user/': json({ ...ada, avatar: '/uploads/ada.png' }),
    });
    signIn();
    const { container } = renderApp('/ps/profile');
    const user = userEvent.setup();

    await screen.findByRole('button', { name: 'Choose photo' });
    const input = container.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['png'], 'me.png', { type: 'image/png' }));

    expect(await screen.findByRole('img', { name: 'Preview of your new photo' })).toHaveAttribute(
      'src',
      'blob:preview',
    );
    await user.click(screen.getByRole('button', { name: 'Upload photo' }));

    expect(await screen.findByText('Your photo has been updated.')).toBeVisible();
    const upload = mock.callsTo('POST /v1/upload/')[0];
    expect(upload?.body).toBeInstanceOf(FormData);
    expect(((upload?.body as FormData).get('file') as File).name).toBe('me.png');
    expect(mock.callsTo('PATCH /v1/rest-auth/user/')[0]?.body).toEqual({
      avatar: '/uploads/ada.png',
    });
    await waitFor(() => expect(useAuthStore.getState().avatarURL).toBe('/uploads/ada.png'));
  });

  it('changes the password; WRONG_PASSWORD goes on the current-password field', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      'POST /v1/rest-auth/password/change/': [
        apiError(400, 'WRONG_PASSWORD', 'Wrong password.'),
        json({ detail: 'Password changed.' }),
      ],
    });
    signIn();
    renderApp('/ps/profile');
    const user = userEvent.setup();

    const section = await screen.findByRole('region', { name: 'Password' });
    const current = within(section).getByLabelText(/^Current password/);
    await user.type(current, 'not my password');
    await user.type(within(section).getByLabelText(/^New password/), 'a fresh tidal phrase');
    await user.type(
      within(section).getByLabelText(/^Confirm new password/),
      'a fresh tidal phrase',
    );
    await user.click(within(section).getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText(WRONG_PASSWORD_MESSAGE)).toBeVisible();
    expect(current).toHaveAttribute('aria-invalid', 'true');

    await user.clear(current);
    await user.type(current, 'my real password');
    await user.click(within(section).getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText(PASSWORD_CHANGED)).toBeVisible();
    expect(PASSWORD_CHANGED).toBe('Password changed.');
    expect(mock.callsTo('POST /v1/rest-auth/password/change/')[1]?.body).toEqual({
      old_password: 'my real password',
      new_password1: 'a fresh tidal phrase',
      new_password2: 'a fresh tidal phrase',
    });
    // This session stays signed in.
    expect(useAuthStore.getState().isAuth).toBe(true);
  });

  it('a failed load says why, consistent with the toast: server error or no connection', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': apiError(503, 'SERVICE_UNAVAILABLE', 'Down.'),
    });
    signIn();
    renderApp('/ps/profile');
    // (The §8 toast is an alert too: pick the page's own.)
    const pageAlert = () =>
      screen.getAllByRole('alert').find((a) => a.textContent?.includes('could not be loaded'));
    await waitFor(() => expect(pageAlert()).toBeDefined(), { timeout: 8000 });
    const alert = pageAlert()!;
    expect(alert).toHaveTextContent('The server ran into a problem on its side.');
    expect(alert).not.toHaveTextContent(/connection/);

    mock.on('GET /v1/rest-auth/user/', () => Promise.reject(new TypeError('Failed to fetch')));
    const user = userEvent.setup();
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(pageAlert()).toHaveTextContent(
        'The server could not be reached. Check your internet connection.',
      ),
    );
  });

  it('first and last name share a responsive grid (one column on a phone)', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json(ada) });
    signIn();
    renderApp('/ps/profile');
    const first = await screen.findByRole('textbox', { name: 'First name' });
    const grid = first.closest('.mantine-SimpleGrid-root');
    expect(grid).not.toBeNull();
    expect(within(grid as HTMLElement).getByRole('textbox', { name: 'Last name' })).toBeVisible();
  });
});
