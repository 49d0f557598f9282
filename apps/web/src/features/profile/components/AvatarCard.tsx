import { Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import type { User } from '@portolan/contract';
import { IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { ProblemAlert } from '../../../lib/form-parts';
import { errorMessage } from '../../../lib/api';
import { confirmModal } from '../../../lib/confirm';
import { displayName } from '../../../lib/current-user';
import {
  IMAGE_ACCEPT,
  IMAGE_MAX_MB,
  imageFileProblem,
  imageUploadProblem,
} from '../../../lib/image-upload';
import { toast } from '../../../lib/toasts';
import { useUpdateUser, useUploadAvatar } from '../api/profile-api';

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
    const fileProblem = picked && imageFileProblem(picked);
    if (fileProblem) {
      setProblem(fileProblem);
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
      setProblem(imageUploadProblem(error, 'Your photo'));
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
              : `A square PNG, JPEG, WebP or GIF image of up to ${IMAGE_MAX_MB} MB works best.`}
          </Text>
          {file && (
            <Text size="sm" fw={500} truncate maw={280}>
              {file.name}
            </Text>
          )}
        </Stack>
      </Group>

      <ProblemAlert>{problem}</ProblemAlert>

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
            <FileButton onChange={choose} accept={IMAGE_ACCEPT} resetRef={resetRef}>
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
