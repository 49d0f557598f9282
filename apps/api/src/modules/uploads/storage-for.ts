import path from 'node:path';
import type { AppConfig } from '../../config.ts';
import { s3ClientFor } from '../../lib/s3/client.ts';
import { createS3FileStorage } from './s3-storage.ts';
import { createLocalDiskStorage, type FileStorage } from './storage.ts';

/** The uploads' storage configuration chose: the S3 store of STORAGE_URL, else DATA_DIR/uploads. */
export const fileStorageFor = (config: Pick<AppConfig, 'dataDir' | 'storage'>): FileStorage =>
  config.storage
    ? createS3FileStorage(s3ClientFor(config.storage))
    : createLocalDiskStorage(path.join(config.dataDir, 'uploads'));
