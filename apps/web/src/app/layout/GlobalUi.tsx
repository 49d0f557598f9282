import { Notifications } from '@mantine/notifications';
import { TOAST_DURATION_MS } from '@portolan/contract';
import { LoadingIndicators } from './LoadingIndicators';

/**
 * The page-independent UI: toasts (5 s, top centre) and the loading UI. Loaded lazily: toasts and
 * loading state raised before it arrives live in their stores and appear once it is mounted.
 */
export default function GlobalUi() {
  return (
    // A labelled region, so that toasts and the progress bar sit inside a landmark.
    <section aria-label="Status messages">
      <Notifications
        position="top-center"
        autoClose={TOAST_DURATION_MS}
        limit={5}
        withinPortal={false}
      />
      <LoadingIndicators />
    </section>
  );
}
