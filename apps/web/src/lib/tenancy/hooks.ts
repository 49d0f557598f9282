import { useEffect } from 'react';
import { usePublicConfig } from '../config';
import { useMyOrganizations } from './api';
import { applyOrganizationList } from './tenancy';

/**
 * Loads the caller's organizations and keeps the stored list, current organization and workspace
 * in line with it (spec §4). `empty` is true once a loaded list turned out empty.
 */
export function useTenancySync() {
  const query = useMyOrganizations();
  const config = usePublicConfig();
  const autoPick = config.data?.features.auto_pick_workspace ?? false;
  const data = query.data;
  useEffect(() => {
    if (data) applyOrganizationList(data, { autoPick });
  }, [data, autoPick]);
  return { query, empty: data?.length === 0 };
}
