import { z } from 'zod';
import { CLIENTS_VIEW_OPTIONS } from './constants.ts';
import { MFA_METHODS } from './mfa.ts';
import { PASSWORD_MAX_LENGTH } from './password-policy.ts';
import { secretText, singleLine } from './text.ts';

/** E-mails are trimmed and compared case-insensitively. */
export const emailSchema = singleLine()
  .max(254)
  .pipe(z.email({ message: 'Enter a valid e-mail address.' }));

const passwordField = secretText().min(1, 'Enter a password.').max(PASSWORD_MAX_LENGTH);

export const registrationRequestSchema = z.strictObject({
  email: emailSchema,
  password1: passwordField,
  password2: passwordField,
  first_name: singleLine().min(1, 'Enter your first name.').max(150),
  last_name: singleLine().min(1, 'Enter your last name.').max(150),
  plan: z.enum(['STANDARD', 'PROFESSIONAL', 'BUSINESS', 'CUSTOM']).nullish(),
});
export type RegistrationRequest = z.infer<typeof registrationRequestSchema>;

/** What registration and "not yet activated" answers carry: a token to submit the code with. */
export const activationTokenResponseSchema = z.object({
  token: z.string().describe('Activation token; send it as the Authorization header'),
  email: z.string(),
  detail: z.string(),
});
export type ActivationTokenResponse = z.infer<typeof activationTokenResponseSchema>;

export const activationRequestSchema = z.strictObject({
  code: singleLine().regex(/^\d{6}$/, 'Enter the 6-digit code from the e-mail.'),
});

export const detailResponseSchema = z.object({ detail: z.string() });

/** A successful activation signs the user in: `token` is a session token, as sign-in answers. */
export const activationResponseSchema = z.object({
  detail: z.string(),
  token: z.string().describe('Session token, exactly as the sign-in answer carries'),
});
export type ActivationResponse = z.infer<typeof activationResponseSchema>;

export const appLoginRequestSchema = z.strictObject({
  email: emailSchema,
  password: secretText().min(1, 'Enter your password.').max(PASSWORD_MAX_LENGTH),
});
export type AppLoginRequest = z.infer<typeof appLoginRequestSchema>;

export const loginRequestSchema = z.strictObject({
  username: emailSchema,
  password: secretText().min(1, 'Enter your password.').max(PASSWORD_MAX_LENGTH),
});

export const tokenResponseSchema = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const refreshRequestSchema = z.strictObject({ token: singleLine().min(1) });

export const userSchema = z.object({
  user_id: z.uuid(),
  pk: z.uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  avatar: z.string().nullable(),
  can_create_client: z.boolean(),
  /** The organization settings' workspace view (spec §3; default ClientsListView). */
  clientsViewOption: z.enum(CLIENTS_VIEW_OPTIONS),
  /** Spec §1: the user's e-mail domain is one of CUSTOM_TEMPLATE_EMAIL_DOMAINS (the list is never shown). */
  custom_shipment_template: z.boolean(),
  /** Spec §6: the user's e-mail domain is one of INTERNAL_EMAIL_DOMAINS (internal staff). */
  is_internal: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

export const userUpdateSchema = z.strictObject({
  first_name: singleLine().min(1, 'Enter your first name.').max(150).optional(),
  last_name: singleLine().min(1, 'Enter your last name.').max(150).optional(),
  phone: singleLine()
    .max(32)
    .regex(/^[+\d][\d\s().-]*$|^$/, 'Enter a phone number with digits, spaces and + ( ) - only.')
    .optional(),
  avatar: singleLine().max(1024).nullable().optional(),
  clientsViewOption: z
    .enum(CLIENTS_VIEW_OPTIONS, `Choose ${CLIENTS_VIEW_OPTIONS.join(' or ')}.`)
    .optional(),
});
export type UserUpdate = z.infer<typeof userUpdateSchema>;

export const passwordResetRequestSchema = z.strictObject({ email: emailSchema });
export const passwordResetResponseSchema = z.object({ detail: z.string(), token: z.string() });
export const passwordResetIdentitySchema = z.strictObject({
  code: singleLine().regex(/^\d{6}$/, 'Enter the 6-digit code from the e-mail.'),
  token: singleLine().min(1),
});
export const passwordResetConfirmSchema = z.strictObject({
  token: singleLine().min(1),
  password: passwordField,
});
export const passwordChangeSchema = z.strictObject({
  old_password: secretText().min(1, 'Enter your current password.').max(PASSWORD_MAX_LENGTH),
  new_password1: passwordField,
  new_password2: passwordField,
});

export const googleLoginRequestSchema = z.strictObject({
  code: singleLine().min(1).max(4096),
  state: singleLine().min(1).max(512),
});
export type GoogleLoginRequest = z.infer<typeof googleLoginRequestSchema>;
/** `path`: the same-origin path given to the start endpoint, or null (go to the dashboard). */
/** A session token, or (an account with a second factor) the challenge to answer first. */
export const googleLoginResponseSchema = z.union([
  z.object({ token: z.string(), path: z.string().nullable() }),
  z.object({
    mfa_required: z.literal(true),
    mfa_token: z.string(),
    methods: z.array(z.enum(MFA_METHODS)),
    path: z.string().nullable(),
  }),
]);
export type GoogleLoginResponse = z.infer<typeof googleLoginResponseSchema>;
/** `path` is kept only when it is a path on this site (one leading '/'); otherwise ignored. */
export const googleStartQuerySchema = z.object({
  path: singleLine().optional(),
});
