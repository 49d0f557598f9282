import { ruleListQuerySchema, type Paginated, type RuleListQuery } from '@portolan/contract';
import { z } from 'zod';
import type { App, AppContext } from '../../context.ts';
import { requireActor, type AccessRule, type Actor } from '../access/index.ts';
import { conflicts, errors, security, tags } from './route-parts.ts';

/** A level rules and roles live at: its path prefix and what reading and managing need there. */
export interface Level {
  prefix: string;
  /** How summaries name it. */
  what: string;
  /** What its lists and reads show besides its own. */
  alsoListed: string;
  params: z.ZodObject;
  read: { access: AccessRule };
  manage: { access: AccessRule };
}

/**
 * What a scoped resource (access rules, custom roles) offers, for the same five routes. The
 * answers are typed by their schemas (the serializer checks them), not through this generic.
 */
export interface ScopedResource<I> {
  /** The path segment: `access-rules`. */
  path: string;
  /** The path parameter of one item: `ruleId`. */
  idParam: string;
  /** As summaries say them: `access rule`, `an access rule`, `Access rules`. */
  one: string;
  aOne: string;
  many: string;
  /** What a refused deletion says (`409 RULE_IN_USE while custom roles list it`). */
  refusedDelete: string;
  input: z.ZodType<I>;
  answer: z.ZodType;
  page: z.ZodType;
  list(ctx: AppContext, actor: Actor, query: RuleListQuery): Promise<Paginated<unknown>>;
  get(ctx: AppContext, actor: Actor, id: string): Promise<unknown>;
  create(ctx: AppContext, actor: Actor, input: I): Promise<unknown>;
  replace(ctx: AppContext, actor: Actor, id: string, input: I): Promise<unknown>;
  remove(ctx: AppContext, actor: Actor, id: string): Promise<void>;
}

/** GET/POST …/{path}/ and GET/PUT/DELETE …/{path}/{id}/ of one resource at one level. */
export function registerScopedResource<I>(app: App, level: Level, r: ScopedResource<I>) {
  const { ctx } = app;
  const list = `${level.prefix}/${r.path}/`;
  const item = `${list}:${r.idParam}/`;
  const itemParams = level.params.extend({ [r.idParam]: z.uuid() });
  const idOf = (params: unknown) => (params as Record<string, string>)[r.idParam]!;

  app.get(list, {
    config: level.read,
    schema: {
      tags,
      summary: `${r.many} of ${level.what}${level.alsoListed}, by name`,
      security,
      params: level.params,
      querystring: ruleListQuerySchema,
      response: { 200: r.page, ...errors },
    },
    handler: async (request) => r.list(ctx, requireActor(request), request.query),
  });

  app.post(list, {
    config: level.manage,
    schema: {
      tags,
      summary: `Create ${r.aOne} of ${level.what}; its name is unique there (409 NAME_TAKEN)`,
      security,
      params: level.params,
      body: r.input,
      response: { 201: r.answer, ...errors, ...conflicts },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await r.create(ctx, requireActor(request), request.body as I)),
  });

  app.get(item, {
    config: level.read,
    schema: {
      tags,
      summary: `One ${r.one} of ${level.what}${level.alsoListed}`,
      security,
      params: itemParams,
      response: { 200: r.answer, ...errors },
    },
    handler: async (request) => r.get(ctx, requireActor(request), idOf(request.params)),
  });

  app.put(item, {
    config: level.manage,
    schema: {
      tags,
      summary: `Replace ${r.aOne} of ${level.what} (system-made ones are read-only: 403 SYSTEM_MANAGED)`,
      security,
      params: itemParams,
      body: r.input,
      response: { 200: r.answer, ...errors, ...conflicts },
    },
    handler: async (request) =>
      r.replace(ctx, requireActor(request), idOf(request.params), request.body as I),
  });

  app.delete(item, {
    config: level.manage,
    schema: {
      tags,
      summary: `Delete ${r.aOne} of ${level.what}; refused ${r.refusedDelete}`,
      security,
      params: itemParams,
      response: { 204: z.null().describe('Deleted'), ...errors, ...conflicts },
    },
    handler: async (request, reply) => {
      await r.remove(ctx, requireActor(request), idOf(request.params));
      return reply.status(204).send(null);
    },
  });
}
