import { Card, Grid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { currentUserQueryOptions } from '../../../lib/current-user';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { AvatarCard } from '../components/AvatarCard';
import { DataExportCard } from '../components/DataExportCard';
import { PasswordChangeForm } from '../components/PasswordChangeForm';
import { SessionsCard } from '../components/SessionsCard';
import { ProfileDetailsForm } from '../components/ProfileDetailsForm';

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card padding="xl" component="section" aria-label={title}>
      <Stack gap={4} mb="lg">
        <Title order={2} fz="h3">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      </Stack>
      {children}
    </Card>
  );
}

/** /ps/profile (My Settings): profile details, photo, password, sessions and your data. */
export function ProfilePage() {
  const user = useQuery(currentUserQueryOptions());

  return (
    <Stack gap="xl" maw={960}>
      <Stack gap={4}>
        <Title order={1}>My Settings</Title>
        <Text c="dimmed">Your personal details, photo, password and where you are signed in.</Text>
      </Stack>

      {user.isPending && (
        <Stack gap="lg" aria-busy="true" aria-label="Loading your profile">
          <Skeleton height={180} radius="lg" />
          <Skeleton height={260} radius="lg" />
        </Stack>
      )}

      {user.isError && <QueryRetryAlert title="Your profile could not be loaded" query={user} />}

      {user.data && (
        <Grid gap="xl">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap="xl">
              <Section title="Profile" description="How you appear to the people you work with.">
                <ProfileDetailsForm key={user.data.user_id} user={user.data} />
              </Section>
              <Section title="Password" description="Change the password you sign in with.">
                <PasswordChangeForm email={user.data.email} />
              </Section>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Section title="Photo" description="Shown in the header and next to your name.">
              <AvatarCard user={user.data} />
            </Section>
          </Grid.Col>
          <Grid.Col span={12}>
            <SessionsCard />
          </Grid.Col>
          <Grid.Col span={12}>
            <DataExportCard />
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
