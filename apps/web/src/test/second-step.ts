import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/**
 * On /login, signs in with Ada's e-mail and password, and waits for the second step the server's
 * challenge asks for; the user-event instance to go on with.
 */
export async function signInWithPassword() {
  const user = userEvent.setup();
  await user.type(await screen.findByRole('textbox', { name: 'E-mail' }), 'ada@example.com');
  await user.type(screen.getByLabelText(/^Password/), 'correct horse battery');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  await screen.findByRole('heading', { level: 1, name: 'Two-step verification' });
  return user;
}
