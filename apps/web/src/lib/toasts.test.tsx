import { Messages } from '@portolan/contract';
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../app/providers';
import { showServerErrorToast, toast, toastId } from './toasts';

async function renderToasts() {
  const view = render(
    <AppProviders env="test">
      <div />
    </AppProviders>,
  );
  // The toast container is a lazy chunk: wait for it.
  await screen.findByTestId('loading-message');
  return view;
}

function topCentre(container: HTMLElement): HTMLElement {
  const box = container.querySelector<HTMLElement>('[data-position="top-center"]');
  if (!box) throw new Error('no top-centre notifications container');
  return box;
}

describe('toasts', () => {
  it('the same message twice shows one toast (same id), another message a second one', async () => {
    const { container } = await renderToasts();

    act(() => {
      toast.success('Your profile has been saved.');
      toast.success('Your profile has been saved.');
    });
    expect(await screen.findAllByText('Your profile has been saved.')).toHaveLength(1);

    act(() => {
      toast.error('Your photo could not be removed.');
    });
    expect(await screen.findByText('Your photo could not be removed.')).toBeVisible();
    expect(screen.getAllByText('Your profile has been saved.')).toHaveLength(1);
    expect(topCentre(container).querySelectorAll('.mantine-Notification-root')).toHaveLength(2);
  });

  it('ids depend on kind, title and text only', () => {
    expect(toastId('success', 'Saved.')).toBe(toastId('success', 'Saved.'));
    expect(toastId('success', 'Saved.')).not.toBe(toastId('error', 'Saved.'));
    expect(toastId('success', 'Saved.')).not.toBe(toastId('success', 'Saved!'));
    expect(toastId('success', 'Saved.', 'Profile')).not.toBe(toastId('success', 'Saved.'));
  });

  it('shows at most three at once, top centre, in the container offset by the layout', async () => {
    const { container } = await renderToasts();
    const box = topCentre(container);
    // global.css gives this class the top offset below the header or the logo.
    expect(box).toHaveClass('portolan-toasts');

    act(() => {
      for (const n of [1, 2, 3, 4]) toast.info(`Message ${n}`);
    });
    await screen.findByText('Message 3');
    expect(screen.queryByText('Message 4')).toBeNull();
    expect(box.querySelectorAll('.mantine-Notification-root')).toHaveLength(3);
  });

  it('the §8 server-error toast keeps its fixed id and does not stack', async () => {
    await renderToasts();
    act(() => {
      showServerErrorToast();
      showServerErrorToast();
    });
    await waitFor(() => expect(screen.getAllByText(Messages.serverError)).toHaveLength(1));
  });
});
