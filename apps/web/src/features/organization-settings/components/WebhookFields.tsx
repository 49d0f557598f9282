import { TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  SUBSCRIBABLE_EVENT_TYPES,
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_URL_MAX_LENGTH,
  type WebhookEndpoint,
} from '@portolan/contract';
import { WebhookEventPicker } from './WebhookEventPicker';

export const WebhookFormMessages = {
  url: 'Enter the URL that receives the events.',
  urlFormat:
    'Enter a full URL starting with https:// or http://, such as https://example.com/hooks.',
  urlLength: `Keep the URL under ${WEBHOOK_URL_MAX_LENGTH + 1} characters.`,
  description: `Keep the description under ${WEBHOOK_DESCRIPTION_MAX_LENGTH + 1} characters.`,
  events: 'Choose at least one event.',
} as const;

/** What the add and edit forms hold of an endpoint. */
export interface WebhookValues {
  url: string;
  description: string;
  events: string[];
}

export const webhookValuesOf = (endpoint: WebhookEndpoint): WebhookValues => ({
  url: endpoint.url,
  description: endpoint.description,
  events: endpoint.events,
});

const isWebUrl = (value: string) => {
  try {
    return ['https:', 'http:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** The checks made before sending (the server makes them again, and more: a private address). */
export const validateWebhook = {
  url: (value: string) => {
    const url = value.trim();
    if (url === '') return WebhookFormMessages.url;
    if (url.length > WEBHOOK_URL_MAX_LENGTH) return WebhookFormMessages.urlLength;
    return isWebUrl(url) ? null : WebhookFormMessages.urlFormat;
  },
  description: (value: string) =>
    value.trim().length > WEBHOOK_DESCRIPTION_MAX_LENGTH ? WebhookFormMessages.description : null,
  events: (value: string[]) => (value.length === 0 ? WebhookFormMessages.events : null),
};

/** Where the server's validation details go: an entry of the list (`events.3`) on the picker. */
export const WEBHOOK_FIELD_ALIASES: Record<string, string> = Object.fromEntries(
  SUBSCRIBABLE_EVENT_TYPES.map((_, i) => [`events.${i}`, 'events']),
);

/** URL, description and events: the fields of the add dialog and of an endpoint's page. */
export function WebhookFields({
  form,
  autoFocus = false,
}: {
  form: UseFormReturnType<WebhookValues>;
  autoFocus?: boolean;
}) {
  const events = form.getInputProps('events');
  return (
    <>
      <TextInput
        label="URL"
        description="Where Portolan sends the events: an address of your system reachable from the internet."
        placeholder="https://example.com/hooks/portolan"
        type="url"
        required
        maxLength={WEBHOOK_URL_MAX_LENGTH}
        data-autofocus={autoFocus || undefined}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        {...form.getInputProps('url')}
      />
      <TextInput
        label="Description"
        description="Optional: what receives the events, to know the endpoint again."
        maxLength={WEBHOOK_DESCRIPTION_MAX_LENGTH}
        {...form.getInputProps('description')}
      />
      <WebhookEventPicker
        value={form.getValues().events}
        onChange={(next) => form.setFieldValue('events', next)}
        error={events.error as string | undefined}
      />
    </>
  );
}

/** The form's values as the API takes them: trimmed, the events in the catalogue's order. */
export const webhookBody = (values: WebhookValues): WebhookValues => ({
  url: values.url.trim(),
  description: values.description.trim(),
  events: SUBSCRIBABLE_EVENT_TYPES.filter((type) => values.events.includes(type)),
});
