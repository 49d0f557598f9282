import { z } from 'zod';
import type { ErrorDetail } from './error-codes.ts';

export * from './error-codes.ts';

export const errorDetailSchema = z.object({
  field: z
    .string()
    .describe('Dotted path of the offending field, or the part of the request (body, query)'),
  message: z.string(),
}) satisfies z.ZodType<ErrorDetail>;

export const errorBodySchema = z.object({
  code: z.string().describe('UPPER_SNAKE error code, see ErrorCode'),
  message: z.string(),
  details: z.unknown().optional(),
});
