import { screen, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';

/**
 * Presses the button named `label`, then the button of the same name in the confirmation dialog
 * it opens ("Delete access rule", then the dialog's "Delete access rule").
 */
export async function pressAndConfirm(user: ReturnType<typeof userEvent.setup>, label: string) {
  await user.click(screen.getByRole('button', { name: label }));
  await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: label }));
}
