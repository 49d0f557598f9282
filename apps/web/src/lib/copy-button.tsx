import { Button, CopyButton, VisuallyHidden, type ButtonProps } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/**
 * A button that copies `value` to the clipboard: "Copied" with a tick for a moment, and a
 * sentence said to screen readers (`announcement`).
 */
export function CopyTextButton({
  value,
  label,
  announcement,
  ...props
}: {
  value: string;
  /** "Copy link". */
  label: string;
  /** "The link is copied to the clipboard." */
  announcement: string;
} & Pick<ButtonProps, 'variant' | 'size' | 'fullWidth'>) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <>
          <Button
            {...props}
            onClick={copy}
            color={copied ? 'teal.8' : undefined}
            leftSection={
              copied ? (
                <IconCheck size={16} aria-hidden="true" />
              ) : (
                <IconCopy size={16} aria-hidden="true" />
              )
            }
          >
            {copied ? 'Copied' : label}
          </Button>
          <VisuallyHidden aria-live="polite">{copied ? announcement : ''}</VisuallyHidden>
        </>
      )}
    </CopyButton>
  );
}
