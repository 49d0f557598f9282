import type { ErrorCode } from '@portolan/contract';
import { create } from 'zustand';
import { ApiError } from './api-error';

/**
 * The code of the server's refusal, as a literal: this module is in the entry chunk, and the
 * contract's whole ErrorCode table would come with it.
 */
const STEP_UP_REQUIRED: ErrorCode = 'STEP_UP_REQUIRED';

/**
 * How the step-up dialog asks the user to prove they are there: the proofs of a 403
 * STEP_UP_REQUIRED's `details.methods` that the web app can ask for, in its order (the dialog
 * leaves out a passkey when the browser cannot use one).
 */
export type StepUpMethod = 'password' | 'totp' | 'passkey' | 'recovery_code';

const STEP_UP_METHODS: readonly StepUpMethod[] = ['password', 'totp', 'passkey', 'recovery_code'];

/**
 * The step-up dialog's state (issue 20 item 8): `methods` while a sensitive call waits for the
 * user to prove presence (an empty list: only signing in again will do), null while closed.
 */
interface StepUpState {
  methods: StepUpMethod[] | null;
}

export const useStepUpStore = create<StepUpState>()(() => ({ methods: null }));

let waiting: Promise<boolean> | null = null;
let settle: ((proven: boolean) => void) | null = null;
/** When the last step-up succeeded (ms): a refusal of a call sent before it is retried at once. */
let provenAt = 0;

/** Whether an error is the server's 403 STEP_UP_REQUIRED (also what a cancelled step-up rejects with). */
export function isStepUpRequired(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === STEP_UP_REQUIRED;
}

/** The methods a STEP_UP_REQUIRED error offers that the dialog can ask for; null for any other error. */
export function stepUpMethodsOf(error: unknown): StepUpMethod[] | null {
  if (!isStepUpRequired(error)) return null;
  const given = (error.details as { methods?: unknown } | null | undefined)?.methods;
  const offered = Array.isArray(given) ? given : [];
  return STEP_UP_METHODS.filter((m) => offered.includes(m));
}

/**
 * Opens the step-up dialog (or joins the one already open: concurrent refusals share it) and
 * resolves true once the user has proven presence, false when they cancel. A call sent before the
 * last success (`sentAt`) is let through at once: its refusal predates the step-up.
 */
export function requestStepUp(methods: StepUpMethod[], sentAt: number): Promise<boolean> {
  if (sentAt < provenAt) return Promise.resolve(true);
  if (waiting) return waiting;
  waiting = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  useStepUpStore.setState({ methods });
  return waiting;
}

/** The dialog's outcome: every call waiting on it retries (proven) or rejects (cancelled). */
export function finishStepUp(proven: boolean): void {
  if (proven) provenAt = Date.now();
  const resolve = settle;
  waiting = null;
  settle = null;
  useStepUpStore.setState({ methods: null });
  resolve?.(proven);
}

/** For tests: closed, nothing waiting, no step-up remembered. */
export function resetStepUp(): void {
  finishStepUp(false);
  provenAt = 0;
}
