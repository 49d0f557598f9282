// Zod-free on purpose: the web app branches on these codes without pulling zod into its bundle.

/**
 * Every error the API answers with has one of these codes. The web app branches on `code`,
 * never on the message text.
 */
export const ErrorCode = {
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  INVALID_JSON: 'INVALID_JSON',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  NOT_AUTHENTICATED: 'NOT_AUTHENTICATED',
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  /** Billing is on and the caller already belongs to an organization (spec §5): 403. */
  ORGANIZATION_LIMIT: 'ORGANIZATION_LIMIT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  RATE_LIMITED: 'RATE_LIMITED',
  FEATURE_DISABLED: 'FEATURE_DISABLED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  // protocol level: answered before any route runs
  BAD_REQUEST: 'BAD_REQUEST',
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  URI_TOO_LONG: 'URI_TOO_LONG',
  EXPECTATION_FAILED: 'EXPECTATION_FAILED',
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  // authentication and account
  EMAIL_TAKEN: 'EMAIL_TAKEN',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  ACCOUNT_NOT_ACTIVATED: 'ACCOUNT_NOT_ACTIVATED',
  ACCOUNT_DISABLED: 'ACCOUNT_DISABLED',
  ALREADY_ACTIVATED: 'ALREADY_ACTIVATED',
  INVALID_CODE: 'INVALID_CODE',
  CODE_EXPIRED: 'CODE_EXPIRED',
  TOO_MANY_ATTEMPTS: 'TOO_MANY_ATTEMPTS',
  INVALID_TOKEN: 'INVALID_TOKEN',
  WEAK_PASSWORD: 'WEAK_PASSWORD',
  WRONG_PASSWORD: 'WRONG_PASSWORD',
  OIDC_FAILED: 'OIDC_FAILED',
  // organizations and workspaces
  /** A live workspace of the organization already has this name (case-insensitively). */
  NAME_TAKEN: 'NAME_TAKEN',
  /** Approving a workspace that is already active. */
  ALREADY_APPROVED: 'ALREADY_APPROVED',
  /** Switching off the workspace's last enabled module through its applications. */
  LAST_ENABLED_MODULE: 'LAST_ENABLED_MODULE',
  // invitations
  /** Inviting someone who is already an accepted member of the organization or workspace: 409. */
  ALREADY_MEMBER: 'ALREADY_MEMBER',
  /** Inviting someone whose invitation there is still pending (and not expired): 409. */
  INVITATION_PENDING: 'INVITATION_PENDING',
  /** No live invitation has this token (unknown, replaced by a resend, revoked, another route). */
  INVITATION_INVALID: 'INVITATION_INVALID',
  /** The invitation's 7 days are over: 410. Ask for a new one (resend). */
  INVITATION_EXPIRED: 'INVITATION_EXPIRED',
  INVITATION_ALREADY_ACCEPTED: 'INVITATION_ALREADY_ACCEPTED',
  INVITATION_ALREADY_DECLINED: 'INVITATION_ALREADY_DECLINED',
  /** A signed-in caller accepting an invitation addressed to another account: 403. */
  INVITATION_OTHER_ACCOUNT: 'INVITATION_OTHER_ACCOUNT',
  /** Resending for a membership that is not pending: 409. */
  INVITATION_NOT_PENDING: 'INVITATION_NOT_PENDING',
  /** Declining a notification that offers no pending invitation: 409. */
  NOT_AN_OPEN_INVITATION: 'NOT_AN_OPEN_INVITATION',
  // members
  /** Demoting or removing the organization's last OWNER: 409. */
  LAST_OWNER: 'LAST_OWNER',
  /** Removing oneself, or changing one's own workspace role: 403. */
  OWN_MEMBERSHIP: 'OWN_MEMBERSHIP',
  /** Removing a workspace OWNER from the workspace: 409. */
  WORKSPACE_OWNER: 'WORKSPACE_OWNER',
  /** Changing the role or the workspaces of a member whose invitation is still pending: 409. */
  MEMBERSHIP_PENDING: 'MEMBERSHIP_PENDING',
  // access rules and custom roles
  /** Changing or deleting a system-made access rule or custom role: 403. */
  SYSTEM_MANAGED: 'SYSTEM_MANAGED',
  /** Deleting an access rule that live custom roles list: 409, `details.roles` names them. */
  RULE_IN_USE: 'RULE_IN_USE',
  /** Deleting a custom role that members hold: 409, `details.members` names them. */
  ROLE_IN_USE: 'ROLE_IN_USE',
  // billing
  /** Billing is on and the organization has no active subscription: 402. */
  SUBSCRIPTION_REQUIRED: 'SUBSCRIPTION_REQUIRED',
  /** The plan's limit is reached: 403, `details.limit` names it (max_workspaces, …). */
  PLAN_LIMIT_REACHED: 'PLAN_LIMIT_REACHED',
  /** Subscribing while a subscription is active: 409 (change the plan instead). */
  ALREADY_SUBSCRIBED: 'ALREADY_SUBSCRIBED',
  /** A plan change, unsubscription or card change that needs a subscription: 409. */
  NOT_SUBSCRIBED: 'NOT_SUBSCRIBED',
  /** CUSTOM is arranged through the support e-mail, never bought here: 409. */
  PLAN_NOT_SELF_SERVE: 'PLAN_NOT_SELF_SERVE',
  /** Changing to the plan the organization already has: 409. */
  SAME_PLAN: 'SAME_PLAN',
  /** Unsubscribing twice: 409. */
  ALREADY_CANCELED: 'ALREADY_CANCELED',
  /** Unsubscribing as someone other than the subscriber: 403. */
  NOT_SUBSCRIBER: 'NOT_SUBSCRIBER',
  /** A charge needs a card and the organization has none: 409. */
  NO_PAYMENT_METHOD: 'NO_PAYMENT_METHOD',
  /** The card was declined, or has not enough funds: 402, the message says which. */
  PAYMENT_FAILED: 'PAYMENT_FAILED',
  /** Removing the default card while a subscription renews with it: 409. */
  DEFAULT_CARD_IN_USE: 'DEFAULT_CARD_IN_USE',
  /** The same Idempotency-Key with another request body or path: 409. */
  IDEMPOTENCY_MISMATCH: 'IDEMPOTENCY_MISMATCH',
  /** A checkout that is no longer open (paid, failed or expired): 409. */
  CHECKOUT_CLOSED: 'CHECKOUT_CLOSED',
  /** A charge would take the organization's balance below zero: 402 (add funds). */
  INSUFFICIENT_BALANCE: 'INSUFFICIENT_BALANCE',
  /** Refunding an entry that is not a charge, or a charge already refunded: 409. */
  NOT_REFUNDABLE: 'NOT_REFUNDABLE',
  /** A charge would pass the organization's or the workspace's monthly spend cap: 402. */
  SPEND_CAP_REACHED: 'SPEND_CAP_REACHED',
  // share links
  /** The workspace already has SHARE_LINK_MAX_LIVE live share links: 409. Revoke one first. */
  SHARE_LINK_LIMIT: 'SHARE_LINK_LIMIT',
  // release notes
  /** Another release note has this version (case-insensitively): 409. */
  VERSION_TAKEN: 'VERSION_TAKEN',
  // data exports
  /** Asking for an export while one of the same kind (and organization) is still being built: 409. */
  DATA_EXPORT_IN_PROGRESS: 'DATA_EXPORT_IN_PROGRESS',
  /** Downloading an export that is not READY (still building, or failed): 409. */
  DATA_EXPORT_NOT_READY: 'DATA_EXPORT_NOT_READY',
  /** The export's 24 hours are over and its archive is gone: 410. Ask for a new one. */
  DATA_EXPORT_EXPIRED: 'DATA_EXPORT_EXPIRED',
  // account security (issue 20)
  /** A sensitive action without a proof of presence (sign-in or step-up) within STEP_UP_MAX_AGE_S: 403. */
  STEP_UP_REQUIRED: 'STEP_UP_REQUIRED',
  /** Setting up TOTP on an account that has it: 409. Remove it first. */
  MFA_ALREADY_ENABLED: 'MFA_ALREADY_ENABLED',
  /** Confirming TOTP that was not started, or recovery codes of an account without a factor: 409. */
  MFA_NOT_ENABLED: 'MFA_NOT_ENABLED',
  /**
   * The organization requires a second factor the caller has not set up (past the grace): 403 on
   * every route of it and its workspaces. Set one up under My Settings → Security.
   */
  MFA_REQUIRED: 'MFA_REQUIRED',
  /** Adding a passkey past PASSKEY_MAX_PER_ACCOUNT, or one the account already has: 409. */
  PASSKEY_LIMIT: 'PASSKEY_LIMIT',
  /** The organization already has MAX_API_KEYS_PER_ORGANIZATION live API keys (issue 21): 409. */
  API_KEY_LIMIT: 'API_KEY_LIMIT',
  // webhooks (issue 21)
  /** Adding a webhook endpoint past MAX_WEBHOOK_ENDPOINTS of the organization: 409. Delete one first. */
  WEBHOOK_LIMIT: 'WEBHOOK_LIMIT',
  // module launches (issue 21 item 4)
  /** Launching a module that is switched off in the workspace or is not part of this app: 409. */
  MODULE_NOT_ENABLED: 'MODULE_NOT_ENABLED',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The HTTP status of each code, declared once: the API's error helpers take it from here, so a
 * code never answers with two statuses. (A refusal of the HTTP layer the API does not name keeps
 * its own 4xx under BAD_REQUEST: plugins/errors.ts.)
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_AUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  ORGANIZATION_LIMIT: 403,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  FEATURE_DISABLED: 403,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  BAD_REQUEST: 400,
  HEADERS_TOO_LARGE: 431,
  URI_TOO_LONG: 414,
  EXPECTATION_FAILED: 417,
  REQUEST_TIMEOUT: 408,
  EMAIL_TAKEN: 409,
  INVALID_CREDENTIALS: 400,
  ACCOUNT_NOT_ACTIVATED: 409,
  ACCOUNT_DISABLED: 403,
  ALREADY_ACTIVATED: 409,
  INVALID_CODE: 400,
  CODE_EXPIRED: 400,
  TOO_MANY_ATTEMPTS: 429,
  INVALID_TOKEN: 400,
  WEAK_PASSWORD: 400,
  WRONG_PASSWORD: 400,
  OIDC_FAILED: 400,
  NAME_TAKEN: 409,
  ALREADY_APPROVED: 400,
  LAST_ENABLED_MODULE: 409,
  ALREADY_MEMBER: 409,
  INVITATION_PENDING: 409,
  INVITATION_INVALID: 404,
  INVITATION_EXPIRED: 410,
  INVITATION_ALREADY_ACCEPTED: 409,
  INVITATION_ALREADY_DECLINED: 409,
  INVITATION_OTHER_ACCOUNT: 403,
  INVITATION_NOT_PENDING: 409,
  NOT_AN_OPEN_INVITATION: 409,
  LAST_OWNER: 409,
  OWN_MEMBERSHIP: 403,
  WORKSPACE_OWNER: 409,
  MEMBERSHIP_PENDING: 409,
  SYSTEM_MANAGED: 403,
  RULE_IN_USE: 409,
  ROLE_IN_USE: 409,
  SUBSCRIPTION_REQUIRED: 402,
  PLAN_LIMIT_REACHED: 403,
  ALREADY_SUBSCRIBED: 409,
  NOT_SUBSCRIBED: 409,
  PLAN_NOT_SELF_SERVE: 409,
  SAME_PLAN: 409,
  ALREADY_CANCELED: 409,
  NOT_SUBSCRIBER: 403,
  NO_PAYMENT_METHOD: 409,
  PAYMENT_FAILED: 402,
  DEFAULT_CARD_IN_USE: 409,
  IDEMPOTENCY_MISMATCH: 409,
  CHECKOUT_CLOSED: 409,
  INSUFFICIENT_BALANCE: 402,
  NOT_REFUNDABLE: 409,
  SPEND_CAP_REACHED: 402,
  SHARE_LINK_LIMIT: 409,
  VERSION_TAKEN: 409,
  DATA_EXPORT_IN_PROGRESS: 409,
  STEP_UP_REQUIRED: 403,
  MFA_ALREADY_ENABLED: 409,
  MFA_NOT_ENABLED: 409,
  MFA_REQUIRED: 403,
  PASSKEY_LIMIT: 409,
  API_KEY_LIMIT: 409,
  WEBHOOK_LIMIT: 409,
  DATA_EXPORT_NOT_READY: 409,
  DATA_EXPORT_EXPIRED: 410,
  MODULE_NOT_ENABLED: 409,
} as const satisfies Record<ErrorCode, number>;

/** The codes answered with `status` (a helper such as `conflict` accepts only those). */
export type ErrorCodeWithStatus<S extends number> = {
  [K in ErrorCode]: (typeof ERROR_STATUS)[K] extends S ? K : never;
}[ErrorCode];

export interface ErrorDetail {
  field: string;
  message: string;
}

export type ErrorBody = { code: ErrorCode | string; message: string; details?: unknown };

export function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
