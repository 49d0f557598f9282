import { PROGRESS_HIDE_DELAY_MS } from '@portolan/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { selectLoadingMessage, trackRequest, useLoadingStore } from './loading-store';

describe('loading store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the bar when the first request starts and hides it 500 ms after the last ends', () => {
    expect(PROGRESS_HIDE_DELAY_MS).toBe(500);
    expect(useLoadingStore.getState().barVisible).toBe(false);

    const endA = trackRequest();
    expect(useLoadingStore.getState()).toMatchObject({ pending: 1, barVisible: true });
    const endB = trackRequest();
    expect(useLoadingStore.getState().pending).toBe(2);

    endA();
    vi.advanceTimersByTime(1_000);
    expect(useLoadingStore.getState()).toMatchObject({ pending: 1, barVisible: true });

    endB();
    expect(useLoadingStore.getState()).toMatchObject({ pending: 0, barVisible: true });
    vi.advanceTimersByTime(499);
    expect(useLoadingStore.getState().barVisible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(useLoadingStore.getState().barVisible).toBe(false);
  });

  it('keeps the bar when a new request starts within the 500 ms', () => {
    trackRequest()();
    vi.advanceTimersByTime(300);
    const end = trackRequest();
    vi.advanceTimersByTime(400);
    expect(useLoadingStore.getState().barVisible).toBe(true);
    end();
    vi.advanceTimersByTime(499);
    expect(useLoadingStore.getState().barVisible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(useLoadingStore.getState().barVisible).toBe(false);
  });

  it('the message line shows the first pending message', () => {
    const endFirst = trackRequest({ message: 'Saving…' });
    const endSecond = trackRequest({ message: 'Uploading…' });
    expect(selectLoadingMessage(useLoadingStore.getState())).toBe('Saving…');
    endFirst();
    expect(selectLoadingMessage(useLoadingStore.getState())).toBe('Uploading…');
    endSecond();
    expect(selectLoadingMessage(useLoadingStore.getState())).toBeNull();
  });

  it('counts spinner requests and ignores a second end call', () => {
    const end = trackRequest({ spinner: true });
    expect(useLoadingStore.getState().spinners).toBe(1);
    end();
    end();
    expect(useLoadingStore.getState()).toMatchObject({ spinners: 0, pending: 0 });
  });

  it('silent requests do not move the bar', () => {
    const end = trackRequest({ silent: true });
    expect(useLoadingStore.getState()).toMatchObject({ pending: 0, barVisible: false });
    end();
  });
});
