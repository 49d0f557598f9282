import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { can, WEBHOOK_PREVIOUS_SECRET_HOURS, type WebhookEndpoint } from '@portolan/contract';
import { IconArrowLeft, IconEye, IconRotate, IconSend, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../lib/api';
import { confirmModal } from '../../../lib/confirm';
import { formatDateTime } from '../../../lib/dates';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast, toastFailure } from '../../../lib/toasts';
import { useOrganization } from '../api/org-settings-api';
import { useSendTestEvent } from '../api/webhook-deliveries-api';
import {
  useDeleteWebhook,
  useRevealWebhookSecret,
  useRotateWebhookSecret,
  useUpdateWebhook,
  webhookQueryOptions,
} from '../api/webhooks-api';
import { TitledPart } from '../components/TitledPart';
import { WebhookDeliveryLog } from '../components/WebhookDeliveryLog';
import { WebhookEditForm } from '../components/WebhookEditForm';
import { WebhookSecretModal, type ShownSecret } from '../components/WebhookSecretModal';
import { WebhookStatus } from '../components/WebhookStatus';

export const WebhookMessages = {
  testSent: 'A test event is on its way: its delivery shows in the log below.',
  switchedOn: 'The endpoint is on: it receives its events again.',
  switchedOff: 'The endpoint is off: it receives no events until switched on.',
  deleted: (url: string) => `The endpoint ${url} is deleted.`,
} as const;

function EndpointParts({ orgId, endpoint }: { orgId: string; endpoint: WebhookEndpoint }) {
  const navigate = useNavigate();
  const update = useUpdateWebhook(orgId, endpoint.id);
  const test = useSendTestEvent(orgId, endpoint.id);
  const reveal = useRevealWebhookSecret(orgId, endpoint.id);
  const rotate = useRotateWebhookSecret(orgId, endpoint.id);
  const remove = useDeleteWebhook(orgId, endpoint.id);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const list = `/ps/organization-settings/${encodeURIComponent(orgId)}/webhooks`;
  const { url } = endpoint;

  const onSwitch = async (enabled: boolean) => {
    try {
      await update.mutateAsync({ enabled });
      toast.success(enabled ? WebhookMessages.switchedOn : WebhookMessages.switchedOff);
    } catch (error) {
      toastFailure(error);
    }
  };
  const onTest = async () => {
    try {
      await test.mutateAsync();
      toast.success(WebhookMessages.testSent);
    } catch (error) {
      toastFailure(error);
    }
  };
  const onReveal = async () => {
    try {
      setSecret({ kind: 'revealed', url, secret: (await reveal.mutateAsync()).secret });
    } catch (error) {
      toastFailure(error);
    }
  };
  const onRotate = async () => {
    const ok = await confirmModal({
      title: 'Rotate the signing secret?',
      content: `Deliveries are signed with a new secret from now on. The current one keeps working beside it for ${WEBHOOK_PREVIOUS_SECRET_HOURS} hours, so your receiver can switch meanwhile.`,
      confirmLabel: 'Rotate secret',
    });
    if (!ok) return;
    try {
      setSecret({ kind: 'rotated', url, secret: (await rotate.mutateAsync()).secret });
    } catch (error) {
      toastFailure(error);
    }
  };
  const onDelete = async () => {
    const ok = await confirmModal({
      title: 'Delete this endpoint?',
      content: `${url} receives no more events, and its delivery log is deleted with it. This cannot be undone.`,
      confirmLabel: 'Delete endpoint',
      danger: true,
    });
    if (!ok) return;
    try {
      await remove.mutateAsync();
      toast.success(WebhookMessages.deleted(url));
    } catch (error) {
      // Deleted elsewhere meanwhile: gone all the same.
      if (!(error instanceof ApiError && error.status === 404)) {
        toastFailure(error);
        return;
      }
    }
    void navigate(list);
  };

  return (
    <>
      <Card padding="lg" withBorder>
        <Group justify="space-between" align="center" gap="md">
          <WebhookStatus endpoint={endpoint} />
          <Switch
            label="Send events to this endpoint"
            checked={endpoint.enabled}
            disabled={update.isPending}
            onChange={(event) => void onSwitch(event.currentTarget.checked)}
          />
        </Group>
      </Card>
      <TitledPart
        id="webhook-log-title"
        title="Delivery log"
        description="Each event sent to the endpoint, newest first. Open one for its attempts and the receiver’s answers."
        action={
          <Button
            variant="default"
            leftSection={<IconSend size={16} aria-hidden="true" />}
            loading={test.isPending}
            onClick={() => void onTest()}
          >
            Send test event
          </Button>
        }
      >
        <WebhookDeliveryLog orgId={orgId} endpointId={endpoint.id} />
      </TitledPart>
      <TitledPart
        id="webhook-secret-title"
        title="Signing secret"
        description="Each delivery is signed with it (the webhook-signature header): your receiver checks the signature to know the request comes from Portolan."
      >
        <Stack gap="sm">
          {endpoint.previous_secret_until && (
            <Text size="sm">
              The previous secret still signs beside the new one until{' '}
              {formatDateTime(endpoint.previous_secret_until)}.
            </Text>
          )}
          <Group gap="sm">
            <Button
              variant="default"
              leftSection={<IconEye size={16} aria-hidden="true" />}
              loading={reveal.isPending}
              onClick={() => void onReveal()}
            >
              Reveal secret
            </Button>
            <Button
              variant="default"
              leftSection={<IconRotate size={16} aria-hidden="true" />}
              loading={rotate.isPending}
              onClick={() => void onRotate()}
            >
              Rotate secret
            </Button>
          </Group>
        </Stack>
      </TitledPart>
      <TitledPart id="webhook-settings-title" title="Settings">
        <WebhookEditForm
          // Saved elsewhere meanwhile (another tab): the form starts again from it.
          key={`${endpoint.url}|${endpoint.description}|${endpoint.events.join()}`}
          orgId={orgId}
          endpoint={endpoint}
        />
      </TitledPart>
      <TitledPart
        id="webhook-delete-title"
        title="Delete endpoint"
        description="It receives no more events; its delivery log goes with it. The events stay in the organization’s feed."
      >
        <Group>
          <Button
            variant="default"
            c="red.9"
            leftSection={<IconTrash size={16} aria-hidden="true" />}
            loading={remove.isPending}
            onClick={() => void onDelete()}
          >
            Delete endpoint
          </Button>
        </Group>
      </TitledPart>
      <WebhookSecretModal shown={secret} onDone={() => setSecret(null)} />
    </>
  );
}

