import { Alert } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export type FormAlertKind = 'error' | 'success' | 'info';

/** A message about the whole form, announced to screen readers. */
export function FormAlert({
  kind = 'error',
  children,
}: {
  kind?: FormAlertKind;
  children: ReactNode;
}) {
  const color = kind === 'error' ? 'red' : kind === 'success' ? 'teal' : 'ocean';
  const Icon =
    kind === 'error' ? IconAlertTriangle : kind === 'success' ? IconCircleCheck : IconInfoCircle;
  return (
    <Alert
      color={color}
      variant="light"
      icon={<Icon size={18} aria-hidden="true" />}
      role={kind === 'error' ? 'alert' : 'status'}
      mb="md"
    >
      {children}
    </Alert>
  );
}
