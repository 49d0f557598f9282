import { Group, Text } from '@mantine/core';
import { BRAND } from '@portolan/contract';

/** The compass-rose mark; decorative, the brand name next to it carries the meaning. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#046c93" />
      <circle cx="32" cy="32" r="19" fill="none" stroke="#fff" strokeWidth="3" />
      <path d="M32 9 37 32 32 55 27 32Z" fill="#fff" />
      <path d="M9 32 32 27 55 32 32 37Z" fill="#9ccbdc" />
      <circle cx="32" cy="32" r="3.5" fill="#046c93" />
    </svg>
  );
}

export function Logo({ size = 32 }: { size?: number }) {
  return (
    <Group gap={10} wrap="nowrap">
      <LogoMark size={size} />
      <Text component="span" fw={800} fz={size > 36 ? 26 : 20} c="ocean.8" lh={1}>
        {BRAND}
      </Text>
    </Group>
  );
}
