import { Button } from '@mantine/core';
import { IconServerOff } from '@tabler/icons-react';
import { StatusPage } from '../components/StatusPage';

/** /server-error. */
export function ServerErrorPage() {
  return (
    <StatusPage
      icon={<IconServerOff size={32} />}
      color="red"
      title="The server ran into a problem"
      actions={
        <Button variant="default" fullWidth onClick={() => window.location.reload()}>
          Reload the page
        </Button>
      }
    >
      Something went wrong on our side and your request could not be completed. Nothing you did
      caused it. Wait a moment, then reload the page.
    </StatusPage>
  );
}
