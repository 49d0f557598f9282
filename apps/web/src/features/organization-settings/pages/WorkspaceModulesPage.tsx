import { can } from '@portolan/contract';
import { ModuleSwitches } from '../../../lib/module-switches';
import { WorkspaceSubPage } from './WorkspaceSubPage';

/** clients/:clientId/modules: switch each module on or off. */
export function WorkspaceModulesPage() {
  return (
    <WorkspaceSubPage
      title="Modules"
      description="Switch each module on or off. Members see only the modules that are on."
    >
      {({ client, actor }) => (
        <ModuleSwitches clientId={client.id} canSwitch={can(actor, 'client.modules.update')} />
      )}
    </WorkspaceSubPage>
  );
}
