import { Alert, Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import type { User } from '@portolan/contract';
import { IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { ErrorCode } from '../../../lib/error-codes';
import { ApiError, errorMessage } from '../../../lib/api';
import { confirmModal } from '../../../lib/confirm';
import { displayName } from '../../../lib/current-user';
import { toast } from '../../../lib/toasts';
import {
  UPLOAD_IMAGE_TYPES,
  UPLOAD_MAX_BYTES,
  useUpdateUser,
  useUploadAvatar,
} from '../api/profile-api';

const ACCEPT = UPLOAD_IMAGE_TYPES.join(',');
const MAX_MB = UPLOAD_MAX_BYTES / (1024 * 1024);

function uploadProblem(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 413 || error.code === ErrorCode.PAYLOAD_TOO_LARGE)
      return `This image is too large: the limit is ${MAX_MB} MB. Choose a smaller one.`;
    if (error.status === 415 || error.code === ErrorCode.UNSUPPORTED_MEDIA_TYPE)
      return 'This file type is not supported. Choose a PNG, JPEG, WebP or GIF image.';
    if (error.status >= 500 || error.status === 0)
      return 'Your photo could not be uploaded right now. Please try again in a moment.';
  }
  return errorMessage(error);
}

/** The profile photo: choose, preview, upload (POST /v1/upload/ then PATCH avatar) or remove. */
export function AvatarCard({ user }: { user: User }) {
  const [chosen, setChosen] = useState<{ file: File; url: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const resetRef = useRef<() => void>(null);
  const upload = useUploadAvatar();
  const update = useUpdateUser();
  const file = chosen?.file ?? null;
  const preview = chosen?.url ?? null;

  // The preview URL lives as long as the chosen file; let it go when the card goes.
  const previewRef = useRef<string | null>(null);
  useEffect(
    () => () => {
      if (previewRef.current) URL.revokeObjectURL(previewRef.current);
    },
    [],
  );

  const replaceChosen = (next: File | null) => {
    if (previewRef.current) URL.revokeObjectURL(previewRef.current);
    const url = next ? URL.createObjectURL(next) : null;
    previewRef.current = url;
    setChosen(next && url ? { file: next, url } : null);
  };

  const choose = (picked: File | null) => {
    setProblem(null);
    if (picked && !(UPLOAD_IMAGE_TYPES as readonly string[]).includes(picked.type)) {
      setProblem('This file type is not supported. Choose a PNG, JPEG, WebP or GIF image.');
      resetRef.current?.();
      return;
    }
    if (picked && picked.size > UPLOAD_MAX_BYTES) {
      setProblem(`This image is larger than ${MAX_MB} MB. Choose a smaller one.`);
      resetRef.current?.();
      return;
    }
    replaceChosen(picked);
  };

  const cancel = () => {
    replaceChosen(null);
    resetRef.current?.();
  };

  const save = async () => {
    if (!file) return;
    setProblem(null);
    try {
      await upload.mutateAsync(file);
      cancel();
      toast.success('Your photo has been updated.');
    } catch (error) {
      setProblem(uploadProblem(error));
    }
  };

  const remove = async () => {
    const ok = await confirmModal({
      title: 'Remove your photo?',
      content: 'Your initials will be shown instead. You can upload a new photo at any time.',
      confirmLabel: 'Remove photo',
      danger: true,
    });
    if (!ok) return;
    setProblem(null);
    try {
      await update.mutateAsync({ avatar: null });
      toast.success('Your photo has been removed.');
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };

  const name = displayName(user);
  const shown = preview ?? user.avatar ?? null;

  return (
    <Stack gap="md">
      <Group gap="lg" wrap="nowrap" align="center">
        <Avatar
          src={shown}
          size={96}
          radius={96}
          color="ocean"
          alt={preview ? 'Preview of your new photo' : user.avatar ? `Photo of ${name}` : ''}
        >
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Stack gap={6}>
          <Text size="sm" c="dimmed">
            {preview
              ? 'This is how your new photo will look. Upload it to save.'
              : `A square PNG, JPEG, WebP or GIF image of up to ${MAX_MB} MB works best.`}
          </Text>
          {file && (
            <Text size="sm" fw={500} truncate maw={280}>
              {file.name}
            </Text>
          )}
        </Stack>
      </Group>

      {problem && (
        <Alert color="red" variant="light" role="alert">
          {problem}
        </Alert>
      )}

      <Group gap="sm">
        {file ? (
          <>
            <Button
              leftSection={<IconUpload size={16} aria-hidden="true" />}
              loading={upload.isPending}
              onClick={() => void save()}
            >
              Upload photo
            </Button>
            <Button variant="default" onClick={cancel} disabled={upload.isPending}>
              Cancel
            </Button>
          </>
        ) : (
          <>
            <FileButton onChange={choose} accept={ACCEPT} resetRef={resetRef}>
              {(props) => (
                <Button
                  {...props}
                  variant="default"
                  leftSection={<IconPhoto size={16} aria-hidden="true" />}
                >
                  {user.avatar ? 'Change photo' : 'Choose photo'}
                </Button>
              )}
            </FileButton>
            {user.avatar && (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} aria-hidden="true" />}
                loading={update.isPending}
                onClick={() => void remove()}
              >
                Remove photo
              </Button>
            )}
          </>
        )}
      </Group>
    </Stack>
  );
}
