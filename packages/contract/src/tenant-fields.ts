import { z } from 'zod';
import { MODULE_CODES, ROLES } from './constants.ts';
import { singleLine } from './text.ts';

/** Fields that organizations and workspaces share. */

export const NAME_MAX_LENGTH = 120;

export const nameField = (what: string) =>
  singleLine()
    .min(1, `Enter the ${what} name.`)
    .max(NAME_MAX_LENGTH, `Keep the ${what} name under ${NAME_MAX_LENGTH + 1} characters.`);

/** A logo is an image uploaded first (POST /v1/upload/): its /uploads/ URL, or null to remove it. */
export const logoField = singleLine().max(1024).nullable().optional();

export const roleRefSchema = z.object({ key: z.enum(ROLES), name: z.string() });
export type RoleRef = z.infer<typeof roleRefSchema>;

export const moduleStateSchema = z.object({ module: z.enum(MODULE_CODES), enabled: z.boolean() });
export type ModuleState = z.infer<typeof moduleStateSchema>;
