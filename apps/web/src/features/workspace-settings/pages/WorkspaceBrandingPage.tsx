import { Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  can,
  CUSTOM_CSS_MAX_BYTES,
  CssMessages,
  cssByteLength,
  kilobytes,
  type Role,
  type SellerSettings,
} from '@portolan/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { ProblemAlert, SaveChangesButton } from '../../../lib/form-parts';
import { resetToSaved, withAriaInvalid } from '../../../lib/forms';
import { LogoField } from '../../../lib/logo-field';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { clientQueryOptions } from '../../../lib/tenant-api';
import { tenantFormProblem } from '../../../lib/tenant-forms';
import { toast } from '../../../lib/toasts';
import { BrandingPreview } from '../components/BrandingPreview';
import {
  patchSellerSettings,
  sellerSettingsKey,
  sellerSettingsQueryOptions,
} from '../api/seller-settings-api';

const MONOSPACE = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/**
 * client-branding: the workspace's header logo and stylesheet (seller settings, issue 11), applied
 * for every member while the workspace is their current one. OWNERs and ADMINs (of the workspace
 * or its organization) change them; others read them.
 */
export function WorkspaceBrandingPage() {
  const { id = '' } = useParams();
  const client = useQuery(clientQueryOptions(id));
  const settings = useQuery(sellerSettingsQueryOptions(id));
  // The role the API answers is the effective one (an organization OWNER or ADMIN counts).
  const role = (client.data?.role?.key ?? null) as Role | null;
  const canEdit = can({ orgRole: null, workspaceRole: role }, 'client.update');

  return (
    <Stack gap="md" aria-labelledby="ws-branding-title">
      <Title order={2} fz="h3" id="ws-branding-title">
        Branding
      </Title>
      <Text size="sm" c="dimmed">
        The header logo and the stylesheet apply for every member while this workspace is their
        current one.
      </Text>
      {settings.isError && (
        <QueryRetryAlert title="The branding could not be loaded" query={settings} />
      )}
      {(client.isPending || settings.isPending) && (
        <Stack gap="md" aria-busy="true" aria-label="Loading the branding">
          <Skeleton height={56} />
          <Skeleton height={180} />
        </Stack>
      )}
      {client.data && settings.data && (
        <>
          {!canEdit && (
            <Text size="sm" c="dimmed">
              Only an owner or an admin of this workspace can change its branding.
            </Text>
          )}
          <BrandingForm
            key={id}
            clientId={id}
            name={client.data.name}
            settings={settings.data}
            canEdit={canEdit}
          />
        </>
      )}
    </Stack>
  );
}

/** What the form changes: the logo and the stylesheet as written (not the scoped copy). */
type Editable = Pick<SellerSettings, 'default_client_header_logo' | 'custom_css'>;
const editable = (s: SellerSettings): Editable => ({
  default_client_header_logo: s.default_client_header_logo,
  custom_css: s.custom_css,
});

function BrandingForm({
  clientId,
  name,
  settings,
  canEdit,
}: {
  clientId: string;
  name: string;
  settings: SellerSettings;
  canEdit: boolean;
}) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Editable>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: editable(settings),
    validate: {
      custom_css: (css) => {
        const bytes = cssByteLength(css);
        return bytes > CUSTOM_CSS_MAX_BYTES ? CssMessages.tooLarge(bytes) : null;
      },
    },
  });
  const bytes = cssByteLength(form.values.custom_css);
  const logo = form.values.default_client_header_logo;

  const onSubmit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const saved = await patchSellerSettings(clientId, values);
      // The header applies it at once when this workspace is the current one.
      queryClient.setQueryData(sellerSettingsKey(clientId), saved);
      resetToSaved(form, editable(saved));
      toast.success('The branding has been saved.');
    } catch (error) {
      setFormError(tenantFormProblem(form, error));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Workspace branding">
      <Stack gap="lg">
        <ProblemAlert>{formError}</ProblemAlert>
        <Stack gap={4}>
          <LogoField
            label="Header logo"
            name={name}
            value={logo}
            onChange={(url) => {
              form.setFieldValue('default_client_header_logo', url);
              form.clearFieldError('default_client_header_logo');
            }}
            error={form.errors.default_client_header_logo as string | undefined}
            disabled={!canEdit}
          />
          {logo && (
            <Text size="xs" c="dimmed">
              Its address, for url() in the stylesheet:{' '}
              <Text span ff="monospace" size="xs">
                {logo}
              </Text>
            </Text>
          )}
        </Stack>
        <Textarea
          label="Custom stylesheet (CSS)"
          description={`${kilobytes(bytes)} of ${kilobytes(CUSTOM_CSS_MAX_BYTES)}. Not allowed: @import, expression(), and url() other than images uploaded to this portal.`}
          placeholder={'header { background-color: #0b3d5c; }'}
          rows={14}
          resize="vertical"
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          autoCorrect="off"
          readOnly={!canEdit}
          styles={MONOSPACE}
          {...form.getInputProps('custom_css')}
        />
        <BrandingPreview css={form.values.custom_css} name={name} />
        {canEdit && <SaveChangesButton form={form} />}
      </Stack>
    </form>
  );
}
