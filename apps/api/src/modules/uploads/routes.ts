import multipart from '@fastify/multipart';
import {
  ErrorCode,
  UPLOAD_MAX_BYTES,
  errorBodySchema,
  uploadResponseSchema,
} from '@portolan/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { uploads } from '../../db/schema/index.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { requireAuth } from '../access/index.ts';
import { IMAGE_EXTENSIONS, sniffImageType } from './sniff.ts';
import { STORAGE_KEY_PATTERN, newStorageKey, type FileStorage } from './storage.ts';
import { fileStorageFor } from './storage-for.ts';
import { storageFailure } from './unavailable.ts';

export interface UploadRoutesOptions {
  /** Where the bytes go; as configured (STORAGE_URL, else DATA_DIR/uploads) unless given. */
  storage?: FileStorage;
}

const MAX_MB = UPLOAD_MAX_BYTES / (1024 * 1024);
const tooLarge = () => {
  const message = `The file is larger than ${MAX_MB} MB.`;
  return new AppError(ErrorCode.PAYLOAD_TOO_LARGE, message, [{ field: 'file', message }]);
};
const unreadable = () =>
  fieldError(
    'file',
    'The upload could not be read: send multipart/form-data with the image in the field "file".',
  );

/** The one file of the form, in field `file`; any other field or a second file is refused. */
async function readSingleFile(request: FastifyRequest): Promise<Buffer> {
  let bytes: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') throw fieldError(part.fieldname, 'Unknown field.');
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw fieldError(part.fieldname, 'Unknown field.');
      }
      if (bytes !== null) throw fieldError('file', 'Send one file only.');
      bytes = await part.toBuffer();
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    switch ((err as { code?: string }).code) {
      case 'FST_REQ_FILE_TOO_LARGE':
        throw tooLarge();
      case 'FST_FILES_LIMIT':
        throw fieldError('file', 'Send one file only.');
      default:
        // Anything else here is a malformed or cut-off form: the caller's fault, never a 500.
        request.log.info({ err }, 'unreadable multipart upload');
        throw unreadable();
    }
  }
  if (bytes === null) throw fieldError('file', 'Choose an image to upload.');
  if (bytes.length === 0) throw fieldError('file', 'The file is empty.');
  return bytes;
}

/**
 * POST /v1/upload/: images only (the type is read from the bytes), at most 5 MB, answered with
 * the URL it is served at; GET /uploads/:key serves it back.
 */
export async function uploadRoutes(app: App, options: UploadRoutesOptions): Promise<void> {
  const { ctx } = app;
  const storage = options.storage ?? fileStorageFor(ctx.config);

  // Registered here, so only this plugin's routes accept multipart bodies.
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 5, parts: 6, headerPairs: 50 },
  });

  app.post('/v1/upload/', {
    // Signed in: nobody sends 5 MB without a valid token. The per-user limit runs after it.
    config: {
      access: { signedIn: 'anyone signed in uploads their own images' },
      rateLimit: {
        max: 30,
        timeWindow: '1 minute',
        keyGenerator: (request) =>
          request.auth ? `user:${request.auth.userId}` : `ip:${request.ip}`,
      },
    },
    schema: {
      tags: ['user'],
      summary: `Upload an image (PNG, JPEG, GIF or WebP, at most ${MAX_MB} MB) as multipart field "file"`,
      consumes: ['multipart/form-data'],
      security: [{ bearerAuth: [] }],
      response: {
        201: uploadResponseSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        413: errorBodySchema,
        415: errorBodySchema,
        429: errorBodySchema,
        503: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      const { userId } = requireAuth(request);
      if (!request.isMultipart()) {
        throw new AppError(
          ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          'Send the image as multipart/form-data in the field "file".',
        );
      }
      const bytes = await readSingleFile(request);
      const contentType = sniffImageType(bytes);
      if (!contentType) throw fieldError('file', 'Upload a PNG, JPEG, GIF or WebP image.');
      const key = newStorageKey(IMAGE_EXTENSIONS[contentType]);
      // Stored first, recorded second: a failed store leaves no row naming a missing file.
      await storage.put(key, bytes, contentType).catch((err: unknown) => {
        throw storageFailure(err);
      });
      try {
        await ctx.db.insert(uploads).values({
          user_id: userId,
          storage_key: key,
          content_type: contentType,
          size: bytes.length,
          created_at: ctx.clock.now(),
        });
      } catch (err) {
        await storage.delete(key).catch(() => {});
        throw err;
      }
      return reply.status(201).send({ url: storage.url(key) });
    },
  });

  app.get('/uploads/:key', {
    config: { access: { public: 'uploaded images are public: keys are random' } },
    schema: {
      tags: ['user'],
      summary: 'An uploaded image (public: keys are random)',
      params: z.object({ key: z.string() }),
    },
    handler: async (request, reply) => {
      const { key } = request.params;
      const file = STORAGE_KEY_PATTERN.test(key)
        ? await storage.get(key).catch((err: unknown) => {
            throw storageFailure(err);
          })
        : null;
      if (!file) throw notFound('No such file.');
      return reply
        .header('content-type', file.contentType)
        .header('content-length', file.size)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-disposition', 'inline')
        .send(file.body);
    },
  });
}
