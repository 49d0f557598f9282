import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useMatches } from 'react-router';
import { credentialStatusQueryOptions } from '../api/credential-status-api';
import { dismissCredentialAlert, isCredentialAlertDismissed } from '../dismissal';

export const CREDENTIAL_ALERT_TITLE = 'The marketplace-seller credential check failed';
/** When the checker said "invalid" without a reason. */
export const CREDENTIAL_ALERT_NO_MESSAGE =
  'No reason was given. Check the seller credential connected to this workspace.';

/**
 * Spec §2: on workspace pages (routes with a `client_id`: the workspace dashboard, module pages,
 * the no-module page), a dismissible alert with the server's message when the workspace's
 * marketplace-seller credential failed its check. Nothing while loading, when valid, or when the
 * status could not be loaded. Mounted by the app layout above the page.
 */
export function CredentialAlert() {
  const clientId = useMatches().at(-1)?.params.client_id;
  if (!clientId) return null;
  return <WorkspaceCredentialAlert clientId={clientId} />;
}

function WorkspaceCredentialAlert({ clientId }: { clientId: string }) {
  const { data } = useQuery(credentialStatusQueryOptions(clientId));
  // Hidden at once on dismissal, even where sessionStorage refuses to keep it.
  const [dismissedHere, setDismissedHere] = useState<string | null>(null);
  if (!data || data.is_valid) return null;
  const { message } = data;
  const key = `${clientId}\n${message ?? ''}`;
  if (dismissedHere === key || isCredentialAlertDismissed(clientId, message)) return null;

  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      title={CREDENTIAL_ALERT_TITLE}
      icon={<IconAlertTriangle size={18} aria-hidden="true" />}
      withCloseButton
      closeButtonLabel="Dismiss the credential alert"
      onClose={() => {
        dismissCredentialAlert(clientId, message);
        setDismissedHere(key);
      }}
      mb="md"
      style={{ overflowWrap: 'anywhere' }}
    >
      {message ?? CREDENTIAL_ALERT_NO_MESSAGE}
    </Alert>
  );
}
