import { Alert, Text } from '@mantine/core';
import { WEBHOOK_PREVIOUS_SECRET_HOURS } from '@portolan/contract';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { SecretOnceModal } from './SecretOnceModal';

/** A signing secret on screen: just made with its endpoint, revealed, or rotated. */
export interface ShownSecret {
  kind: 'created' | 'revealed' | 'rotated';
  /** The endpoint's URL, to say whose secret it is. */
  url: string;
  secret: string;
}

const TITLES: Record<ShownSecret['kind'], string> = {
  created: 'Endpoint added: its signing secret',
  revealed: 'Signing secret',
  rotated: 'The new signing secret',
};

/** What to do with the secret, by why it is shown. */
function Advice({ kind }: { kind: ShownSecret['kind'] }) {
  if (kind === 'rotated') {
    return (
      <Alert
        color="orange"
        variant="light"
        title="Put the new secret in your receiver"
        icon={<IconAlertTriangle size={18} aria-hidden="true" />}
      >
        The previous secret keeps working for {WEBHOOK_PREVIOUS_SECRET_HOURS} hours: until then,
        each delivery is signed with both. After that, only the new one.
      </Alert>
    );
  }
  return (
    <Alert
      color={kind === 'created' ? 'orange' : 'blue'}
      variant="light"
      title={kind === 'created' ? 'Copy the secret now' : undefined}
      icon={<IconInfoCircle size={18} aria-hidden="true" />}
    >
      Your receiver checks with it that each delivery comes from Portolan (the webhook-signature
      header). Store it where your system keeps its secrets.
      {kind === 'created' && ' To see it again later, reveal it on the endpoint’s page.'}
    </Alert>
  );
}

/** An endpoint's signing secret, with what to do with it. */
export function WebhookSecretModal({
  shown,
  onDone,
}: {
  /** The secret to show; null while there is none. */
  shown: ShownSecret | null;
  onDone: () => void;
}) {
  return (
    <SecretOnceModal
      opened={shown !== null}
      title={shown ? TITLES[shown.kind] : ''}
      onDone={onDone}
      label="Signing secret"
      description={
        <Text span inherit style={{ overflowWrap: 'anywhere' }}>
          Of {shown?.url}
        </Text>
      }
      value={shown?.secret ?? ''}
      copyLabel="Copy secret"
      announcement="The signing secret is copied to the clipboard."
    >
      {shown && <Advice kind={shown.kind} />}
    </SecretOnceModal>
  );
}
