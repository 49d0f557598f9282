import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Portolan's ocean blue; shade 7 (the primary shade) keeps 5.9:1 contrast with white text. */
const ocean: MantineColorsTuple = [
  '#e6f4f8',
  '#cde6ee',
  '#9ccbdc',
  '#67aec9',
  '#3d96b9',
  '#2386ad',
  '#137ea8',
  '#046c93',
  '#005f84',
  '#005275',
];

export const theme = createTheme({
  primaryColor: 'ocean',
  primaryShade: { light: 7, dark: 5 },
  colors: { ocean },
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  // Someone who asked their system for less motion gets none: Mantine's transitions (menus,
  // modals, drawers, toasts, collapses) take no time for them.
  respectReducedMotion: true,
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: {
    fontFamily:
      'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    fontWeight: '700',
  },
  components: {
    // Every field is required unless its description says "Optional"; labels stay plain text
    // (no asterisk), so that "Password" is exactly the label of the password field.
    TextInput: { defaultProps: { withAsterisk: false } },
    PasswordInput: { defaultProps: { withAsterisk: false } },
    Button: { defaultProps: { fw: 600 } },
    Card: { defaultProps: { withBorder: true, radius: 'lg' } },
    // Menus hold only their items: Mantine's focus placeholder (a focusable div) inside
    // role="menu" is a child axe refuses (aria-required-children).
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // A table wider than a phone scrolls sideways: keyboard users reach it (axe
    // scrollable-region-focusable). Tables that name the region pass `scrollRegion(label)`.
    TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } },
  },
});

/** Darker "dimmed" and error text than Mantine's defaults, for WCAG AA contrast on white. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
    // Light (tinted) alerts and badges: Mantine's yellow and orange text on their tint is below
    // 4.5:1 even at shade 9; these darker tones keep about 6:1.
    '--mantine-color-yellow-light-color': '#7f4d00',
    '--mantine-color-orange-light-color': '#9c3608',
  },
  dark: {},
});