/** webhooks/:webhookId: one endpoint, its delivery log, secret, settings; OWNERs and ADMINs. */
export function WebhookPage() {
  const { webhookId = '' } = useParams();
  const { orgId, query: org, role } = useOrganization();
  const allowed = can({ orgRole: role }, 'organization.webhooks.manage');
  const endpoint = useQuery({ ...webhookQueryOptions(orgId, webhookId), enabled: allowed });
  const list = `/ps/organization-settings/${encodeURIComponent(orgId)}/webhooks`;
  const gone = endpoint.error instanceof ApiError && endpoint.error.status === 404;

  if (org.data && !allowed) {
    return (
      <Alert color="orange" variant="light" title="Only owners and admins manage webhooks">
        Ask an owner or an admin of {org.data.name} about this endpoint.
      </Alert>
    );
  }

  return (
    <Stack gap="md" component="section" aria-labelledby="webhook-title">
      <Anchor component={Link} to={list} size="sm" w="max-content">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden="true" />
          All webhooks
        </Group>
      </Anchor>
      <Stack gap={2}>
        <Title
          order={2}
          fz={{ base: 'md', sm: 'h3' }}
          id="webhook-title"
          ff={endpoint.data ? 'monospace' : undefined}
          style={{ overflowWrap: 'anywhere' }}
        >
          {endpoint.data?.url ?? 'Webhook endpoint'}
        </Title>
        {endpoint.data?.description && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {endpoint.data.description}
          </Text>
        )}
      </Stack>
      {(org.isPending || endpoint.isPending) && !endpoint.isError && (
        <Stack gap="md" aria-busy="true" aria-label="Loading the endpoint">
          <Skeleton height={64} radius="sm" />
          <Skeleton height={200} radius="sm" />
        </Stack>
      )}
      {gone && (
        <Alert color="orange" variant="light" title="This endpoint no longer exists">
          It was deleted, or it is not one of this organization’s.{' '}
          <Anchor component={Link} to={list} inherit fw={600}>
            See the endpoints
          </Anchor>
          .
        </Alert>
      )}
      {endpoint.isError && !gone && (
        <QueryRetryAlert title="The endpoint could not be loaded" query={endpoint} />
      )}
      {endpoint.data && <EndpointParts orgId={orgId} endpoint={endpoint.data} />}
    </Stack>
  );
}
