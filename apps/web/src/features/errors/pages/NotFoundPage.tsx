import { Card } from '@mantine/core';
import { IconMapPinQuestion } from '@tabler/icons-react';
import { useLocation } from 'react-router';
import { dashboardPath, useAuthStore } from '../../../lib/auth-store';
import { StatusPage } from '../components/StatusPage';

/**
 * /not-found and every unknown path (shown at that path). A signed-in user sees it inside the app
 * shell, in a card of its own, with the way back to the dashboard.
 */
export function NotFoundPage() {
  const { pathname } = useLocation();
  const signedIn = useAuthStore((s) => Boolean(s.userToken) && s.isAuth);
  const unknown = pathname !== '/not-found';
  const start = signedIn ? 'start again from your dashboard' : 'start again from the home page';

  const page = (
    <StatusPage
      icon={<IconMapPinQuestion size={34} />}
      color="ocean"
      title="Page not found"
      supportLead="If a link in the portal brought you here, tell support at"
      home={
        signedIn
          ? { to: dashboardPath(), label: 'Go to the dashboard' }
          : { to: '/', label: 'Go to the home page' }
      }
    >
      {unknown ? (
        <>
          There is no page at <strong style={{ overflowWrap: 'anywhere' }}>{pathname}</strong>.
          Check the address for typos, or {start}.
        </>
      ) : (
        `The page you were looking for does not exist or has moved. Start again from ${
          signedIn ? 'your dashboard' : 'the home page'
        }.`
      )}
    </StatusPage>
  );

  if (!signedIn) return page;
  return (
    <Card padding="xl" maw={520} mx="auto" mt={{ base: 0, sm: 'xl' }}>
      {page}
    </Card>
  );
}
