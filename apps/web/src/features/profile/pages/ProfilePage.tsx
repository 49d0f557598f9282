import { Card, Grid, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconShieldLock, IconUser } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Suspense, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { currentUserQueryOptions } from '../../../lib/current-user';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { lazyPart } from '../../../lib/lazy-part';
import { AvatarCard } from '../components/AvatarCard';
import { DataExportCard } from '../components/DataExportCard';
import { EmailChangeCard } from '../components/EmailChangeCard';
import { MfaRequiredAlert } from '../components/MfaRequiredAlert';
import { PasswordChangeForm } from '../components/PasswordChangeForm';
import { ProfileDetailsForm } from '../components/ProfileDetailsForm';

// Its own chunk (with the QR code's library): loaded when the tab is first opened.
const SecurityTab = lazyPart(() => import('../components/SecurityTab').then((m) => m.SecurityTab));

/** The tabs of My Settings, by their `?tab=` value; the first one has none. */
type Tab = 'profile' | 'security';

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

/** The profile tab: details, password, photo and your data. */
function ProfileTab() {
  const user = useQuery(currentUserQueryOptions());
  return (
    <>
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
              <Section
                title="E-mail address"
                description="The address you sign in with and where we write to you."
              >
                <EmailChangeCard email={user.data.email} />
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
            <DataExportCard />
          </Grid.Col>
        </Grid>
      )}
    </>
  );
}

/**
 * /ps/profile (My Settings), in two tabs: Profile (details, photo, password, your data) and
 * Security (`?tab=security`: two-step verification, sessions, the security log).
 */
export function ProfilePage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'security' ? 'security' : 'profile';
  const choose = (value: string | null) => {
    const next = new URLSearchParams(params);
    if (value === 'security') next.set('tab', value);
    else next.delete('tab');
    setParams(next, { replace: true, preventScrollReset: true });
  };

  return (
    <Stack gap="xl" maw={960}>
      <Stack gap={4}>
        <Title order={1}>My Settings</Title>
        <Text c="dimmed">
          Your personal details, photo and password, and how your account is kept safe.
        </Text>
      </Stack>

      <Tabs value={tab} onChange={choose} keepMounted={false}>
        <Tabs.List aria-label="Settings sections" mb="xl">
          <Tabs.Tab value="profile" leftSection={<IconUser size={16} aria-hidden="true" />}>
            Profile
          </Tabs.Tab>
          <Tabs.Tab value="security" leftSection={<IconShieldLock size={16} aria-hidden="true" />}>
            Security
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile">
          <ProfileTab />
        </Tabs.Panel>
        <Tabs.Panel value="security">
          <Stack gap="xl">
            <MfaRequiredAlert />
            <Suspense
              fallback={
                <Stack gap="lg" aria-busy="true" aria-label="Loading your security settings">
                  <Skeleton height={160} radius="lg" />
                  <Skeleton height={220} radius="lg" />
                </Stack>
              }
            >
              <SecurityTab />
            </Suspense>
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
