import {
  Alert,
  Anchor,
  Button,
  Group,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm, type FormValidateInput } from '@mantine/form';
import { IconArrowLeft, IconLock, IconTrash } from '@tabler/icons-react';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useState, type ComponentType, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api-error';
import { confirmModal } from '../../../lib/confirm';
import { ErrorCode } from '../../../lib/error-codes';
import { applyFieldErrors, resetToSaved, withAriaInvalid } from '../../../lib/forms';
import { ProblemAlert } from '../../../lib/form-parts';
import { settingsBase, type RuleLevel } from '../../../lib/permission-paths';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import {
  scopedItemQueryOptions,
  useDeleteScoped,
  useSaveScoped,
  type ResourcePath,
  type ScopedResources,
} from '../api/rules-api';
import { isChangeable, useRuleScope, type RuleScope, type ScopeRef } from '../api/scope';
import { ScopeBadges } from './ScopeBadges';

/** The contract's RULE_NAME_MAX_LENGTH and RULE_DESCRIPTION_MAX_LENGTH (zod-free here). */
const NAME_MAX = 120;
const DESCRIPTION_MAX = 500;

/** How the pages say a resource: "access rule", "custom role". */
const ONE: Record<ResourcePath, string> = {
  'access-rules': 'access rule',
  'custom-roles': 'custom role',
};

const who = (level: RuleLevel) =>
  level === 'organization'
    ? 'an owner or an admin of the organization'
    : 'an owner, an admin or a manager of the workspace';

/** What the form of a rule's or role's page is given. */
export interface ItemFormProps<R extends ResourcePath, D> {
  scope: RuleScope;
  /** Null: a new one. */
  item: ScopedResources[R]['item'] | null;
  /** What else the page loaded for it (`needs`). */
  needed: D;
  itemId: string | undefined;
  listPath: string;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The page of one access rule or custom role (`:ruleId`, `:roleId`) or of a new one (`create`):
 * the way back to the list, the title, then `Form` once the item, what it `needs` and the
 * caller's role are loaded (skeletons before; a failure said with Try again; a rule or role that
 * is gone said plainly).
 */
export function ScopedItemPage<R extends ResourcePath, D, K extends QueryKey>({
  resource,
  idParam,
  needs,
  Form,
}: {
  resource: R;
  idParam: 'ruleId' | 'roleId';
  needs: (scope: ScopeRef) => UseQueryOptions<D, Error, D, K>;
  Form: ComponentType<ItemFormProps<R, D>>;
}) {
  const one = ONE[resource];
  const scope = useRuleScope();
  const itemId = useParams()[idParam];
  const item = useQuery({
    ...scopedItemQueryOptions(scope, resource, itemId ?? ''),
    enabled: itemId !== undefined,
  });
  const needed = useQuery(needs(scope));
  const listPath = `${settingsBase(scope.level, scope.id)}/${resource}`;
  const queries = itemId ? [item, needed] : [needed];
  const failed = queries.find((q) => q.isError);
  const gone = failed?.error instanceof ApiError && failed.error.code === ErrorCode.NOT_FOUND;
  return (
    <Stack gap="md">
      <Anchor component={Link} to={listPath} size="sm" w="fit-content">
        <Group gap={4} wrap="nowrap">
          <IconArrowLeft size={16} aria-hidden="true" />
          All {one}s
        </Group>
      </Anchor>
      <Title order={2} fz="h3" style={{ overflowWrap: 'anywhere' }}>
        {itemId ? (item.data?.name ?? capitalized(one)) : `New ${one}`}
      </Title>
      {failed ? (
        gone ? (
          <Alert color="orange" variant="light" title={`No such ${one}`}>
            This {one} does not exist (any more), or it is not usable here. Go back to the list to
            see those that are.
          </Alert>
        ) : (
          <QueryRetryAlert title={`The ${one} could not be loaded`} query={failed} />
        )
      ) : scope.roleLoading || queries.some((q) => q.isPending) || needed.data === undefined ? (
        <Stack gap="sm" aria-busy="true" aria-label={`Loading the ${one}`}>
          <Skeleton height={36} radius="sm" />
          <Skeleton height={72} radius="sm" />
          <Skeleton height={160} radius="sm" />
        </Stack>
      ) : (
        <Form
          key={item.data?.id ?? 'new'}
          scope={scope}
          item={item.data ?? null}
          needed={needed.data}
          itemId={itemId}
          listPath={listPath}
        />
      )}
    </Stack>
  );
}

