import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import type { ShareLinkCreated } from '@portolan/contract';
import { IconLink } from '@tabler/icons-react';
import { CopyTextButton } from '../../../lib/copy-button';
import { formatDate } from '../../../lib/dates';

/**
 * A link just made: the full address with Copy, and the note that it is shown this once (only
 * its hash is kept). Closing the dialog forgets it.
 */
export function CreatedLink({
  link,
  onAnother,
}: {
  link: ShareLinkCreated;
  onAnother: () => void;
}) {
  return (
    <Stack gap="sm">
      <Alert
        color="ocean"
        variant="light"
        role="status"
        title="Link created"
        icon={<IconLink size={18} aria-hidden="true" />}
      >
        Copy it now: the link is shown only once. You can revoke it below at any time.
      </Alert>
      <Group align="flex-end" gap="sm" wrap="nowrap">
        <TextInput
          label="Share link"
          value={link.url}
          readOnly
          style={{ flex: 1 }}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyTextButton
          value={link.url}
          label="Copy link"
          announcement="The link is copied to the clipboard."
        />
      </Group>
      <Text size="sm" c="dimmed">
        {link.expires_at
          ? `It works until ${formatDate(link.expires_at)}.`
          : 'It never expires: revoke it when it is no longer needed.'}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onAnother}>
          Create another link
        </Button>
      </Group>
    </Stack>
  );
}
