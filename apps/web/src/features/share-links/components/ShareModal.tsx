import { Divider, Modal, Stack, Text } from '@mantine/core';
import type { ActorRoles, ModuleCode, ShareLinkCreated } from '@portolan/contract';
import { useState } from 'react';
import { moduleName } from '../../../lib/tenancy';
import { CreatedLink } from './CreatedLink';
import { CreateShareLinkForm } from './CreateShareLinkForm';
import { ShareLinkList } from './ShareLinkList';

export interface ShareModalProps {
  opened: boolean;
  onClose: () => void;
  clientId: string;
  module: ModuleCode;
  actor: ActorRoles;
}

/**
 * "Share": a public read-only link to this module page. Make one (with an expiry), copy it while
 * it is shown (once), and see and revoke the workspace's links. Closing forgets the new link.
 */
export function ShareModal({ opened, onClose, clientId, module, actor }: ShareModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Share ${moduleName(module)}`}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      <ShareModalBody clientId={clientId} module={module} actor={actor} />
    </Modal>
  );
}

function ShareModalBody({ clientId, module, actor }: Omit<ShareModalProps, 'opened' | 'onClose'>) {
  const [created, setCreated] = useState<ShareLinkCreated | null>(null);
  return (
    <Stack gap="lg">
      <Text size="sm">
        Anyone with the link sees a read-only page, without signing in: the module’s name and
        overview, this workspace’s name and logo, who shared it and when. Nothing else of the
        workspace is shown.
      </Text>
      {created ? (
        <CreatedLink link={created} onAnother={() => setCreated(null)} />
      ) : (
        <CreateShareLinkForm clientId={clientId} module={module} onCreated={setCreated} />
      )}
      <Divider />
      <ShareLinkList clientId={clientId} actor={actor} />
    </Stack>
  );
}
