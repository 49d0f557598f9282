import { Select, Stack, Text, Title } from '@mantine/core';
import type {
  AccessRule,
  AccessRuleInput,
  ModuleCode,
  PermissionCatalogue,
  PermissionKey,
  PermissionStatus,
} from '@portolan/contract';
import { catalogueQueryOptions } from '../api/rules-api';
import { CatalogueStatuses } from '../components/CatalogueStatuses';
import {
  ItemEditorForm,
  ScopedItemPage,
  useItemForm,
  type ItemFormProps,
} from '../components/ScopedItemEditor';
import { statusCounts } from '../components/status';

/** The module Select's value for a rule that covers every module. */
const EVERY = 'every';

interface Values {
  name: string;
  description: string;
  module: string;
  /** Every permission of the catalogue: what the rule says of it. */
  statuses: Record<string, PermissionStatus>;
}

const keysOf = (modules: PermissionCatalogue['modules']) =>
  modules.flatMap((m) => m.groups.flatMap((g) => g.permissions.map((p) => p.key)));

function valuesOf(rule: AccessRule | null, catalogue: PermissionCatalogue): Values {
  const statuses: Record<string, PermissionStatus> = Object.fromEntries(
    keysOf(catalogue.modules).map((key) => [key, 'INHERIT' as const]),
  );
  for (const p of rule?.permissions ?? []) statuses[p.permission] = p.status;
  return {
    name: rule?.name ?? '',
    description: rule?.description ?? '',
    module: rule?.module ?? EVERY,
    statuses,
  };
}

/** The modules the rule speaks of: all of them, or the one it is for. */
const modulesShown = (catalogue: PermissionCatalogue, module: string) =>
  module === EVERY ? catalogue.modules : catalogue.modules.filter((m) => m.module === module);

/** What is sent: the permissions of the modules shown that say ALLOW or DENY, in catalogue order. */
function bodyOf(values: Values, catalogue: PermissionCatalogue): AccessRuleInput {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    module: values.module === EVERY ? null : (values.module as ModuleCode),
    permissions: keysOf(modulesShown(catalogue, values.module)).flatMap((permission) => {
      const status = values.statuses[permission] ?? 'INHERIT';
      return status === 'INHERIT' ? [] : [{ permission: permission as PermissionKey, status }];
    }),
  };
}

function AccessRuleForm(props: ItemFormProps<'access-rules', PermissionCatalogue>) {
  const catalogue = props.needed;
  const editor = useItemForm('access-rules', props, (rule) => valuesOf(rule, catalogue));
  const { form, readOnly } = editor;
  const values = form.getValues();
  const counts = statusCounts(bodyOf(values, catalogue).permissions);

  return (
    <ItemEditorForm
      resource="access-rules"
      props={props}
      editor={editor}
      toBody={(v) => bodyOf(v, catalogue)}
    >
      <Select
        label="Module"
        description="A rule for one module speaks only of that module's permissions."
        data={[
          { value: EVERY, label: 'Every module' },
          ...catalogue.modules.map((m) => ({ value: m.module, label: m.name })),
        ]}
        allowDeselect={false}
        readOnly={readOnly}
        {...form.getInputProps('module')}
      />
      <Stack gap={2}>
        <Title order={3} fz="h4">
          Permissions
        </Title>
        <Text size="sm" c="dimmed">
          Allow or Deny decide; Inherit leaves the permission to the next rule, then to the
          member&apos;s default role. Now: {counts.allow} allowed, {counts.deny} denied.
        </Text>
      </Stack>
      <CatalogueStatuses
        modules={modulesShown(catalogue, values.module)}
        statuses={values.statuses}
        onChange={(next) => form.setFieldValue('statuses', next)}
        readOnly={readOnly}
      />
    </ItemEditorForm>
  );
}

/** access-rules/create and access-rules/:ruleId (both levels): a rule's name, module and permissions. */
export function AccessRuleEditPage() {
  return (
    <ScopedItemPage
      resource="access-rules"
      idParam="ruleId"
      needs={catalogueQueryOptions}
      Form={AccessRuleForm}
    />
  );
}
