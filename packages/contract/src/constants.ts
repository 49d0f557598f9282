/** Business constants and limits of the specification (§9), shared by API and web. */
export const APP_VERSION = 'v1.7.4';
export const BRAND = 'Portolan';

export const HTTP_TIMEOUT_MS = 600_000;
export const TOKEN_CHECK_INTERVAL_MS = 5 * 60_000;
/** The web app refreshes its token when this many minutes or fewer remain. */
export const TOKEN_REFRESH_THRESHOLD_MIN = 180;
export const PROGRESS_HIDE_DELAY_MS = 500;
export const BILLING_FETCH_DELAY_MS = 3_000;
export const POLL_INTERVAL_MS = 60_000;
export const TOAST_DURATION_MS = 5_000;

export const PAGE_SIZE = {
  orgList: 250,
  userClients: 500,
  allSettings: 250,
  invoices: 10,
  fundPackages: 10,
  limitCheckUsers: 999,
  subscriptions: 99,
  planConfigs: 99,
  notifications: 10,
} as const;
/** The largest `limit` any list endpoint accepts. */
export const MAX_PAGE_LIMIT = 999;

export const DATE_FORMAT = 'MM/DD/YYYY';

export const MODULE_CODES = ['MAP', 'ROG', 'RA', 'DS', 'MT', 'DC', 'PF', 'TR', 'SKUF'] as const;
export type ModuleCode = (typeof MODULE_CODES)[number];
export const MODULE_NAMES: Record<ModuleCode, string> = {
  MAP: 'MAP Watcher',
  ROG: 'Rogue Watcher',
  RA: 'Reporting Application',
  DS: 'Data Sources',
  MT: 'Matrix',
  DC: 'Data Central',
  PF: 'Precise Financial',
  TR: '2D Transit',
  SKUF: 'SKUFlex',
};

export const APP_PROFILES = {
  mwrw: ['MAP'],
  matrix: ['DS', 'RA', 'MT', 'MAP'],
  data_central: ['DC'],
  precise_financial: ['PF'],
  transit: ['TR'],
  skuflex: ['SKUF'],
} as const satisfies Record<string, readonly ModuleCode[]>;
export type AppProfile = keyof typeof APP_PROFILES;
export const APP_PROFILE_NAMES = Object.keys(APP_PROFILES) as AppProfile[];

export const ROLES = ['OWNER', 'ADMIN', 'MANAGER', 'STAFF', 'CLIENT'] as const;
export type Role = (typeof ROLES)[number];

export const PLAN_TYPES = ['STANDARD', 'PROFESSIONAL', 'BUSINESS', 'CUSTOM'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

export const CARD_BRANDS = [
  'amex',
  'diners',
  'discover',
  'jcb',
  'mastercard',
  'unionpay',
  'visa',
] as const;

/** Uploaded images (avatars, logos): at most 5 MB, and only these types, sniffed from the bytes. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type UploadImageType = (typeof UPLOAD_IMAGE_TYPES)[number];

/** The organization settings' workspace views (spec §3 clientsViewOption; default list). */
export const CLIENTS_VIEW_OPTIONS = ['ClientsListView', 'ClientsGridView'] as const;
export type ClientsViewOption = (typeof CLIENTS_VIEW_OPTIONS)[number];
export const DEFAULT_CLIENTS_VIEW_OPTION: ClientsViewOption = 'ClientsListView';
