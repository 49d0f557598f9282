import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { canShareModule } from '@portolan/contract';
import { IconShare } from '@tabler/icons-react';
import { useLocation, useParams } from 'react-router';
import { moduleOfPath, useWorkspaceAccess } from '../../../lib/tenancy';
import { ShareModal } from './ShareModal';

/**
 * The Share button of a module home (`/<module>/:client_id/home`), for members who may use the
 * module (the contract's canShareModule, the rule the server applies), and its dialog.
 * app/router.tsx puts it in the module home's slot; the modules feature does not know it.
 */
export function ShareAction() {
  const { pathname } = useLocation();
  const { client_id: clientId } = useParams();
  const module = moduleOfPath(pathname);
  const access = useWorkspaceAccess(clientId);
  const [opened, { open, close }] = useDisclosure(false);
  if (!module || !clientId || !access) return null;
  const actor = { orgRole: access.orgRole, workspaceRole: access.workspaceRole };
  if (!canShareModule(actor, access.modules, module)) return null;
  return (
    <>
      <Button
        variant="light"
        leftSection={<IconShare size={18} aria-hidden="true" />}
        onClick={open}
        aria-haspopup="dialog"
      >
        Share
      </Button>
      <ShareModal
        opened={opened}
        onClose={close}
        clientId={clientId}
        module={module}
        actor={actor}
      />
    </>
  );
}
