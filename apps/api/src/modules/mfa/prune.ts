import { lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { webauthnChallenges } from '../../db/schema/index.ts';
import { deleteInBatches, type PruneOptions } from '../../lib/prune-batches.ts';

/** Passkey ceremonies in flight: refused once expired, then deleted. */
export async function pruneWebauthnChallenges(
  db: Db,
  now: Date,
  options: PruneOptions = {},
): Promise<number> {
  return deleteInBatches(
    db,
    webauthnChallenges,
    webauthnChallenges.id,
    lt(webauthnChallenges.expires_at, now),
    options,
  );
}
