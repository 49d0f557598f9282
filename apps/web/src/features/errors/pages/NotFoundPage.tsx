import { IconMapPinQuestion } from '@tabler/icons-react';
import { useLocation } from 'react-router';
import { StatusPage } from '../components/StatusPage';

/** /not-found and every unknown path (shown at that path). */
export function NotFoundPage() {
  const { pathname } = useLocation();
  const unknown = pathname !== '/not-found';
  return (
    <StatusPage icon={<IconMapPinQuestion size={34} />} color="ocean" title="Page not found">
      {unknown ? (
        <>
          There is no page at <strong>{pathname}</strong>. Check the address for typos, or start
          again from the home page.
        </>
      ) : (
        'The page you were looking for does not exist or has moved. Start again from the home page.'
      )}
    </StatusPage>
  );
}
