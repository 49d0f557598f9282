import { can } from '@portolan/contract';
import { WorkspaceForm } from '../../../lib/workspace-form';
import { useReplaceWorkspace } from '../api/org-settings-api';
import { WorkspaceSubPage, type WorkspaceContext } from './WorkspaceSubPage';

function EditForm({ orgId, client, actor }: WorkspaceContext) {
  const replace = useReplaceWorkspace(orgId, client.id);
  return (
    <WorkspaceForm
      key={client.id}
      client={client}
      canEdit={can(actor, 'client.update')}
      save={(body) => replace.mutateAsync(body)}
    />
  );
}

/** clients/:clientId/edit: name, logo and dashboard button colour (PUT under the organization). */
export function WorkspaceEditPage() {
  return (
    <WorkspaceSubPage
      title="Edit workspace"
      description="Its name, logo and the colour of its dashboard button."
    >
      {(ctx) => <EditForm {...ctx} />}
    </WorkspaceSubPage>
  );
}
