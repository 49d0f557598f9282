import { Alert, Box, List, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useRef } from 'react';
import { contrastWarnings, MIN_CONTRAST } from '../contrast';

/**
 * The stylesheet being edited, applied to a sample of the workspace's regions (a header and a
 * page) in a shadow root: nothing of it reaches the settings page around it, nothing of the page
 * reaches the sample. Below it, every selector whose text and background colours contrast below
 * 4.5:1 (issue 18), before anything is saved.
 */
export function BrandingPreview({ css, name }: { css: string; name: string }) {
  const host = useRef<HTMLDivElement>(null);
  const style = useRef<HTMLStyleElement | null>(null);
  const warnings = useMemo(() => contrastWarnings(css), [css]);

  useEffect(() => {
    const el = host.current;
    if (!el || style.current) return;
    const root = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
    const base = document.createElement('style');
    base.textContent =
      ':host{display:block}[data-workspace-style]{font-family:system-ui,sans-serif;background:#fff;color:#212529}' +
      'header{display:flex;align-items:center;gap:8px;padding:10px 14px;border-bottom:1px solid #dee2e6;font-weight:600}' +
      'main{padding:14px}h1{font-size:18px;margin:0 0 6px}p{margin:0 0 8px}';
    const custom = document.createElement('style');
    const region = document.createElement('div');
    region.setAttribute('data-workspace-style', '');
    region.inert = true;
    const header = document.createElement('header');
    header.textContent = name;
    const main = document.createElement('main');
    const h1 = document.createElement('h1');
    h1.textContent = 'Dashboard';
    const p = document.createElement('p');
    p.textContent = 'A page of this workspace, as its members will see it.';
    const a = document.createElement('a');
    a.href = '#preview';
    a.textContent = 'A link';
    // A picture of the page (role img): nothing in it takes focus or clicks.
    a.tabIndex = -1;
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'A button';
    button.tabIndex = -1;
    main.append(h1, p, a, document.createTextNode(' '), button);
    region.append(header, main);
    root.replaceChildren(base, custom, region);
    style.current = custom;
  }, [name]);

  useEffect(() => {
    // As text, never parsed as markup.
    if (style.current) style.current.textContent = css;
  });

  return (
    <Stack gap="xs">
      <Text size="sm" fw={500} id="branding-preview-label">
        Preview
      </Text>
      <Box
        ref={host}
        role="img"
        aria-labelledby="branding-preview-label"
        data-branding-preview=""
        style={{
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-sm)',
          overflow: 'hidden',
        }}
      />
      <Text size="xs" c="dimmed">
        The stylesheet reaches the workspace’s header, sidebar, pages and footer; never dialogs,
        menus or notifications.
      </Text>
      {warnings.length > 0 && (
        <Alert color="yellow" title="Text may be hard to read" data-contrast-warning="">
          <Text size="sm">
            Text needs a contrast of at least {MIN_CONTRAST}:1 with its background. Here:
          </Text>
          <List size="sm">
            {warnings.map((w) => (
              <List.Item key={w.selector}>
                <Text span ff="monospace" size="sm">
                  {w.selector}
                </Text>
                : {w.color} on {w.background} is {w.ratio}:1
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}
