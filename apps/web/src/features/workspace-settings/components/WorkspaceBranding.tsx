import { Image } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { CUSTOM_CSS_ID, useAuthStore } from '../../../lib/auth-store';
import { sellerSettingsQueryOptions } from '../api/seller-settings-api';

/**
 * The current workspace's stylesheet (as scoped by the API: every selector under
 * `[data-workspace-style]`, the app shell's root) as a `<style id="custom-css" data-workspace-css="<id>">` at
 * the end of the head (after the app's own styles, so it wins at equal specificity), its text set
 * as text, never parsed as HTML. It goes when the workspace stops being current (a switch, the
 * organization switch, a deleted workspace), when the layout goes, and on relogin (spec §4:
 * `relogin` removes the element by its id as well).
 */
export function useWorkspaceStylesheet(clientId: string | null, css: string): void {
  useEffect(() => {
    if (!clientId || !css) return;
    document.getElementById(CUSTOM_CSS_ID)?.remove();
    const style = document.createElement('style');
    style.id = CUSTOM_CSS_ID;
    style.dataset.workspaceCss = clientId;
    style.textContent = css;
    document.head.appendChild(style);
    return () => style.remove();
  }, [clientId, css]);
}

/**
 * The current workspace's branding (issue 11): fetches its seller settings when it becomes
 * current, applies its stylesheet, and shows its header logo (named by the workspace) beside the
 * Portolan logo. Nothing while no workspace is current.
 */
export function WorkspaceBranding() {
  const client = useAuthStore((s) => s.current_client);
  const clientId = client?.id ?? null;
  const settings = useQuery({
    ...sellerSettingsQueryOptions(clientId ?? ''),
    enabled: clientId !== null,
  });
  const branding = clientId ? settings.data : undefined;
  useWorkspaceStylesheet(clientId, branding?.scoped_css ?? '');

  const logo = branding?.default_client_header_logo;
  if (!client || !logo) return null;
  return (
    <Image
      src={logo}
      alt={client.name}
      h={32}
      w="auto"
      maw={160}
      fit="contain"
      visibleFrom="sm"
      data-workspace-logo={client.id}
    />
  );
}
