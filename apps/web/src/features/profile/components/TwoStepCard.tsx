import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  RECOVERY_CODE_COUNT,
  type MfaStatusResponse,
  type TotpSetupResponse,
} from '@portolan/contract';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../lib/api';
import { useAuthStore } from '../../../lib/auth-store';
import { confirmModal } from '../../../lib/confirm';
import { formatDate } from '../../../lib/dates';
import { ErrorCode } from '../../../lib/error-codes';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast, toastFailure } from '../../../lib/toasts';
import {
  mfaStatusQueryOptions,
  useRegenerateRecoveryCodes,
  useRemoveTotp,
  useStartTotpSetup,
} from '../api/mfa-api';
import { RecoveryCodes } from './RecoveryCodes';
import { TotpSetup } from './TotpSetup';

/** At or below this many recovery codes left, the card suggests new ones. */
const FEW_CODES = 2;

export const TwoStepMessages = {
  turnedOn: 'Two-step verification is on.',
  turnedOff: 'Two-step verification is off.',
  alreadyOn: 'Two-step verification is already on.',
} as const;

type View =
  | { kind: 'status' }
  | { kind: 'setup'; setup: TotpSetupResponse }
  | { kind: 'codes'; codes: string[] };

/**
 * A failed change, said once: nothing when the step-up dialog was closed (the user chose not to
 * go on) nor for 500+ and network failures (the client's toast said so already).
 */
function failed(error: unknown, fallback: string) {
  if (error instanceof ApiError && (error.status >= 500 || error.status === 0)) return;
  toastFailure(error, errorMessage(error, fallback));
}

function StatusView({
  status,
  onSetUp,
  settingUp,
  onNewCodes,
  makingCodes,
  onRemove,
  removing,
}: {
  status: MfaStatusResponse;
  onSetUp: () => void;
  settingUp: boolean;
  onNewCodes: () => void;
  makingCodes: boolean;
  onRemove: () => void;
  removing: boolean;
}) {
  const left = status.recovery_codes_remaining;
  // Recovery codes stand in for any second factor (a passkey too, added elsewhere).
  const anyFactor = status.totp.enabled || status.passkeys > 0;
  return (
    <Stack gap="lg">
      {status.totp.enabled ? (
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4}>
            <Text fw={600}>Authenticator app</Text>
            <Text size="sm" c="dimmed">
              {status.totp.confirmed_at
                ? `Turned on ${formatDate(status.totp.confirmed_at)}.`
                : 'Turned on.'}
            </Text>
          </Stack>
          <Button variant="light" color="red" onClick={onRemove} loading={removing}>
            Remove
          </Button>
        </Group>
      ) : (
        <Stack gap="md" align="flex-start">
          <Text size="sm">
            Each time you sign in, you will also enter a code from an authenticator app on your
            phone. Someone who learns your password still cannot sign in.
          </Text>
          <Button onClick={onSetUp} loading={settingUp}>
            Set up authenticator app
          </Button>
        </Stack>
      )}
      {anyFactor && (
        <Stack gap="sm" align="flex-start">
          <Stack gap={4}>
            <Text fw={600}>Recovery codes</Text>
            <Text size="sm" c="dimmed">
              Recovery codes left: {left} of {RECOVERY_CODE_COUNT}. Each signs you in once without
              your phone.
            </Text>
          </Stack>
          {left <= FEW_CODES && (
            <Alert
              color="orange"
              variant="light"
              icon={<IconAlertTriangle size={18} aria-hidden="true" />}
            >
              {left === 0
                ? 'You have no recovery codes left. Make new ones, so that you can still sign in if you lose your phone.'
                : 'You have few recovery codes left. Make new ones before they run out.'}
            </Alert>
          )}
          <Button variant="default" onClick={onNewCodes} loading={makingCodes}>
            New recovery codes
          </Button>
        </Stack>
      )}
    </Stack>
  );
}

/**
 * My Settings, Security: "Two-step verification" (issue 20 item 1). Off: set up an authenticator
 * app (QR code, a code to confirm, then the recovery codes shown once). On: new recovery codes,
 * or remove it.
 */
export function TwoStepCard() {
  const status = useQuery(mfaStatusQueryOptions());
  const email = useAuthStore((s) => s.user?.email ?? null);
  const [view, setView] = useState<View>({ kind: 'status' });
  const start = useStartTotpSetup();
  const remove = useRemoveTotp();
  const regenerate = useRegenerateRecoveryCodes();

  const setUp = () =>
    start.mutate(undefined, {
      onSuccess: (setup) => setView({ kind: 'setup', setup }),
      onError: (error) => {
        if (error instanceof ApiError && error.code === ErrorCode.MFA_ALREADY_ENABLED) {
          toast.info(TwoStepMessages.alreadyOn);
          void status.refetch();
          return;
        }
        failed(error, 'The setup could not be started. Please try again.');
      },
    });

  const newCodes = async () => {
    const confirmed = await confirmModal({
      title: 'Make new recovery codes?',
      content: 'Your current recovery codes stop working at once, used or not.',
      confirmLabel: 'Make new codes',
    });
    if (!confirmed) return;
    regenerate.mutate(undefined, {
      onSuccess: (res) => setView({ kind: 'codes', codes: res.recovery_codes }),
      onError: (error) => failed(error, 'New recovery codes could not be made.'),
    });
  };

  const removeTotp = async () => {
    const confirmed = await confirmModal({
      title: 'Remove two-step verification?',
      content: status.data?.passkeys
        ? 'Codes from your authenticator app will no longer be asked for. Your passkeys and recovery codes stay.'
        : 'Signing in will need only your password again, and your recovery codes stop working.',
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!confirmed) return;
    remove.mutate(undefined, {
      onSuccess: () => toast.success(TwoStepMessages.turnedOff),
      onError: (error) => failed(error, 'Two-step verification could not be removed.'),
    });
  };

  const on = (status.data?.methods.length ?? 0) > 0;

  return (
    <Card padding="xl" component="section" aria-labelledby="profile-two-step-title">
      <Stack gap={4} mb="lg">
        <Group gap="sm">
          <Title order={2} fz="h3" id="profile-two-step-title">
            Two-step verification
          </Title>
          {status.data && view.kind === 'status' && (
            <Badge variant="light" color={on ? 'teal' : 'gray'} c="dark.7">
              {on ? 'On' : 'Off'}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          A second step when you sign in: a code from an app on your phone.
        </Text>
      </Stack>

      {view.kind === 'setup' ? (
        <TotpSetup
          setup={view.setup}
          onCancel={() => setView({ kind: 'status' })}
          onConfirmed={(codes) => {
            toast.success(TwoStepMessages.turnedOn);
            setView({ kind: 'codes', codes });
          }}
        />
      ) : view.kind === 'codes' ? (
        <RecoveryCodes
          codes={view.codes}
          email={email}
          onDone={() => setView({ kind: 'status' })}
        />
      ) : status.isPending ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading your two-step verification">
          <Skeleton height={18} />
          <Skeleton height={36} width={220} />
        </Stack>
      ) : status.isError ? (
        <QueryRetryAlert title="Your two-step verification could not be loaded" query={status} />
      ) : (
        <StatusView
          status={status.data}
          onSetUp={setUp}
          settingUp={start.isPending}
          onNewCodes={() => void newCodes()}
          makingCodes={regenerate.isPending}
          onRemove={() => void removeTotp()}
          removing={remove.isPending}
        />
      )}
    </Card>
  );
}
