import { Modal, Stack } from '@mantine/core';
import type { Client, SpendCap } from '@portolan/contract';
import { SpendCapForm } from './SpendCapForm';
import { SpendCapProgress } from './SpendCapProgress';

/** A workspace's monthly cap, edited in a dialog over the caps table. */
export function WorkspaceCapModal({
  orgId,
  workspace,
  cap,
  onClose,
}: {
  orgId: string;
  /** The workspace being edited; null: closed. */
  workspace: Client | null;
  cap: SpendCap | undefined;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={workspace !== null && cap !== undefined}
      onClose={onClose}
      title={workspace ? `Monthly cap of ${workspace.name}` : ''}
      centered
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {workspace && cap && (
        <Stack gap="md">
          <SpendCapProgress cap={cap} name={workspace.name} />
          {/* Mounted while open: each opening starts from the saved cap. */}
          <SpendCapForm
            orgId={orgId}
            owner={{ kind: 'workspace', clientId: workspace.id }}
            cap={cap}
            name={workspace.name}
            onSaved={onClose}
            onCancel={onClose}
          />
        </Stack>
      )}
    </Modal>
  );
}
