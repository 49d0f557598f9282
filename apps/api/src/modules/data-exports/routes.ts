import {
  dataExportListQuerySchema,
  dataExportPageSchema,
  dataExportParamsSchema,
  dataExportSchema,
  dataExportTokenParamsSchema,
  errorBodySchema,
  orgParamsSchema,
} from '@portolan/contract';
import type { FastifyReply } from 'fastify';
import type { App } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { requireActor, requireAuth } from '../access/index.ts';
import { storageFailure } from '../uploads/index.ts';
import { archiveStoreFor } from './job.ts';
import {
  findOwnDownload,
  findTokenDownload,
  listExports,
  requestExport,
  type DataExportRow,
} from './service.ts';
import { wakeDataExportJob } from './worker.ts';

const tags = ['data exports'];
const security = [{ bearerAuth: [] }];
const owner = { organization: 'orgId', permission: 'organization.data.export' } as const;
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};
const downloadErrors = {
  ...errors,
  409: errorBodySchema,
  410: errorBodySchema,
  503: errorBodySchema,
};

/**
 * Data exports (issue 11): a user's own data, and an organization's for its OWNERs. Asking answers
 * 202 at once with the PENDING export; the job builds the archive and e-mails a link valid 24
 * hours. The archive is served only here: signed in to its requester, or through the e-mailed link.
 */
export async function dataExportRoutes(app: App): Promise<void> {
  const { ctx } = app;
  const store = archiveStoreFor(ctx.config);

  /** Streams a READY archive as a download. */
  async function sendArchive(reply: FastifyReply, row: DataExportRow) {
    const file = row.storage_key
      ? await store.open(row.storage_key).catch((err: unknown) => {
          throw storageFailure(err);
        })
      : null;
    if (!file) throw notFound('The archive of this export is gone. Ask for a new export.');
    return reply
      .header('content-type', 'application/zip')
      .header('content-length', file.size)
      .header('content-disposition', `attachment; filename="${row.file_name ?? 'export.zip'}"`)
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(file.body);
  }

  app.post('/v1/data-exports/', {
    config: { access: { signedIn: 'the caller’s own data' } },
    schema: {
      tags,
      summary:
        'Ask for an archive of everything the portal holds about you (202: built in the background, e-mailed when ready); 409 DATA_EXPORT_IN_PROGRESS while one is being built',
      security,
      response: { 202: dataExportSchema, 401: errorBodySchema, 409: errorBodySchema },
    },
    handler: async (request, reply) => {
      const made = await requestExport(ctx, requireAuth(request).userId, { kind: 'USER' });
      wakeDataExportJob(ctx);
      return reply.code(202).send(made);
    },
  });

  app.get('/v1/data-exports/', {
    config: { access: { signedIn: 'the caller’s own exports' } },
    schema: {
      tags,
      summary:
        'Your exports of your own data, newest first; a READY one not yet expired has its download_url',
      security,
      querystring: dataExportListQuerySchema,
      response: { 200: dataExportPageSchema, 400: errorBodySchema, 401: errorBodySchema },
    },
    handler: async (request) =>
      listExports(ctx, requireAuth(request).userId, { kind: 'USER' }, request.query),
  });

  app.post('/v1/organizations/:orgId/data-exports/', {
    // All of the organization's data leaves: a fresh proof of presence (issue 20 item 4).
    config: { access: { ...owner, stepUp: true } },
    schema: {
      tags,
      summary:
        'Ask for an archive of the organization’s data (OWNER; 202: built in the background, e-mailed when ready); 409 DATA_EXPORT_IN_PROGRESS while yours is being built',
      security,
      params: orgParamsSchema,
      response: { 202: dataExportSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request, reply) => {
      const actor = requireActor(request);
      const made = await requestExport(ctx, actor.userId, {
        kind: 'ORGANIZATION',
        organizationId: actor.organization.id,
      });
      wakeDataExportJob(ctx);
      return reply.code(202).send(made);
    },
  });

  app.get('/v1/organizations/:orgId/data-exports/', {
    config: { access: owner },
    schema: {
      tags,
      summary:
        'Your exports of the organization’s data (OWNER), newest first; a READY one not yet expired has its download_url',
      security,
      params: orgParamsSchema,
      querystring: dataExportListQuerySchema,
      response: { 200: dataExportPageSchema, ...errors },
    },
    handler: async (request) => {
      const actor = requireActor(request);
      return listExports(
        ctx,
        actor.userId,
        { kind: 'ORGANIZATION', organizationId: actor.organization.id },
        request.query,
      );
    },
  });

  app.get('/v1/data-exports/:exportId/download/', {
    config: { access: { signedIn: 'only the export’s requester; the service checks' } },
    schema: {
      tags,
      summary:
        'Download your READY export as a zip (an organization’s only while you are its OWNER); 409 DATA_EXPORT_NOT_READY, 410 DATA_EXPORT_EXPIRED after 24 hours',
      security,
      params: dataExportParamsSchema,
      // The archive itself is not JSON; errors answer the usual shape.
      response: downloadErrors,
    },
    handler: async (request, reply) =>
      sendArchive(
        reply,
        await findOwnDownload(ctx, requireAuth(request).userId, request.params.exportId),
      ),
  });

  app.get('/v1/data-exports/download/:token/', {
    config: {
      access: { public: 'the e-mailed link: its unguessable token is the credential' },
      rateLimit: { max: 30, timeWindow: '1 minute' },
    },
    schema: {
      tags,
      summary:
        'Download an export through the link of its e-mail (no sign-in: the token is the credential), until 24 hours after it was ready (410 DATA_EXPORT_EXPIRED then)',
      params: dataExportTokenParamsSchema,
      response: { ...downloadErrors, 429: errorBodySchema },
    },
    handler: async (request, reply) =>
      sendArchive(reply, await findTokenDownload(ctx, request.params.token)),
  });
}
