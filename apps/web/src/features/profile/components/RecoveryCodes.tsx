import { Alert, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { TOTP_ISSUER } from '@portolan/contract';
import { IconDownload, IconKey } from '@tabler/icons-react';
import { CopyTextButton } from '../../../lib/copy-button';
import { saveBlob } from '../../../lib/download';

export const RECOVERY_CODES_FILE = 'portolan-recovery-codes.txt';

/** The .txt file of the codes: what they are, then one code a line. */
export function recoveryCodesText(codes: readonly string[], email: string | null): string {
  return [
    `${TOTP_ISSUER} recovery codes${email ? ` for ${email}` : ''}`,
    `Made ${new Date().toISOString().slice(0, 10)}. Each code signs you in once, in place of your authenticator app or passkey.`,
    '',
    ...codes,
    '',
  ].join('\n');
}

/**
 * Recovery codes just made (after turning two-step verification on, adding the first passkey, or
 * new ones): shown this once, with Copy and Download, until the user says they are saved.
 */
export function RecoveryCodes({
  codes,
  email,
  onDone,
}: {
  codes: readonly string[];
  email: string | null;
  onDone: () => void;
}) {
  const text = recoveryCodesText(codes, email);
  return (
    <Stack gap="md">
      <Alert
        color="ocean"
        variant="light"
        role="status"
        title="Save your recovery codes"
        icon={<IconKey size={18} aria-hidden="true" />}
      >
        If you lose your phone or your passkey, each code signs you in once in their place. They are
        shown only now: keep them somewhere safe, such as a password manager.
      </Alert>
      <SimpleGrid
        component="ol"
        aria-label="Your recovery codes"
        cols={2}
        spacing="xs"
        verticalSpacing={4}
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
      >
        {codes.map((code) => (
          <Text component="li" key={code} ff="monospace" fz="md">
            {code}
          </Text>
        ))}
      </SimpleGrid>
      <Group gap="sm" justify="space-between">
        <Group gap="sm">
          <CopyTextButton
            value={text}
            label="Copy"
            variant="default"
            announcement="The recovery codes are copied to the clipboard."
          />
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            onClick={() => saveBlob(new Blob([text], { type: 'text/plain' }), RECOVERY_CODES_FILE)}
          >
            Download
          </Button>
        </Group>
        <Button onClick={onDone}>I have saved them</Button>
      </Group>
    </Stack>
  );
}
