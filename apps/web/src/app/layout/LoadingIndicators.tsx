import { Box, LoadingOverlay, Text } from '@mantine/core';
import { NavigationProgress, nprogress } from '@mantine/nprogress';
import { useEffect, useRef } from 'react';
import { selectLoadingMessage, useLoadingStore } from '../../lib/loading-store';

/**
 * The loading UI of spec §4: the progress bar (driven by the loading store, which hides it
 * 500 ms after the last request), the loading message line and the global spinner.
 */
export function LoadingIndicators() {
  const barVisible = useLoadingStore((s) => s.barVisible);
  const spinner = useLoadingStore((s) => s.spinners > 0);
  const message = useLoadingStore(selectLoadingMessage);
  const started = useRef(false);

  useEffect(() => {
    if (barVisible && !started.current) {
      started.current = true;
      nprogress.start();
    } else if (!barVisible && started.current) {
      started.current = false;
      nprogress.complete();
    }
  }, [barVisible]);

  return (
    <>
      <NavigationProgress size={3} aria-label="Loading progress" withinPortal={false} />
      <Box
        role="status"
        aria-live="polite"
        data-testid="loading-message"
        pos="fixed"
        bottom={16}
        left="50%"
        style={{
          transform: 'translateX(-50%)',
          zIndex: 3000,
          pointerEvents: 'none',
        }}
      >
        {message && (
          <Text
            size="sm"
            fw={500}
            px="md"
            py={6}
            bg="dark.7"
            c="white"
            style={{ borderRadius: 999, boxShadow: 'var(--mantine-shadow-md)' }}
          >
            {message}
          </Text>
        )}
      </Box>
      <LoadingOverlay
        visible={spinner}
        pos="fixed"
        zIndex={2500}
        overlayProps={{ backgroundOpacity: 0.35, blur: 1 }}
        loaderProps={{ 'aria-label': 'Loading, please wait' }}
      />
    </>
  );
}
