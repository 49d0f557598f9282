import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { queryClient as defaultQueryClient } from '../lib/query-client';
import { cssVariablesResolver, theme } from './theme';

const GlobalUi = lazy(() => import('./layout/GlobalUi'));

export interface AppProvidersProps {
  children: ReactNode;
  queryClient?: QueryClient;
  /** 'test' turns off Mantine transitions and portals. */
  env?: 'default' | 'test';
}

/**
 * Theme, data cache, toasts and the loading UI around the router. The modals manager sits in
 * the (lazily loaded) layouts, so that the first page's JavaScript stays small.
 */
export function AppProviders({
  children,
  queryClient = defaultQueryClient,
  env,
}: AppProvidersProps) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      env={env}
    >
      <QueryClientProvider client={queryClient}>
        <Suspense fallback={null}>
          <GlobalUi />
        </Suspense>
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}
