import { Alert, Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { UPLOAD_IMAGE_TYPES, UPLOAD_MAX_BYTES } from '@portolan/contract';
import { IconPhoto, IconTrash } from '@tabler/icons-react';
import { useId, useRef, useState } from 'react';
import { ApiError, errorMessage } from './api';
import { ErrorCode } from './error-codes';
import { uploadImage } from './tenant-api';

const ACCEPT = UPLOAD_IMAGE_TYPES.join(',');
const MAX_MB = UPLOAD_MAX_BYTES / (1024 * 1024);

function uploadProblem(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 413 || error.code === ErrorCode.PAYLOAD_TOO_LARGE)
      return `This image is too large: the limit is ${MAX_MB} MB. Choose a smaller one.`;
    if (error.status === 415 || error.code === ErrorCode.UNSUPPORTED_MEDIA_TYPE)
      return 'This file type is not supported. Choose a PNG, JPEG, WebP or GIF image.';
    if (error.status >= 500 || error.status === 0)
      return 'The logo could not be uploaded right now. Please try again in a moment.';
  }
  return errorMessage(error);
}

/**
 * A logo: choose an image, which is uploaded at once (POST /v1/upload/); the form then sends the
 * URL it got. `value` is that URL (or null for no logo). `error` is the server's word on the field.
 */
export function LogoField({
  value,
  onChange,
  name,
  label = 'Logo',
  error,
  disabled = false,
}: {
  value: string | null;
  onChange: (url: string | null) => void;
  /** What the logo is of, for the image's alternative text. */
  name: string;
  label?: string;
  error?: string | null;
  disabled?: boolean;
}) {
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const resetRef = useRef<() => void>(null);
  const shown = problem ?? error ?? null;

  const choose = async (file: File | null) => {
    setProblem(null);
    resetRef.current?.();
    if (!file) return;
    if (!(UPLOAD_IMAGE_TYPES as readonly string[]).includes(file.type)) {
      setProblem('This file type is not supported. Choose a PNG, JPEG, WebP or GIF image.');
      return;
    }
    if (file.size > UPLOAD_MAX_BYTES) {
      setProblem(`This image is larger than ${MAX_MB} MB. Choose a smaller one.`);
      return;
    }
    setUploading(true);
    try {
      const { url } = await uploadImage(file);
      onChange(url);
    } catch (err) {
      setProblem(uploadProblem(err));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Stack gap={6} role="group" aria-labelledby={`${id}-label`}>
      <Text id={`${id}-label`} size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="md" wrap="nowrap">
        <Avatar
          src={value}
          size={56}
          radius="md"
          color="ocean"
          alt={value ? `${label} of ${name || 'this item'}` : ''}
        >
          <IconPhoto size={24} aria-hidden="true" />
        </Avatar>
        <Stack gap={6}>
          <Text id={`${id}-hint`} size="xs" c="dimmed">
            A PNG, JPEG, WebP or GIF image of up to {MAX_MB} MB.
          </Text>
          {!disabled && (
            <Group gap="xs">
              <FileButton
                onChange={(file) => void choose(file)}
                accept={ACCEPT}
                resetRef={resetRef}
              >
                {(props) => (
                  <Button
                    {...props}
                    size="xs"
                    variant="default"
                    loading={uploading}
                    aria-describedby={`${id}-hint`}
                    leftSection={<IconPhoto size={14} aria-hidden="true" />}
                  >
                    {value ? `Change ${label.toLowerCase()}` : `Upload a ${label.toLowerCase()}`}
                  </Button>
                )}
              </FileButton>
              {value && (
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  c="red.9"
                  leftSection={<IconTrash size={14} aria-hidden="true" />}
                  onClick={() => onChange(null)}
                >
                  Remove {label.toLowerCase()}
                </Button>
              )}
            </Group>
          )}
        </Stack>
      </Group>
      {shown && (
        <Alert color="red" variant="light" role="alert" p="xs">
          {shown}
        </Alert>
      )}
    </Stack>
  );
}
