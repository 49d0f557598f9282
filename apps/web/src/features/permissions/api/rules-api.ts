import type {
  AccessRule,
  AccessRuleInput,
  CustomRole,
  CustomRoleInput,
  PermissionCatalogue,
} from '@portolan/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchAllPages } from '../../../lib/all-pages';
import { api } from '../../../lib/api';
import { apiBase, type ScopeRef } from './scope';

/**
 * Access rules, custom roles and the permission catalogue of an organization or a workspace
 * (decision 0008: `…/access-rules/`, `…/custom-roles/`, `…/permissions/catalogue/` under
 * /v1/organizations/{id} and /v1/clients/{id}).
 */

const enc = encodeURIComponent;

/** Every permission query (rules, roles, members' permissions) starts with this key. */
export const permissionsKey = ['permissions'] as const;
const scopeKey = ({ level, id }: ScopeRef) => [...permissionsKey, level, id] as const;

/** The two resources the rule and role pages work on, with what they send and answer. */
export interface ScopedResources {
  'access-rules': { item: AccessRule; input: AccessRuleInput };
  'custom-roles': { item: CustomRole; input: CustomRoleInput };
}
export type ResourcePath = keyof ScopedResources;

/** GET …/{resource}/ every page: the level's own and, in a workspace, its organization's. */
export function scopedListQueryOptions<R extends ResourcePath>(scope: ScopeRef, resource: R) {
  return queryOptions({
    queryKey: [...scopeKey(scope), resource, 'list'],
    queryFn: ({ signal }) =>
      fetchAllPages<ScopedResources[R]['item']>(`${apiBase(scope)}/${resource}/`, { signal }),
  });
}

/** GET …/{resource}/{itemId}/. */
export function scopedItemQueryOptions<R extends ResourcePath>(
  scope: ScopeRef,
  resource: R,
  itemId: string,
) {
  return queryOptions({
    queryKey: [...scopeKey(scope), resource, 'one', itemId],
    queryFn: ({ signal }) =>
      api.get<ScopedResources[R]['item']>(`${apiBase(scope)}/${resource}/${enc(itemId)}/`, {
        signal,
      }),
  });
}

/** GET …/permissions/catalogue/: the app's permissions by module and group. */
export function catalogueQueryOptions(scope: ScopeRef) {
  return queryOptions({
    queryKey: [...scopeKey(scope), 'catalogue'],
    queryFn: ({ signal }) =>
      api.get<PermissionCatalogue>(`${apiBase(scope)}/permissions/catalogue/`, { signal }),
    staleTime: Infinity,
  });
}

/**
 * POST …/{resource}/ (no `itemId`) or PUT …/{resource}/{itemId}/. Every permission query is
 * read again after: a rule changes the roles that list it and the members who hold those.
 */
export function useSaveScoped<R extends ResourcePath>(
  scope: ScopeRef,
  resource: R,
  itemId: string | undefined,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ScopedResources[R]['input']) =>
      itemId
        ? api.put<ScopedResources[R]['item']>(
            `${apiBase(scope)}/${resource}/${enc(itemId)}/`,
            body,
            { loadingMessage: 'Saving…' },
          )
        : api.post<ScopedResources[R]['item']>(`${apiBase(scope)}/${resource}/`, body, {
            loadingMessage: 'Creating…',
          }),
    onSuccess: (saved) => {
      queryClient.setQueryData(scopedItemQueryOptions(scope, resource, saved.id).queryKey, saved);
      return queryClient.invalidateQueries({ queryKey: permissionsKey });
    },
  });
}

/** DELETE …/{resource}/{itemId}/ (refused with 409 while roles list the rule or members hold the role). */
export function useDeleteScoped(scope: ScopeRef, resource: ResourcePath) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (itemId: string) =>
      api.delete<void>(`${apiBase(scope)}/${resource}/${enc(itemId)}/`, {
        loadingMessage: 'Deleting…',
      }),
    onSuccess: (_done, itemId) => {
      queryClient.removeQueries({
        queryKey: scopedItemQueryOptions(scope, resource, itemId).queryKey,
      });
      return queryClient.invalidateQueries({ queryKey: permissionsKey });
    },
  });
}
