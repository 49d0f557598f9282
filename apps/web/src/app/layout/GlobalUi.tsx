import { Notifications } from '@mantine/notifications';
import { TOAST_DURATION_MS } from '@portolan/contract';
import { LoadingIndicators } from './LoadingIndicators';
import { StepUpHost } from './StepUpHost';

/** At most this many toasts at once; more wait in Mantine's queue. */
export const TOAST_LIMIT = 3;

/**
 * The page-independent UI: toasts (5 s, top centre), the loading UI and the step-up dialog
 * (StepUpHost). Loaded lazily: toasts, loading state and a step-up raised before it arrives live
 * in their stores and appear once it is mounted.
 * The top-centre container starts below the header or the logo (global.css, `.portolan-toasts`
 * and the layouts' toast area); a repeated message never stacks (lib/toasts.tsx ids).
 */
export default function GlobalUi() {
  return (
    <>
      {/* A labelled region, so that toasts and the progress bar sit inside a landmark. */}
      <section aria-label="Status messages">
        <Notifications
          className="portolan-toasts"
          position="top-center"
          autoClose={TOAST_DURATION_MS}
          limit={TOAST_LIMIT}
          containerWidth={440}
          withinPortal={false}
        />
        <LoadingIndicators />
      </section>
      <StepUpHost />
    </>
  );
}
