import { Anchor, Text, type TextProps } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { publicConfigQueryOptions } from './config';

/**
 * Spec §1 "Support requests are directed to {email}": the configured SUPPORT_EMAIL, from
 * GET /v1/config. Read from the cache without fetching (the entry script prefetches the config,
 * lib/prefetch.ts), so a footer or an error page never adds a request; null until it is known.
 */
export function useSupportEmail(): string | null {
  const { data } = useQuery({ ...publicConfigQueryOptions(), enabled: false });
  return data?.support_email || null;
}

/** A mailto link to the support address (nothing while the address is unknown). */
export function SupportLink() {
  const email = useSupportEmail();
  if (!email) return null;
  return (
    <Anchor href={`mailto:${email}`} inherit underline="always">
      {email}
    </Anchor>
  );
}

/**
 * "If this keeps happening, write to support at <address>." for error pages; nothing while the
 * address is unknown. `lead` replaces the opening words.
 */
export function SupportLine({
  lead = 'If this keeps happening, write to support at',
  ...props
}: TextProps & { lead?: string }) {
  const email = useSupportEmail();
  if (!email) return null;
  return (
    <Text size="sm" c="dimmed" {...props}>
      {lead} <SupportLink />.
    </Text>
  );
}
