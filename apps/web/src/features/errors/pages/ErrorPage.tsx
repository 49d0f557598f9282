import { Button } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { StatusPage } from '../components/StatusPage';

/** /error: a generic failure. */
export function ErrorPage() {
  return (
    <StatusPage
      icon={<IconAlertTriangle size={32} />}
      color="red"
      title="Something went wrong"
      actions={
        <Button variant="default" fullWidth onClick={() => window.history.back()}>
          Go back
        </Button>
      }
    >
      We could not finish what you asked for. Go back and try again, or start again from the home
      page.
    </StatusPage>
  );
}
