import { lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { signingKeys } from '../../db/schema/index.ts';
import { deleteInBatches, type PruneOptions } from '../../lib/prune-batches.ts';
import { RETIRED_KEY_PUBLISHED_MS } from './signing-keys.ts';

/**
 * A retired key no longer published signs nothing and verifies nothing that has not expired:
 * its sealed private half goes (the pruning job, modules/system/prune.ts).
 */
export async function pruneSigningKeys(
  db: Db,
  now: Date,
  options: PruneOptions = {},
): Promise<number> {
  return deleteInBatches(
    db,
    signingKeys,
    signingKeys.kid,
    lt(signingKeys.retired_at, new Date(now.getTime() - RETIRED_KEY_PUBLISHED_MS)),
    options,
  );
}
