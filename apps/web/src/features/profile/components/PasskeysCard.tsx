import { Alert, Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { PASSKEY_MAX_PER_ACCOUNT, PASSKEY_NAME_MAX_LENGTH, type Passkey } from '@portolan/contract';
import { IconInfoCircle, IconKey, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError, errorMessage, isApiError } from '../../../lib/api';
import { useAuthStore } from '../../../lib/auth-store';
import { confirmModal } from '../../../lib/confirm';
import { formatDate } from '../../../lib/dates';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { ProblemAlert } from '../../../lib/form-parts';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { PasskeyError, passkeysSupported } from '../../../lib/passkeys';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { isStepUpRequired } from '../../../lib/step-up';
import { toast } from '../../../lib/toasts';
import { mfaStatusQueryOptions } from '../api/mfa-api';
import { passkeysQueryOptions, useAddPasskey, useRemovePasskey } from '../api/passkeys-api';
import { IconRow } from './IconRow';
import { RecoveryCodes } from './RecoveryCodes';

export const PasskeysMessages = {
  added: 'The passkey is added. You can sign in with it now.',
  removed: 'The passkey is removed.',
  gone: 'That passkey had already been removed.',
  unsupported:
    'This browser cannot make or use passkeys. To add one, open My Settings in a recent Chrome, Edge, Firefox or Safari.',
  atLimit: `You have ${PASSKEY_MAX_PER_ACCOUNT} passkeys, the most an account can have. Remove one to add another.`,
} as const;

/** Where the add form says what went wrong: on the name, above it, or a quiet note there. */
interface AddProblem {
  name?: string;
  form?: string;
  note?: string;
}

/**
 * A failed add, in words: nothing for a step-up the user closed, nor for 500+ and network failures
 * (the client's toast said so already).
 */
function addProblem(error: unknown): AddProblem | null {
  if (error instanceof PasskeyError) {
    return error.problem === 'cancelled' ? { note: error.message } : { form: error.message };
  }
  if (isStepUpRequired(error)) return null;
  if (error instanceof ApiError) {
    if (error.status >= 500 || error.status === 0) return null;
    const name = error.fieldErrors.find((d) => d.field.replace(/^body\./, '') === 'name');
    if (name) return { name: name.message };
  }
  return { form: errorMessage(error, 'The passkey could not be added. Please try again.') };
}

function PasskeyRow({
  passkey,
  onRemove,
  removing,
}: {
  passkey: Passkey;
  onRemove: () => void;
  removing: boolean;
}) {
  const used = passkey.last_used_at
    ? `last used ${formatDate(passkey.last_used_at)}`
    : 'not used yet';
  return (
    <IconRow
      icon={IconKey}
      name={passkey.name}
      badges={
        passkey.backed_up && (
          <Badge variant="light" color="teal" c="dark.7">
            Synced
          </Badge>
        )
      }
      details={`Added ${formatDate(passkey.created_at)} · ${used}`}
      action={
        <Button
          variant="default"
          size="xs"
          loading={removing}
          onClick={onRemove}
          aria-label={`Remove ${passkey.name}`}
        >
          Remove
        </Button>
      }
    />
  );
}

/** The name (optional) and "Add a passkey"; what went wrong above them. */
function AddPasskeyForm({ onAdded }: { onAdded: (codes: string[] | null) => void }) {
  const add = useAddPasskey();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<AddProblem | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    add.mutate(name.trim(), {
      onSuccess: (res) => {
        setName('');
        toast.success(PasskeysMessages.added);
        onAdded(res.recovery_codes);
      },
      onError: (error) => setProblem(addProblem(error)),
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add a passkey">
      <Stack gap="sm">
        <ProblemAlert>{problem?.form}</ProblemAlert>
        {problem?.note && (
          <Alert
            color="ocean"
            variant="light"
            role="status"
            icon={<IconInfoCircle size={18} aria-hidden="true" />}
          >
            {problem.note}
          </Alert>
        )}
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Name (optional)"
            description="To tell your passkeys apart, such as “Work laptop”."
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setProblem(null);
            }}
            maxLength={PASSKEY_NAME_MAX_LENGTH}
            error={problem?.name}
            aria-invalid={problem?.name ? true : undefined}
            autoComplete="off"
            style={{ flex: '1 1 240px' }}
          />
          <Button
            type="submit"
            loading={add.isPending}
            leftSection={<IconPlus size={16} aria-hidden="true" />}
          >
            Add a passkey
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * My Settings, Security: "Passkeys" (issue 20 item 2). The account's passkeys (added, last used,
 * synced), each with Remove; a name and "Add a passkey", which the browser makes. The account's
 * first factor comes with recovery codes, shown here once. A browser without WebAuthn lists them
 * and says where to add one.
 */
export function PasskeysCard() {
  const passkeys = useQuery(passkeysQueryOptions());
  const status = useQuery(mfaStatusQueryOptions());
  const email = useAuthStore((s) => s.user?.email ?? null);
  const remove = useRemovePasskey();
  const [codes, setCodes] = useState<string[] | null>(null);
  const supported = passkeysSupported();
  const list = passkeys.data?.results ?? [];

  const removePasskey = async (passkey: Passkey) => {
    const last = list.length === 1 && status.data?.totp.enabled === false;
    const confirmed = await confirmModal({
      title: 'Remove this passkey?',
      content: `“${passkey.name}” will no longer sign you in.${
        last
          ? ' It is your only second step: signing in will need only your password again, and your recovery codes stop working.'
          : ''
      } Remove it from your device or password manager too.`,
      confirmLabel: 'Remove passkey',
      danger: true,
    });
    if (!confirmed) return;
    remove.mutate(passkey.id, {
      onSuccess: () => toast.success(PasskeysMessages.removed),
      onError: (error) => {
        if (isApiError(error) && error.status === 404) toast.info(PasskeysMessages.gone);
      },
    });
  };

  return (
    <Card padding="xl" component="section" aria-labelledby="profile-passkeys-title">
      <Stack gap={4} mb="lg">
        <Title order={2} fz="h3" id="profile-passkeys-title">
          Passkeys
        </Title>
        <Text size="sm" c="dimmed">
          Sign in with your fingerprint, face or screen lock instead of a password. A passkey is
          also the safest second step. Synced passkeys are kept by your password manager and work on
          your other devices too.
        </Text>
      </Stack>

      {codes ? (
        <RecoveryCodes codes={codes} email={email} onDone={() => setCodes(null)} />
      ) : passkeys.isPending ? (
        <ListSkeleton label="Loading your passkeys" rows={2} height={52} />
      ) : passkeys.isError ? (
        <QueryRetryAlert title="Your passkeys could not be loaded" query={passkeys} />
      ) : (
        <Stack gap="lg">
          {list.length === 0 ? (
            <EmptyListCard icon={IconKey} title="No passkeys yet">
              {supported
                ? 'Add one: your device makes it, and keeps it behind your fingerprint, face or screen lock.'
                : 'Your account has none, and this browser cannot add one.'}
            </EmptyListCard>
          ) : (
            <Stack
              component="ul"
              gap={0}
              m={0}
              p={0}
              style={{ listStyle: 'none' }}
              aria-label="Your passkeys"
            >
              {list.map((passkey) => (
                <PasskeyRow
                  key={passkey.id}
                  passkey={passkey}
                  onRemove={() => void removePasskey(passkey)}
                  removing={remove.isPending && remove.variables === passkey.id}
                />
              ))}
            </Stack>
          )}
          {!supported ? (
            <Text size="sm">{PasskeysMessages.unsupported}</Text>
          ) : list.length >= PASSKEY_MAX_PER_ACCOUNT ? (
            <Text size="sm">{PasskeysMessages.atLimit}</Text>
          ) : (
            <AddPasskeyForm onAdded={setCodes} />
          )}
        </Stack>
      )}
    </Card>
  );
}
