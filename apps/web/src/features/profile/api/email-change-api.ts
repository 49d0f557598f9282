import type { EmailChangeRequest, User } from '@portolan/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { currentUserKey } from '../../../lib/current-user';
import { useStoreUser } from './profile-api';
import { securityEventsKey } from './security-events-api';

/** What both steps answer: a sentence and the new address. */
export interface EmailChangeResponse {
  detail: string;
  email: string;
}

/**
 * POST /v1/user/email-change/ {new_email, password} (a step-up when the sign-in is old): a 6-digit
 * code goes to the new address, a notice to the current one.
 */
export function useRequestEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EmailChangeRequest) =>
      api.post<EmailChangeResponse>('/v1/user/email-change/', body, {
        loadingMessage: 'Sending a code to the new address…',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityEventsKey }),
  });
}

/** POST /v1/user/email-change/confirm/ {code}: the account's address is the new one from now on. */
export function useConfirmEmailChange() {
  const queryClient = useQueryClient();
  const storeUser = useStoreUser();
  return useMutation({
    mutationFn: (code: string) =>
      api.post<EmailChangeResponse>(
        '/v1/user/email-change/confirm/',
        { code },
        { loadingMessage: 'Checking the code…' },
      ),
    onSuccess: ({ email }) => {
      // The new address shows at once (the header, the profile); the user is then read again.
      const user = queryClient.getQueryData<User>(currentUserKey);
      if (user) storeUser({ ...user, email });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: currentUserKey }),
        queryClient.invalidateQueries({ queryKey: securityEventsKey }),
      ]);
    },
  });
}
