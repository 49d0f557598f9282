import { z } from 'zod';
import { emailSchema } from './auth.ts';

/** POST /v1/upload/ answers with where the file is served, relative to the portal (`/uploads/<key>`). */
export const uploadResponseSchema = z.object({
  url: z.string().describe('Where the image is served, relative to the portal: /uploads/<key>'),
});
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

/** GET /v1/user/is-existed/?email= */
export const userExistsQuerySchema = z.strictObject({ email: emailSchema });
export type UserExistsQuery = z.infer<typeof userExistsQuerySchema>;
