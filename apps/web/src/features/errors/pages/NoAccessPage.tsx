import { Messages } from '@portolan/contract';
import { IconLock } from '@tabler/icons-react';
import { StatusPage } from '../components/StatusPage';

/** /no-access (title "Access Denied!"). */
export function NoAccessPage() {
  return (
    <StatusPage
      icon={<IconLock size={32} />}
      color="orange"
      title={Messages.accessDeniedTitle}
      supportLead="For any other help, write to support at"
    >
      Your account does not have permission to open this page. If you think it should, ask an owner
      or an admin of your organization to give you access.
    </StatusPage>
  );
}
