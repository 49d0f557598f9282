import { Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { WebhookEndpoint } from '@portolan/contract';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../lib/api';
import { ProblemAlert, SaveChangesButton } from '../../../lib/form-parts';
import { applyFieldErrors, resetToSaved } from '../../../lib/forms';
import { toast } from '../../../lib/toasts';
import { useUpdateWebhook } from '../api/webhooks-api';
import {
  validateWebhook,
  WEBHOOK_FIELD_ALIASES,
  webhookBody,
  WebhookFields,
  webhookValuesOf,
  type WebhookValues,
} from './WebhookFields';

export const WebhookEditMessages = {
  saved: 'The endpoint is saved.',
  unavailable: 'The endpoint could not be saved right now. Please try again in a moment.',
} as const;

/** An endpoint's URL, description and events, saved with PATCH …/webhooks/{id}/. */
export function WebhookEditForm({ orgId, endpoint }: { orgId: string; endpoint: WebhookEndpoint }) {
  const update = useUpdateWebhook(orgId, endpoint.id);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<WebhookValues>({
    initialValues: webhookValuesOf(endpoint),
    validate: validateWebhook,
  });

  const onSubmit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      const saved = await update.mutateAsync(webhookBody(values));
      resetToSaved(form, webhookValuesOf(saved));
      toast.success(WebhookEditMessages.saved);
    } catch (error) {
      if (applyFieldErrors(form, error, WEBHOOK_FIELD_ALIASES)) return;
      setProblem(
        error instanceof ApiError && (error.status >= 500 || error.status === 0)
          ? WebhookEditMessages.unavailable
          : errorMessage(error),
      );
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Endpoint settings">
      <Stack gap="lg">
        <ProblemAlert>{problem}</ProblemAlert>
        <WebhookFields form={form} />
        <SaveChangesButton form={form} />
      </Stack>
    </form>
  );
}
