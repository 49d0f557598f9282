import {
  errorBodySchema,
  releaseNoteCreateSchema,
  releaseNoteListQuerySchema,
  releaseNotePageSchema,
  releaseNoteParamsSchema,
  releaseNotePreviewResultSchema,
  releaseNotePreviewSchema,
  releaseNoteSchema,
  releaseNoteStatusSchema,
  releaseNoteUpdateSchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { requireAuth } from '../access/index.ts';
import { sanitizeReleaseNote } from './sanitize.ts';
import {
  createReleaseNote,
  deleteReleaseNote,
  getReleaseNote,
  listReleaseNotes,
  markLatestViewed,
  releaseNoteStatus,
  updateReleaseNote,
} from './service.ts';

const tags = ['release-notes'];
const security = [{ bearerAuth: [] }];
const signedIn = { signedIn: 'release notes are the same for everyone signed in' };
const errors = { 400: errorBodySchema, 401: errorBodySchema };
const adminErrors = { ...errors, 403: errorBodySchema };

/**
 * Release notes (spec §2, §3, §7): everyone signed in reads them and marks the latest viewed;
 * platform administrators (granted by `npm run admin -- grant <email>`) write them.
 */
export async function releaseNoteRoutes(app: App): Promise<void> {
  const { ctx } = app;

  // Platform administrators only: the kernel answers anyone else 403 before the body is validated.
  const admin = { config: { access: { platformAdmin: 'manage release notes' } } };

  app.get('/v1/release-notes/', {
    config: { access: signedIn },
    schema: {
      tags,
      summary: 'The release notes, newest first (release date, then creation), 10 a page',
      security,
      querystring: releaseNoteListQuerySchema,
      response: { 200: releaseNotePageSchema, ...errors },
    },
    handler: async (request) => listReleaseNotes(ctx.db, request.query),
  });

  app.get('/v1/release-notes/status/', {
    config: { access: signedIn },
    schema: {
      tags,
      summary:
        'The newest release note, whether the caller has yet to view it (the toggle’s dot), and whether the caller is a platform administrator',
      security,
      response: { 200: releaseNoteStatusSchema, 401: errorBodySchema },
    },
    handler: async (request) => releaseNoteStatus(ctx.db, requireAuth(request).userId),
  });

  app.post('/v1/release-notes/latest/viewed/', {
    config: { access: signedIn },
    schema: {
      tags,
      summary:
        'Mark the newest release note viewed by the caller (again is the same; with no note, nothing is recorded); answers the status',
      security,
      response: { 200: releaseNoteStatusSchema, 401: errorBodySchema },
    },
    handler: async (request) => markLatestViewed(ctx.db, requireAuth(request).userId),
  });

  app.get('/v1/release-notes/:id/', {
    config: { access: signedIn },
    schema: {
      tags,
      summary: 'One release note',
      security,
      params: releaseNoteParamsSchema,
      response: { 200: releaseNoteSchema, ...errors, 404: errorBodySchema },
    },
    handler: async (request) => getReleaseNote(ctx.db, request.params.id),
  });

  app.post('/v1/release-notes/', {
    ...admin,
    schema: {
      tags,
      summary:
        'Publish a release note (platform administrators): version, release_date (YYYY-MM-DD), release_note (HTML, stored sanitized)',
      security,
      body: releaseNoteCreateSchema,
      response: { 201: releaseNoteSchema, ...adminErrors, 409: errorBodySchema },
    },
    handler: async (request, reply) =>
      reply
        .status(201)
        .send(await createReleaseNote(ctx.db, request.body, requireAuth(request).userId)),
  });

  app.post('/v1/release-notes/preview/', {
    ...admin,
    schema: {
      tags,
      summary:
        'The release note’s HTML as it would be stored, sanitized (platform administrators; nothing is saved)',
      security,
      body: releaseNotePreviewSchema,
      response: { 200: releaseNotePreviewResultSchema, ...adminErrors },
    },
    handler: async (request) => ({ release_note: sanitizeReleaseNote(request.body.release_note) }),
  });

  app.patch('/v1/release-notes/:id/', {
    ...admin,
    schema: {
      tags,
      summary: 'Change a release note (platform administrators): any of its fields',
      security,
      params: releaseNoteParamsSchema,
      body: releaseNoteUpdateSchema,
      response: {
        200: releaseNoteSchema,
        ...adminErrors,
        404: errorBodySchema,
        409: errorBodySchema,
      },
    },
    handler: async (request) => updateReleaseNote(ctx.db, request.params.id, request.body),
  });

  app.delete('/v1/release-notes/:id/', {
    ...admin,
    schema: {
      tags,
      summary: 'Delete a release note (platform administrators)',
      security,
      params: releaseNoteParamsSchema,
      response: { 204: z.null().describe('Deleted'), ...adminErrors, 404: errorBodySchema },
    },
    handler: async (request, reply) => {
      await deleteReleaseNote(ctx.db, request.params.id);
      return reply.status(204).send(null);
    },
  });
}
