import { PROGRESS_HIDE_DELAY_MS } from '@portolan/contract';
import { create } from 'zustand';

/**
 * Loading UI state (spec §4): counters of requests in flight, the progress bar (shown while any
 * request runs, hidden PROGRESS_HIDE_DELAY_MS after the last one ends), the pending messages
 * (the first is shown) and the global spinner.
 */
export interface PendingMessage {
  id: number;
  text: string;
}

export interface LoadingState {
  /** Requests in flight that drive the progress bar. */
  pending: number;
  /** Requests in flight that asked for the global spinner. */
  spinners: number;
  messages: PendingMessage[];
  barVisible: boolean;
}

export interface TrackOptions {
  /** A line shown while the request runs, for example "Uploading your photo…". */
  message?: string;
  /** Cover the page with the global spinner while the request runs. */
  spinner?: boolean;
  /** Background calls (polling) that should not move the progress bar. */
  silent?: boolean;
}

export const useLoadingStore = create<LoadingState>()(() => ({
  pending: 0,
  spinners: 0,
  messages: [],
  barVisible: false,
}));

let hideTimer: ReturnType<typeof setTimeout> | null = null;
let nextMessageId = 1;

function cancelHide() {
  if (hideTimer !== null) {
    clearTimeout(hideTimer);
    hideTimer = null;
  }
}

/** Marks the start of a request; returns the function that marks its end (safe to call twice). */
export function trackRequest(options: TrackOptions = {}): () => void {
  const counts = !options.silent;
  const spinner = Boolean(options.spinner);
  const message = options.message ? { id: nextMessageId++, text: options.message } : null;

  if (counts) cancelHide();
  useLoadingStore.setState((s) => ({
    pending: counts ? s.pending + 1 : s.pending,
    spinners: spinner ? s.spinners + 1 : s.spinners,
    messages: message ? [...s.messages, message] : s.messages,
    barVisible: counts ? true : s.barVisible,
  }));

  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    useLoadingStore.setState((s) => ({
      pending: counts ? Math.max(0, s.pending - 1) : s.pending,
      spinners: spinner ? Math.max(0, s.spinners - 1) : s.spinners,
      messages: message ? s.messages.filter((m) => m.id !== message.id) : s.messages,
    }));
    if (counts && useLoadingStore.getState().pending === 0) {
      cancelHide();
      hideTimer = setTimeout(() => {
        hideTimer = null;
        if (useLoadingStore.getState().pending === 0)
          useLoadingStore.setState({ barVisible: false });
      }, PROGRESS_HIDE_DELAY_MS);
    }
  };
}

/** The message line: the first pending message, or null. */
export function selectLoadingMessage(state: LoadingState): string | null {
  return state.messages[0]?.text ?? null;
}

/** For tests: back to the idle state with no timer pending. */
export function resetLoadingStore(): void {
  cancelHide();
  useLoadingStore.setState({ pending: 0, spinners: 0, messages: [], barVisible: false });
}
