import { Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { TOTP_DIGITS, type TotpSetupResponse } from '@portolan/contract';
import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '../../../lib/api';
import { CodeInput } from '../../../lib/code-input';
import { CopyTextButton } from '../../../lib/copy-button';
import { ErrorCode } from '../../../lib/error-codes';
import { ProblemAlert } from '../../../lib/form-parts';
import { isStepUpRequired } from '../../../lib/step-up';
import { useConfirmTotp } from '../api/mfa-api';

export const TotpSetupMessages = {
  missingCode: `Enter the ${TOTP_DIGITS}-digit code your authenticator app shows.`,
  wrongCode: 'That code is not right. Check the app shows Portolan and try the newest code.',
  expired: 'This setup is no longer pending. Start again to get a new key.',
  unavailable: 'The code could not be checked right now. Please try again in a moment.',
} as const;

/** The key in groups of four, easier to type into an app by hand. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * Setting up the authenticator app: its QR code (and the key to type in instead), then a code of
 * it to prove it works (POST /v1/user/mfa/totp/confirm/), which turns two-step verification on and
 * answers the recovery codes.
 */
export function TotpSetup({
  setup,
  onConfirmed,
  onCancel,
}: {
  setup: TotpSetupResponse;
  onConfirmed: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}) {
  const confirm = useConfirmTotp();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const problem =
      /^\d+$/.test(code) && code.length === TOTP_DIGITS ? null : TotpSetupMessages.missingCode;
    setCodeError(problem);
    if (problem) return;
    confirm.mutate(code, {
      onSuccess: (res) => onConfirmed(res.recovery_codes),
      onError: (error) => {
        // The step-up dialog was closed: nothing changed, nothing to say.
        if (isStepUpRequired(error)) return;
        if (error instanceof ApiError && error.code === ErrorCode.INVALID_CODE) {
          setCodeError(error.fieldErrors[0]?.message ?? TotpSetupMessages.wrongCode);
        } else if (error instanceof ApiError && error.code === ErrorCode.MFA_NOT_ENABLED) {
          setFormError(TotpSetupMessages.expired);
        } else if (error instanceof ApiError && (error.status >= 500 || error.status === 0)) {
          setFormError(TotpSetupMessages.unavailable);
        } else {
          setFormError(errorMessage(error));
        }
      },
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="lg">
        <Stack gap="xs">
          <Title order={3} fz="h4">
            1. Add Portolan to your authenticator app
          </Title>
          <Text size="sm" c="dimmed">
            Scan this QR code with an app such as Google Authenticator, Microsoft Authenticator or
            1Password.
          </Text>
          <Box bg="white" p="sm" w="fit-content" bdrs="md" style={{ lineHeight: 0 }}>
            <QRCodeSVG
              value={setup.otpauth_url}
              size={176}
              marginSize={0}
              role="img"
              aria-label="QR code to scan with your authenticator app"
            />
          </Box>
          <Text size="sm">Cannot scan it? Type this key into the app instead:</Text>
          <Group gap="sm" align="center">
            {/* Text, not Mantine's Code: its stylesheet would load with every page. */}
            <Text
              component="code"
              ff="monospace"
              fz="md"
              bg="gray.1"
              px="xs"
              py={2}
              bdrs="sm"
              data-testid="totp-secret"
              style={{ wordBreak: 'break-all' }}
            >
              {grouped(setup.secret)}
            </Text>
            <CopyTextButton
              value={setup.secret}
              label="Copy key"
              variant="default"
              size="xs"
              announcement="The key is copied to the clipboard."
            />
          </Group>
        </Stack>
        <Stack gap="xs">
          <Title order={3} fz="h4">
            2. Enter the code the app shows
          </Title>
          <ProblemAlert>{formError}</ProblemAlert>
          <CodeInput
            label="Code from your authenticator app"
            length={TOTP_DIGITS}
            value={code}
            onChange={(next) => {
              setCode(next);
              if (codeError) setCodeError(null);
            }}
            error={codeError}
          />
        </Stack>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={confirm.isPending}>
            Turn on
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
