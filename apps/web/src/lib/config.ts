import type { PublicConfig } from '@portolan/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api';

/** GET /v1/config: the public build switches (spec §1), loaded once per page load. */
export const publicConfigKey = ['config'] as const;

export function fetchPublicConfig(signal?: AbortSignal): Promise<PublicConfig> {
  return api.get<PublicConfig>('/v1/config', { signal, silent: true });
}

export function publicConfigQueryOptions() {
  return queryOptions({
    queryKey: publicConfigKey,
    queryFn: ({ signal }) => fetchPublicConfig(signal),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

export function usePublicConfig() {
  return useQuery(publicConfigQueryOptions());
}
