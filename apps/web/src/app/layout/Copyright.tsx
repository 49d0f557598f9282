import { Text, type TextProps } from '@mantine/core';
import { APP_VERSION, BRAND } from '@portolan/contract';
import { SupportLink, useSupportEmail } from '../../lib/support-contact';

/** "© 2025 Portolan. v1.7.4": the current year, the brand and the version. */
export function copyrightText(now: Date = new Date()): string {
  return `© ${now.getFullYear()} ${BRAND}. ${APP_VERSION}`;
}

/** The footer line: the copyright, then where support requests go (spec §1), once known. */
export function Copyright(props: TextProps) {
  const support = useSupportEmail();
  return (
    // Two lines at most on a phone: they fit the signed-in footer (44 px).
    <Text size="sm" c="dimmed" ta="center" lh={1.3} {...props}>
      {copyrightText()}
      {support && (
        <>
          {' · '}
          Support: <SupportLink />
        </>
      )}
    </Text>
  );
}
