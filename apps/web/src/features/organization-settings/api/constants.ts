import type { ActivityAction } from '@portolan/contract';

/** Activities per page (the contract's ACTIVITY_PAGE_SIZE; its module is not zod-free). */
export const ACTIVITY_PAGE_SIZE_WEB = 10;

/** Every activity action with its label (typed against the contract, so none is missing). */
export const ACTIVITY_LABELS: Record<ActivityAction, string> = {
  SIGN_IN: 'Signed in',
  ACCESS_WORKSPACE: 'Opened a workspace',
  ADD_MEMBER: 'Added a member',
  UPDATE_MEMBER: 'Changed a member',
  DELETE_MEMBER: 'Removed a member',
  CREATE_ORGANIZATION: 'Created the organization',
  UPDATE_ORGANIZATION: 'Changed the organization',
  CREATE_WORKSPACE: 'Created a workspace',
  UPDATE_WORKSPACE: 'Changed a workspace',
  APPROVE_WORKSPACE: 'Approved a workspace',
  DELETE_WORKSPACE: 'Deleted a workspace',
  UPDATE_WORKSPACE_MODULES: 'Switched modules',
  DOWNLOAD_REPORT: 'Downloaded a report',
  DECLINE_INVITATION: 'Declined an invitation',
  CREATE_SHARE_LINK: 'Shared a module page',
  REVOKE_SHARE_LINK: 'Revoked a share link',
  SUBSCRIBE: 'Subscribed to a plan',
  CHANGE_PLAN: 'Changed the plan',
  UNSUBSCRIBE: 'Cancelled the subscription',
  TOP_UP_BALANCE: 'Added funds to the balance',
  UPDATE_SECURITY_POLICY: 'Changed the security policy',
  CREATE_API_KEY: 'Created an API key',
  REVOKE_API_KEY: 'Revoked an API key',
  CREATE_WEBHOOK: 'Added a webhook endpoint',
  DELETE_WEBHOOK: 'Deleted a webhook endpoint',
  UPDATE_AUTO_TOP_UP: 'Changed auto top-up',
  UPDATE_SPEND_CAP: 'Changed a spend cap',
  UPDATE_BALANCE_ALERTS: 'Changed the low-balance alerts',
  UPDATE_BILLING_DETAILS: 'Changed the billing details',
};

export const STATUS_LABELS = { all: 'All', enabled: 'Enabled', pending: 'Pending' } as const;
