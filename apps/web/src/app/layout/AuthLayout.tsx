import { Anchor, Box, Center, Container, Paper } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { Copyright } from './Copyright';
import { Logo } from './Logo';
import { useToastArea } from './toast-area';

/** Public pages: a centred card under the brand, on a quiet background. */
export function AuthLayout() {
  useToastArea('auth');
  return (
    <Box
      mih="100vh"
      bg="gray.0"
      style={{
        display: 'flex',
        flexDirection: 'column',
        backgroundImage:
          'radial-gradient(circle at 15% 0%, var(--mantine-color-ocean-0) 0, transparent 45%), radial-gradient(circle at 100% 100%, var(--mantine-color-ocean-1) 0, transparent 40%)',
      }}
    >
      {/* Padding and logo size in global.css: toasts start just below this brand area. */}
      <Box component="header" className="portolan-auth-brand">
        <Center>
          <Anchor component={Link} to="/" underline="never" aria-label="Portolan home">
            <Logo size={40} />
          </Anchor>
        </Center>
      </Box>
      <Box component="main" style={{ flex: 1 }} px="md" pb="xl">
        <Container size={460} p={0}>
          <Paper withBorder shadow="md" radius="lg" p={{ base: 'lg', sm: 32 }}>
            <Outlet />
          </Paper>
        </Container>
      </Box>
      <Box component="footer" py="md">
        <Center>
          <Copyright />
        </Center>
      </Box>
    </Box>
  );
}
