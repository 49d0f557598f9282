import { Alert, Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { IconPhoto, IconTrash } from '@tabler/icons-react';
import { useId, useRef, useState } from 'react';
import {
  IMAGE_ACCEPT,
  IMAGE_MAX_MB,
  imageFileProblem,
  imageUploadProblem,
  uploadImage,
} from './image-upload';

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
    const fileProblem = imageFileProblem(file);
    if (fileProblem) {
      setProblem(fileProblem);
      return;
    }
    setUploading(true);
    try {
      const { url } = await uploadImage(file, 'Uploading the logo…');
      onChange(url);
    } catch (err) {
      setProblem(imageUploadProblem(err, 'The logo'));
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
            A PNG, JPEG, WebP or GIF image of up to {IMAGE_MAX_MB} MB.
          </Text>
          {!disabled && (
            <Group gap="xs">
              <FileButton
                onChange={(file) => void choose(file)}
                accept={IMAGE_ACCEPT}
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