/** Why a rule or role is shown read-only here, and where it can be changed if anywhere. */
export function ReadOnlyNotice({
  scope,
  resource,
  item,
}: {
  scope: RuleScope;
  resource: ResourcePath;
  item: { id: string; scope: RuleLevel; is_system: boolean; organization: string } | null;
}) {
  const one = ONE[resource];
  if (item ? isChangeable(scope, item) : scope.canManage) return null;
  let text: ReactNode;
  if (item?.is_system) {
    text = `This ${one} is made by the system: it can be used but not changed or deleted.`;
  } else if (item && item.scope !== scope.level) {
    text = (
      <>
        This {one} belongs to the organization: it can be used in this workspace, and is changed in
        the{' '}
        <Anchor
          component={Link}
          to={`${settingsBase('organization', item.organization)}/${resource}/${encodeURIComponent(item.id)}`}
          inherit
        >
          organization&apos;s settings
        </Anchor>
        .
      </>
    );
  } else if (item) {
    text = `Your role may look at this ${one} but not change it. Ask ${who(scope.level)}.`;
  } else {
    text = `Your role may not create ${one}s here. Ask ${who(scope.level)}.`;
  }
  return (
    <Alert color="blue" variant="light" icon={<IconLock size={18} aria-hidden="true" />}>
      <Stack gap={6}>
        {item && <ScopeBadges item={item} level={scope.level} />}
        <Text size="sm">{text}</Text>
      </Stack>
    </Alert>
  );
}

/** What every rule's and role's form holds besides its own fields. */
export interface NamedValues {
  name: string;
  description: string;
}

/** A failed save or deletion in words that say what to do, chosen by the error's code. */
function problemOf(error: unknown, resource: ResourcePath, level: RuleLevel): string {
  const one = ONE[resource];
  if (!(error instanceof ApiError)) return errorMessage(error);
  if (error.status === 0 || error.status >= 500)
    return 'This could not be done right now. Please try again in a moment.';
  switch (error.code) {
    case ErrorCode.SYSTEM_MANAGED:
      return `This ${one} is made by the system: it cannot be changed or deleted.`;
    case ErrorCode.PERMISSION_DENIED:
      return `Your role does not allow this. Ask ${who(level)}.`;
    case ErrorCode.NOT_FOUND:
      return `This ${one} no longer exists. Go back to the list.`;
    case ErrorCode.RULE_IN_USE: {
      const roles = (error.details as { roles?: { name: string }[] } | undefined)?.roles ?? [];
      const names = roles.map((r) => r.name).join(', ');
      return `Custom roles list this rule${names ? `: ${names}` : ''}. Take it out of them first, then delete it.`;
    }
    case ErrorCode.ROLE_IN_USE: {
      const count = (error.details as { count?: number } | undefined)?.count;
      return `${count ? `${count} ${count === 1 ? 'member holds' : 'members hold'}` : 'Members hold'} this role. Take it from them on their permissions pages first, then delete it.`;
    }
    default:
      return errorMessage(error);
  }
}

/**
 * The form of one rule or role: read-only unless the caller may change it here, the name and the
 * description validated with the API's wording; saving (create or replace) and deleting. A clash
 * of names goes on the name field, other validation details on their fields, anything else in
 * the form's alert. A new one leads back to the list; a saved one stays, its form clean again.
 */
