import { HTTP_TIMEOUT_MS } from '@portolan/contract';
import { ApiError, ClientErrorCode, isErrorBody } from './api-error';
import { relogin, useAuthStore } from './auth-store';
import { trackRequest } from './loading-store';
import { isMfaRequired, reportMfaRequired } from './mfa-required';
import { requestStepUp, stepUpMethodsOf } from './step-up';
import { showNetworkErrorToast, showServerErrorToast } from './toasts';

export { ApiError, errorMessage, isApiError, loadFailureReason } from './api-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: HttpMethod;
  /** A plain value is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /**
   * Send this bearer token instead of the stored one (for example an activation token).
   * Such a call is not "authenticated": a 401 does not sign the user out.
   * `null` sends no Authorization header at all.
   */
  token?: string | null;
  /** Shown in the loading message line while the call runs. */
  loadingMessage?: string;
  /** Cover the page with the global spinner while the call runs. */
  spinner?: boolean;
  /** Background call: does not move the progress bar. */
  silent?: boolean;
  /** Opt out of the §8 server-error toast for 500 and above; the caller handles it. */
  noServerErrorToast?: boolean;
  /** Opt out of the network-error toast. */
  noNetworkErrorToast?: boolean;
  /** Opt out of the relogin on 401 (the caller handles it, e.g. the token refresh itself). */
  noAuthRedirect?: boolean;
  /** Opt out of the step-up dialog on 403 STEP_UP_REQUIRED (the step-up call itself, a retry). */
  noStepUp?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Same origin: the API and the web app are served by one process. */
export const API_BASE = '';

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  let url = `${API_BASE}${path}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) params.append(key, String(value));
    }
    const qs = params.toString();
    if (qs) url += (url.includes('?') ? '&' : '?') + qs;
  }
  return url;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }
  return text;
}

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * The one way the web app talks to the API (spec §7): same origin, JSON, a 600000 ms timeout and
 * the stored bearer token on every call. Failures reject with an ApiError carrying the status and
 * the server's `{code, message, details?}`; 401 on an authenticated call triggers relogin, and
 * 500+ and network failures show the §8 toasts once. A 403 STEP_UP_REQUIRED on a call with the
 * stored token opens the step-up dialog (lib/step-up.ts) and, once the user has proven presence,
 * sends the call once more; cancelled, the call rejects with that 403. A 403 MFA_REQUIRED (an
 * organization's policy refuses the user) leads to My Settings → Security (lib/mfa-required.ts).
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const sentAt = Date.now();
  try {
    return await send<T>(path, options);
  } catch (error) {
    const methods = options.noStepUp || options.token !== undefined ? null : stepUpMethodsOf(error);
    if (!methods || !(await requestStepUp(methods, sentAt))) throw error;
    return send<T>(path, { ...options, noStepUp: true });
  }
}

async function send<T>(path: string, options: RequestOptions): Promise<T> {
  const method = options.method ?? 'GET';
  const headers = new Headers(options.headers);
  headers.set('Accept', 'application/json');

  const storedToken = useAuthStore.getState().userToken;
  const bearer = options.token !== undefined ? options.token : storedToken;
  const authenticated = options.token === undefined && Boolean(storedToken);
  if (bearer) headers.set('Authorization', `Bearer ${bearer}`);

  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? HTTP_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort();
  if (options.signal) {
    if (options.signal.aborted) controller.abort();
    else options.signal.addEventListener('abort', onCallerAbort, { once: true });
  }

  const done = trackRequest({
    message: options.loadingMessage,
    spinner: options.spinner,
    silent: options.silent,
  });

  try {
    let response: Response;
    try {
      response = await fetch(buildUrl(path, options.query), {
        method,
        headers,
        body,
        signal: controller.signal,
        credentials: 'same-origin',
      });
    } catch (error) {
      if (timedOut) {
        throw new ApiError(0, {
          code: ClientErrorCode.TIMEOUT,
          message: 'The server took too long to answer. Please try again.',
        });
      }
      if (isAbortError(error) || options.signal?.aborted) throw error;
      if (!options.noNetworkErrorToast) showNetworkErrorToast();
      throw new ApiError(0, {
        code: ClientErrorCode.NETWORK_ERROR,
        message: 'The server could not be reached. Check your internet connection and try again.',
      });
    }

    const data = await readBody(response);
    if (response.ok) return data as T;

    const errorBody = isErrorBody(data)
      ? data
      : {
          code: response.status >= 500 ? 'INTERNAL_ERROR' : ClientErrorCode.BAD_RESPONSE,
          message: response.statusText || `The server answered with status ${response.status}.`,
        };
    const error = new ApiError(response.status, errorBody);

    if (response.status === 401 && authenticated && !options.noAuthRedirect) {
      useAuthStore.getState().setIsAuth(false);
      relogin();
    } else if (authenticated && isMfaRequired(error)) {
      reportMfaRequired(error);
    } else if (response.status >= 500 && !options.noServerErrorToast) {
      showServerErrorToast();
    }
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
    done();
  }
}

type BodyLess = Omit<RequestOptions, 'method' | 'body'>;

export const api = {
  get: <T>(path: string, options?: BodyLess) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: BodyLess) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: BodyLess) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: BodyLess) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: BodyLess) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
