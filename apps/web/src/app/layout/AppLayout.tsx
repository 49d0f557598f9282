import {
  AppShell,
  Burger,
  em,
  getBreakpointValue,
  Group,
  NavLink,
  ScrollArea,
  type ScrollAreaProps,
  Stack,
  Text,
  UnstyledButton,
  useMantineTheme,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { ModalsProvider } from '@mantine/modals';
import { IconHome, IconLayoutDashboard, IconSettings } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useAuthStore } from '../../lib/auth-store';
import { moduleHomePath, moduleName, moduleOfPath } from '../../lib/tenancy';
import { WorkspaceGuard } from '../guards';
import { AppBreadcrumbs } from './AppBreadcrumbs';
import { Copyright } from './Copyright';
import { Logo, LogoMark } from './Logo';
import { ChannelMenu, SettingsGears, WorkspaceMenu } from './TenancyMenus';
import { useToastArea } from './toast-area';
import { UserMenu } from './UserMenu';
import { NotificationBell } from '../../features/notifications/components/NotificationBell';
import { ReleaseNotesToggle } from '../../features/release-notes/components/ReleaseNotesToggle';
import { WorkspaceBranding } from '../../features/workspace-settings/components/WorkspaceBranding';
import { CredentialAlert } from '../../features/credentials/components/CredentialAlert';

const DASHBOARD_RE = /^\/ps\/(?:[^/]+\/)?dashboard\/?$/;

/**
 * Spec §2: the sidebar scrollbar's length stays between 40 and 200 px. Mantine sizes the thumb
 * from the content ratio (at least 18 px); CSS bounds its length (height) to that range.
 */
const SIDEBAR_SCROLL_STYLES = { thumb: { minHeight: 40, maxHeight: 200 } };

function SidebarScroll(props: ScrollAreaProps) {
  return <ScrollArea scrollbarSize={8} styles={SIDEBAR_SCROLL_STYLES} {...props} />;
}

/** The signed-in container (label Home): header, sidebar, breadcrumbs, page, footer. */
export function AppLayout() {
  useToastArea('app');
  const [mobileOpened, mobile] = useDisclosure(false);
  const [desktopOpened, desktop] = useDisclosure(true);
  const { pathname } = useLocation();
  // A choice in the drawer (a link, a module, a workspace) leads to another page: the drawer closes.
  const closeDrawer = mobile.close;
  useEffect(() => closeDrawer(), [pathname, closeDrawer]);
  const theme = useMantineTheme();
  // Read on the first render (not in an effect): the header's controls are placed by it.
  const mobileView = useMediaQuery(
    `(max-width: ${em(getBreakpointValue('sm', theme.breakpoints) - 0.1)})`,
    undefined,
    { getInitialValueInEffect: false },
  );
  // A collapsed sidebar is off screen: keep keyboard focus and screen readers out of it too.
  const sidebarHidden = mobileView ? !mobileOpened : !desktopOpened;
  // On a phone the drawer is drawn on its first opening, not with the page: its menus, scroll
  // area and links are work a slow phone does before the page responds (total blocking time).
  // Once drawn it stays, so that closing it slides its content away.
  const [drawerDrawn, setDrawerDrawn] = useState(false);
  if (mobileOpened && !drawerDrawn) setDrawerDrawn(true);
  const sidebarContent = !mobileView || drawerDrawn;
  const currentClientId = useAuthStore((s) => s.current_client?.id);
  const home = currentClientId
    ? `/ps/${encodeURIComponent(currentClientId)}/dashboard`
    : '/ps/dashboard';

  const module = moduleOfPath(pathname);
  const moduleLinks =
    module && currentClientId
      ? [
          {
            to: moduleHomePath(module, currentClientId),
            label: 'Home',
            icon: IconHome,
            active: pathname === moduleHomePath(module, currentClientId),
          },
        ]
      : [];

  const links = [
    {
      to: home,
      label: 'Dashboard',
      icon: IconLayoutDashboard,
      active: DASHBOARD_RE.test(pathname),
    },
    {
      to: '/ps/profile',
      label: 'My Settings',
      icon: IconSettings,
      active: pathname.startsWith('/ps/profile'),
    },
  ];

  return (
    <AppShell
      header={{ height: 60 }}
      footer={{ height: 44 }}
      navbar={{
        width: 248,
        breakpoint: 'sm',
        collapsed: { mobile: !mobileOpened, desktop: !desktopOpened },
      }}
      padding={{ base: 'md', sm: 'xl' }}
      // The regions the current workspace's stylesheet reaches (header, sidebar, page, footer):
      // the API scopes every selector under this attribute; modals, menus and toasts are
      // portals outside it.
      data-workspace-style=""
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={mobileOpened}
              onClick={mobile.toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
              aria-expanded={mobileOpened}
              aria-controls="app-sidebar"
            />
            <Burger
              opened={desktopOpened}
              onClick={desktop.toggle}
              visibleFrom="sm"
              size="sm"
              aria-label="Toggle sidebar"
              aria-expanded={desktopOpened}
              aria-controls="app-sidebar"
            />
            <UnstyledButton component={Link} to={home} aria-label="Portolan, go to the dashboard">
              <Group visibleFrom="sm">
                <Logo />
              </Group>
              <Group hiddenFrom="sm">
                <LogoMark size={30} />
              </Group>
            </UnstyledButton>
            <WorkspaceBranding />
            {/* On a phone these sit in the drawer: the header keeps the bell and the account menu in view. */}
            {!mobileView && (
              <Group gap={4} wrap="nowrap" ml="md">
                <WorkspaceMenu />
                <ChannelMenu />
                <SettingsGears />
              </Group>
            )}
          </Group>
          <Group gap="xs" wrap="nowrap">
            <ReleaseNotesToggle />
            <NotificationBell />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar id="app-sidebar" aria-label="Main navigation" p="sm" inert={sidebarHidden}>
        {mobileView && drawerDrawn && (
          <AppShell.Section
            pb="sm"
            mb="sm"
            style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
          >
            <Stack gap={6}>
              <WorkspaceMenu inDrawer />
              <ChannelMenu inDrawer />
              <Group gap={4} wrap="nowrap">
                <SettingsGears inDrawer />
              </Group>
            </Stack>
          </AppShell.Section>
        )}
        {sidebarContent && (
          <AppShell.Section grow component={SidebarScroll}>
            {module && moduleLinks.length > 0 && (
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt={4} pb={6}>
                {moduleName(module)}
              </Text>
            )}
            {[...moduleLinks, ...links].map((link) => (
              <NavLink
                key={`${link.label}-${link.to}`}
                component={Link}
                to={link.to}
                label={link.label}
                active={link.active}
                aria-current={link.active ? 'page' : undefined}
                leftSection={<link.icon size={18} stroke={1.6} aria-hidden="true" />}
                variant="light"
                fw={500}
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
                mb={4}
                onClick={mobile.close}
              />
            ))}
          </AppShell.Section>
        )}
      </AppShell.Navbar>

      <AppShell.Main bg="gray.0">
        <AppBreadcrumbs />
        <ModalsProvider labels={{ confirm: 'Confirm', cancel: 'Cancel' }}>
          <WorkspaceGuard>
            <CredentialAlert />
            <Outlet />
          </WorkspaceGuard>
        </ModalsProvider>
      </AppShell.Main>

      <AppShell.Footer>
        <Group h="100%" px="md" justify="center">
          <Copyright />
        </Group>
      </AppShell.Footer>
    </AppShell>
  );
}
