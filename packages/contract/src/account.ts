import { z } from 'zod';
import { emailSchema } from './auth.ts';

/** Uploaded images (avatars, logos): at most 5 MB, and only these types, sniffed from the bytes. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type UploadImageType = (typeof UPLOAD_IMAGE_TYPES)[number];

/** POST /v1/upload/ answers with where the file is served, relative to the portal (`/uploads/<key>`). */
export const uploadResponseSchema = z.object({
  url: z.string().describe('Where the image is served, relative to the portal: /uploads/<key>'),
});
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

/** GET /v1/user/is-existed/?email= */
export const userExistsQuerySchema = z.strictObject({ email: emailSchema });
export type UserExistsQuery = z.infer<typeof userExistsQuerySchema>;
