import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { useAuthStore } from '../../lib/auth-store';
import { finishStepUp, useStepUpStore } from '../../lib/step-up';
import { showNewerVersionToast } from '../../lib/toasts';

/** Its chunk failed to load (a newer version was deployed): the waiting calls fail, and say so. */
function Unavailable() {
  useEffect(() => {
    showNewerVersionToast();
    finishStepUp(false);
  }, []);
  return null;
}

// Loaded when first needed: most visits never see it, and the public pages never do.
const StepUpDialog = lazy<ComponentType>(() =>
  import('../../features/auth/components/StepUpDialog').catch(() => ({ default: Unavailable })),
);

/**
 * Where the step-up dialog lives (lib/step-up.ts): mounted once with the page-independent UI,
 * it shows the dialog while a sensitive call waits for it. Signed out meanwhile (a 401, a logout
 * in another tab), the waiting calls fail at once.
 */
export function StepUpHost() {
  const open = useStepUpStore((s) => s.methods !== null);
  const signedIn = useAuthStore((s) => Boolean(s.userToken));
  useEffect(() => {
    if (open && !signedIn) finishStepUp(false);
  }, [open, signedIn]);
  if (!open || !signedIn) return null;
  return (
    <Suspense fallback={null}>
      <StepUpDialog />
    </Suspense>
  );
}
