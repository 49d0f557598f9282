/**
 * Mantine puts every menu, popover, tooltip, modal and drawer into one shared node under <body>
 * (`[data-mantine-shared-portal-node]`, made on first use). Made here first as a labelled
 * <section>: what opens there sits inside a landmark (axe `region`), and a modal's or drawer's
 * <header> is the header of that section, not a second page-wide `banner` landmark.
 */
export const PORTAL_ROOT_LABEL = 'Menus and dialogs';

export function ensurePortalRoot(doc: Document = document): HTMLElement {
  const existing = doc.querySelector<HTMLElement>('[data-mantine-shared-portal-node]');
  if (existing) return existing;
  const section = doc.createElement('section');
  section.setAttribute('data-portal', 'true');
  section.setAttribute('data-mantine-shared-portal-node', 'true');
  section.setAttribute('aria-label', PORTAL_ROOT_LABEL);
  doc.body.appendChild(section);
  return section;
}
