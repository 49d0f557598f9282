import { Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { WebhookEndpointCreated } from '@portolan/contract';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../lib/api';
import { ProblemAlert } from '../../../lib/form-parts';
import { applyFieldErrors } from '../../../lib/forms';
import { isStepUpRequired } from '../../../lib/step-up';
import { useCreateWebhook } from '../api/webhooks-api';
import {
  validateWebhook,
  WEBHOOK_FIELD_ALIASES,
  webhookBody,
  WebhookFields,
  type WebhookValues,
} from './WebhookFields';

export const CreateWebhookMessages = {
  unavailable: 'The endpoint could not be added right now. Please try again in a moment.',
} as const;

interface CreateWebhookModalProps {
  opened: boolean;
  onClose: () => void;
  orgId: string;
  /** The endpoint was added: the page shows its secret. */
  onCreated: (created: WebhookEndpointCreated) => void;
}

/** "Add endpoint": its URL, a description, the events it receives. */
export function CreateWebhookModal({ opened, onClose, ...rest }: CreateWebhookModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Add endpoint"
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {/* Mounted while open: each opening starts with an empty form. */}
      <CreateWebhookForm onClose={onClose} {...rest} />
    </Modal>
  );
}

function CreateWebhookForm({ onClose, orgId, onCreated }: Omit<CreateWebhookModalProps, 'opened'>) {
  const create = useCreateWebhook(orgId);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<WebhookValues>({
    initialValues: { url: '', description: '', events: [] },
    validate: validateWebhook,
  });

  const onSubmit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      onCreated(await create.mutateAsync(webhookBody(values)));
    } catch (error) {
      // The step-up dialog was closed: the form stays as it is, to send again.
      if (isStepUpRequired(error)) return;
      if (applyFieldErrors(form, error, WEBHOOK_FIELD_ALIASES)) return;
      // The rest says what to do itself: 409 WEBHOOK_LIMIT asks to delete an endpoint first.
      setProblem(
        error instanceof ApiError && (error.status >= 500 || error.status === 0)
          ? CreateWebhookMessages.unavailable
          : errorMessage(error),
      );
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add endpoint">
      <Stack gap="lg">
        <ProblemAlert>{problem}</ProblemAlert>
        <WebhookFields form={form} autoFocus />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Add endpoint
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
