import {
  Alert,
  Badge,
  Card,
  Group,
  List,
  Loader,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { effectiveWorkspaceRole, ROLE_NAMES, type Role } from '@portolan/contract';
import { IconCheck, IconPlug, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Outlet, useLocation, useParams } from 'react-router';
import { usePublicConfig } from '../../../lib/config';
import { currentUserQueryOptions } from '../../../lib/current-user';
import { lazyPart } from '../../../lib/lazy-part';
import { moduleName, moduleOfPath, useWorkspaceAccess } from '../../../lib/tenancy';
import { describeAccess } from '../components/permissions';

/** Only deployments that configure a module's own app (MODULE_URLS) load the launcher. */
const ModuleLauncher = lazyPart(() =>
  import('../components/ModuleLauncher').then((m) => m.ModuleLauncher),
);

const loading = <Loader size="sm" aria-label="Loading" />;

/**
 * A module's home in a workspace (`/tr/:client_id/home` and the like). A module whose own app is
 * configured (the config's `launchable_modules`) opens that app with a launch token. Otherwise:
 * the module, the workspace, and what the member may do there; the module's own tools are
 * outside this product, and an administrator is told this is where they plug in.
 */
export function ModuleHomePage() {
  const { pathname } = useLocation();
  const { client_id: clientId } = useParams();
  const module = moduleOfPath(pathname);
  const access = useWorkspaceAccess(clientId);
  const user = useQuery(currentUserQueryOptions()).data;
  const config = usePublicConfig();
  if (!module) return null;
  if (config.isPending) return loading;
  if (clientId && config.data?.launchable_modules.includes(module)) {
    return (
      <Suspense fallback={loading}>
        <ModuleLauncher clientId={clientId} module={module} />
      </Suspense>
    );
  }
  const name = moduleName(module);
  const actor = { orgRole: access?.orgRole ?? null, workspaceRole: access?.workspaceRole ?? null };
  const role = effectiveWorkspaceRole(actor);
  const admin = role === 'OWNER' || role === 'ADMIN';
  const { allowed, denied } = describeAccess(actor);

  return (
    <Stack gap="xl" maw={960}>
      <Stack gap={4}>
        <Group justify="space-between" gap="sm">
          <Title order={1}>{name}</Title>
          {/* Actions other features add to a module home (app/router.tsx composes them: Share). */}
          <Outlet />
        </Group>
        <Text c="dimmed">
          Workspace <strong>{access?.name ?? '…'}</strong>
          {access && <> in {access.organization.name}</>}
        </Text>
        {module === 'TR' && user && (
          <Text size="sm">
            Your shipments use the{' '}
            <strong>
              {user.custom_shipment_template ? 'Custom' : 'Standard'} shipment template
            </strong>
            .
          </Text>
        )}
      </Stack>

      <Alert
        color="ocean"
        variant="light"
        icon={<IconPlug size={18} aria-hidden="true" />}
        title={`The ${name} tools live outside Portolan`}
      >
        {admin
          ? `This page is where the ${name} tools plug in. Portolan manages who may use them: the workspace, its members and its modules.`
          : `The ${name} tools are not part of Portolan. This page shows the workspace and what you may do in it.`}
      </Alert>

      <Card padding="lg" component="section" aria-labelledby="module-access-title">
        <Group justify="space-between" mb="sm">
          <Title order={2} fz="h4" id="module-access-title">
            What you may do here
          </Title>
          {role && <Badge variant="light">{ROLE_NAMES[role as Role]}</Badge>}
        </Group>
        <List
          spacing={6}
          size="sm"
          icon={
            <ThemeIcon size={20} radius="xl" color="teal" aria-hidden="true">
              <IconCheck size={14} />
            </ThemeIcon>
          }
        >
          {allowed.map((label) => (
            <List.Item key={label}>{label}</List.Item>
          ))}
        </List>
        {denied.length > 0 && (
          <>
            <Text size="sm" fw={600} mt="md" mb={6}>
              Not with your role
            </Text>
            <List
              spacing={6}
              size="sm"
              c="dimmed"
              icon={
                <ThemeIcon size={20} radius="xl" color="gray" variant="light" aria-hidden="true">
                  <IconX size={14} />
                </ThemeIcon>
              }
            >
              {denied.map((label) => (
                <List.Item key={label}>{label}</List.Item>
              ))}
            </List>
          </>
        )}
      </Card>
    </Stack>
  );
}
