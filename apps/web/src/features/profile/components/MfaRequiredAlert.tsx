import { Alert, Button, Stack, Text } from '@mantine/core';
import { meetsMfaPolicy } from '@portolan/contract';
import { IconArrowRight, IconShieldCheck, IconShieldLock } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useAuthStore } from '../../../lib/auth-store';
import { clearMfaRefusal, useMfaRefusal, type MfaRefusal } from '../../../lib/mfa-required';
import { mfaStatusQueryOptions } from '../api/mfa-api';

const REQUIREMENT: Record<MfaRefusal['requireMfa'], { what: string; counts: string }> = {
  any: {
    what: 'two-step verification',
    counts: 'An authenticator app or a passkey will do: set one up below.',
  },
  phishing_resistant: {
    what: 'a passkey',
    counts: 'Only a passkey will do (an authenticator app is not enough): add one below.',
  },
};

/**
 * On My Settings → Security after an organization refused the member (403 MFA_REQUIRED,
 * lib/mfa-required.ts): which organization, what it requires and the server's sentence; once the
 * account's factors meet it (GET /v1/user/mfa/), "Continue to <organization>" goes back to the
 * refused page (or the dashboard).
 */
export function MfaRequiredAlert() {
  const refusal = useMfaRefusal();
  const list = useAuthStore((s) => s.org.list);
  const status = useQuery({ ...mfaStatusQueryOptions(), enabled: refusal !== null });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  if (!refusal) return null;

  const name =
    list.find((e) => e.organization.id === refusal.organizationId)?.organization.name ??
    'Your organization';
  const { what, counts } = REQUIREMENT[refusal.requireMfa];
  const factors = status.data;
  const met =
    factors !== undefined &&
    meetsMfaPolicy(refusal.requireMfa, {
      totp: factors.totp.enabled,
      passkey: factors.passkeys > 0,
    });

  const goOn = () => {
    clearMfaRefusal();
    // What the policy refused is read again, now that it lets the member in.
    void queryClient.invalidateQueries({ predicate: (q) => q.state.status === 'error' });
    void navigate(refusal.from ?? '/ps/dashboard');
  };

  if (met) {
    return (
      <Alert
        color="teal"
        variant="light"
        title={`You can continue to ${name}`}
        icon={<IconShieldCheck size={18} aria-hidden="true" />}
      >
        <Stack gap="sm" align="flex-start">
          <Text size="sm">Your account now has what {name} requires of its members.</Text>
          <Button
            onClick={goOn}
            rightSection={<IconArrowRight size={16} aria-hidden="true" />}
            size="sm"
          >
            Continue to {name}
          </Button>
        </Stack>
      </Alert>
    );
  }

  return (
    <Alert
      color="orange"
      variant="light"
      title={`Set up ${what} to continue to ${name}`}
      icon={<IconShieldLock size={18} aria-hidden="true" />}
    >
      <Stack gap={6}>
        <Text size="sm">{refusal.message}</Text>
        <Text size="sm" fw={600}>
          {counts}
        </Text>
      </Stack>
    </Alert>
  );
}
