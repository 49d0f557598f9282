import type { ScrollAreaProps } from '@mantine/core';

/**
 * `scrollAreaProps` of a `Table.ScrollContainer`: its scrolling viewport is a named region that
 * takes keyboard focus, so a table wider than the screen can be scrolled with the arrow keys
 * (axe scrollable-region-focusable) and is announced by its name.
 */
export function scrollRegion(label: string): ScrollAreaProps {
  return { viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } };
}
