// Rows read per query when an exporter streams a data set (lib/data-export.ts), for this module's
// tests that fill more than one batch.
export { BATCH } from '../../lib/data-export.ts';
