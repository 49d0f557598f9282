import { Stack } from '@mantine/core';
import { PasskeysCard } from './PasskeysCard';
import { SecurityLogCard } from './SecurityLogCard';
import { SessionsCard } from './SessionsCard';
import { TwoStepCard } from './TwoStepCard';

/**
 * My Settings, Security (`?tab=security`): two-step verification, passkeys, where the account is
 * signed in and the security log. A chunk of its own: only this tab loads the QR code's library.
 */
export function SecurityTab() {
  return (
    <Stack gap="xl">
      <TwoStepCard />
      <PasskeysCard />
      <SessionsCard />
      <SecurityLogCard />
    </Stack>
  );
}
