import {
  AppShell,
  Burger,
  em,
  getBreakpointValue,
  Group,
  NavLink,
  ScrollArea,
  UnstyledButton,
  useMantineTheme,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { ModalsProvider } from '@mantine/modals';
import { IconLayoutDashboard, IconSettings } from '@tabler/icons-react';
import { Link, Outlet, useLocation } from 'react-router';
import { useAuthStore } from '../../lib/auth-store';
import { AppBreadcrumbs } from './AppBreadcrumbs';
import { Copyright } from './Copyright';
import { Logo } from './Logo';
import { useToastArea } from './toast-area';
import { UserMenu } from './UserMenu';

const DASHBOARD_RE = /^\/ps\/(?:[^/]+\/)?dashboard\/?$/;

/** The signed-in container (label Home): header, sidebar, breadcrumbs, page, footer. */
export function AppLayout() {
  useToastArea('app');
  const [mobileOpened, mobile] = useDisclosure(false);
  const [desktopOpened, desktop] = useDisclosure(true);
  const { pathname } = useLocation();
  const theme = useMantineTheme();
  const mobileView = useMediaQuery(
    `(max-width: ${em(getBreakpointValue('sm', theme.breakpoints) - 0.1)})`,
  );
  // A collapsed sidebar is off screen: keep keyboard focus and screen readers out of it too.
  const sidebarHidden = mobileView ? !mobileOpened : !desktopOpened;
  const currentClientId = useAuthStore((s) => s.current_client?.id);
  const home = currentClientId
    ? `/ps/${encodeURIComponent(currentClientId)}/dashboard`
    : '/ps/dashboard';

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
              <Logo />
            </UnstyledButton>
          </Group>
          <UserMenu />
        </Group>
      </AppShell.Header>

      <AppShell.Navbar id="app-sidebar" aria-label="Main navigation" p="sm" inert={sidebarHidden}>
        <AppShell.Section grow component={ScrollArea} scrollbarSize={8}>
          {links.map((link) => (
            <NavLink
              key={link.label}
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
      </AppShell.Navbar>

      <AppShell.Main bg="gray.0">
        <AppBreadcrumbs />
        <ModalsProvider labels={{ confirm: 'Confirm', cancel: 'Cancel' }}>
          <Outlet />
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
