import { Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import {
  releaseNoteQueryOptions,
  useCreateReleaseNote,
  useUpdateReleaseNote,
} from '../api/notes-api';
import { PlatformAdminOnly } from '../components/PlatformAdminOnly';
import { ReleaseNoteForm, type ReleaseNoteValues } from '../components/ReleaseNoteForm';

/** Today in the browser's calendar, YYYY-MM-DD: a new note's date to start from. */
function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function NewNote() {
  const create = useCreateReleaseNote();
  const navigate = useNavigate();
  return (
    <ReleaseNoteForm
      initialValues={{ version: '', release_date: today(), release_note: '' }}
      submitLabel="Publish release note"
      onSave={async (values) => {
        const note = await create.mutateAsync(values);
        toast.success(`Release note ${note.version} was published.`);
        void navigate('/ps/release-notes');
      }}
    />
  );
}

function EditNote({ id }: { id: string }) {
  const note = useQuery(releaseNoteQueryOptions(id));
  const update = useUpdateReleaseNote(id);
  const navigate = useNavigate();
  if (note.isError)
    return <QueryRetryAlert title="The release note could not be loaded" query={note} />;
  if (!note.data)
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading the release note">
        <Skeleton height={56} radius="md" />
        <Skeleton height={200} radius="md" />
      </Stack>
    );
  const initial: ReleaseNoteValues = {
    version: note.data.version,
    release_date: note.data.release_date,
    release_note: note.data.release_note,
  };
  return (
    <ReleaseNoteForm
      key={note.data.id}
      initialValues={initial}
      submitLabel="Save changes"
      onSave={async (values) => {
        const saved = await update.mutateAsync(values);
        toast.success(`Release note ${saved.version} was saved.`);
        void navigate('/ps/release-notes');
      }}
    />
  );
}

/** ps/release-notes/new and ps/release-notes/:noteId: write or change a release note. */
export function ReleaseNoteEditorPage() {
  const { noteId } = useParams();
  return (
    <Stack gap="xl" maw={960}>
      <Stack gap={4}>
        <Title order={1}>{noteId ? 'Edit release note' : 'New release note'}</Title>
        <Text c="dimmed">
          Readers see the version, the date and the note in the header’s Release notes panel; a
          newer note puts a dot on its button until they open it.
        </Text>
      </Stack>
      <PlatformAdminOnly>
        <Card padding="xl" withBorder>
          {noteId ? <EditNote id={noteId} /> : <NewNote />}
        </Card>
      </PlatformAdminOnly>
    </Stack>
  );
}
