import { Text, type TextProps } from '@mantine/core';
import { APP_VERSION, BRAND } from '@portolan/contract';

/** "© 2025 Portolan. v1.7.4": the current year, the brand and the version. */
export function copyrightText(now: Date = new Date()): string {
  return `© ${now.getFullYear()} ${BRAND}. ${APP_VERSION}`;
}

export function Copyright(props: TextProps) {
  return (
    <Text size="sm" c="dimmed" {...props}>
      {copyrightText()}
    </Text>
  );
}