export function useItemForm<R extends ResourcePath, Values extends NamedValues>(
  resource: R,
  { scope, item, itemId, listPath }: ItemFormProps<R, unknown>,
  valuesOf: (saved: ScopedResources[R]['item'] | null) => Values,
) {
  const one = ONE[resource];
  const readOnly = item ? !isChangeable(scope, item) : !scope.canManage;
  const form = useForm<Values>({
    enhanceGetInputProps: withAriaInvalid,
    initialValues: valuesOf(item),
    validate: {
      name: (value: string) => {
        const name = value.trim();
        if (!name) return `Enter the ${one} name.`;
        return name.length > NAME_MAX ? `Keep the name under ${NAME_MAX + 1} characters.` : null;
      },
      description: (value: string) =>
        value.trim().length > DESCRIPTION_MAX
          ? `Keep the description under ${DESCRIPTION_MAX + 1} characters.`
          : null,
    } as FormValidateInput<Values>,
  });
  const save = useSaveScoped(scope, resource, itemId);
  const remove = useDeleteScoped(scope, resource);
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (body: ScopedResources[R]['input']) => {
    setProblem(null);
    try {
      const saved = await save.mutateAsync(body);
      if (itemId) {
        resetToSaved(form, valuesOf(saved));
        toast.success(`The ${one} ${saved.name} has been saved.`);
      } else {
        toast.success(`The ${one} ${saved.name} has been created.`);
        void navigate(listPath);
      }
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.NAME_TAKEN) {
        const name = error.message || `Another ${one} here already has this name.`;
        form.setErrors((previous) => ({ ...previous, name }));
      } else if (!applyFieldErrors(form, error)) {
        setProblem(problemOf(error, resource, scope.level));
      }
    }
  };

  const onDelete = async (target: { id: string; name: string }) => {
    const ok = await confirmModal({
      title: `Delete the ${one} ${target.name}?`,
      content:
        resource === 'access-rules'
          ? 'It disappears from this list. A rule that custom roles still list cannot be deleted: take it out of them first.'
          : 'It disappears from this list. A role that members still hold cannot be deleted: take it from them first.',
      confirmLabel: `Delete ${one}`,
      danger: true,
    });
    if (!ok) return;
    setProblem(null);
    try {
      await remove.mutateAsync(target.id);
      toast.success(`The ${one} ${target.name} has been deleted.`);
      void navigate(listPath);
    } catch (error) {
      setProblem(problemOf(error, resource, scope.level));
    }
  };

  return {
    form,
    readOnly,
    submit,
    onDelete,
    problem,
    saving: save.isPending,
    deleting: remove.isPending,
  };
}

/**
 * The page of one rule or role around its own fields (`children`): why it is read-only if it is,
 * the form's problem, the name and the description, then Delete, Cancel and Create or Save
 * changes.
 */
export function ItemEditorForm<R extends ResourcePath, Values extends NamedValues>({
  resource,
  props: { scope, item, listPath },
  editor,
  toBody,
  children,
}: {
  resource: R;
  props: ItemFormProps<R, unknown>;
  editor: ReturnType<typeof useItemForm<R, Values>>;
  /** What is sent for these values. */
  toBody: (values: Values) => ScopedResources[R]['input'];
  children: ReactNode;
}) {
  const one = ONE[resource];
  const { form, readOnly } = editor;
  return (
    <form
      noValidate
      aria-label={item ? `${capitalized(one)} ${item.name}` : `New ${one}`}
      onSubmit={form.onSubmit((values) => void editor.submit(toBody(values)))}
    >
      <Stack gap="md" maw={760}>
        <ReadOnlyNotice scope={scope} resource={resource} item={item} />
        <ProblemAlert>{editor.problem}</ProblemAlert>
        <TextInput
          label="Name"
          description={`Unique among the ${one}s here.`}
          required
          maxLength={NAME_MAX}
          readOnly={readOnly}
          {...form.getInputProps('name')}
        />
        <Textarea
          label="Description"
          description="What it is for (optional)."
          maxLength={DESCRIPTION_MAX}
          rows={3}
          readOnly={readOnly}
          {...form.getInputProps('description')}
        />
        {children}
        <Group justify="space-between" gap="sm" wrap="wrap-reverse">
          <div>
            {item && !readOnly && (
              <Button
                variant="outline"
                color="red.9"
                leftSection={<IconTrash size={16} aria-hidden="true" />}
                onClick={() => void editor.onDelete(item)}
                loading={editor.deleting}
              >
                Delete {one}
              </Button>
            )}
          </div>
          <Group gap="sm">
            <Button component={Link} to={listPath} variant="default">
              {item ? 'Back to the list' : 'Cancel'}
            </Button>
            {!readOnly && (
              <Button
                type="submit"
                loading={editor.saving}
                disabled={item !== null && !form.isDirty()}
              >
                {item ? 'Save changes' : `Create ${one}`}
              </Button>
            )}
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
