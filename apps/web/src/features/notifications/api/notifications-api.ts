import {
  Messages,
  NOTIFICATION_PAGE_SIZE,
  NOTIFICATION_POLL_MS,
  type InvitationKind,
  type NotificationStatus,
  type NotificationType,
} from '@portolan/contract';
import { infiniteQueryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../../lib/api';
import { nextTask } from '../../../lib/own-task';
import { invalidateTenancy } from '../../../lib/tenant-api';
import { hideNetworkErrorToast, toast } from '../../../lib/toasts';

/** One notification of the bell (GET /v1/user/notification/). */
export interface BellNotification {
  id: string;
  type: NotificationType;
  status: NotificationStatus;
  is_seen: boolean;
  extra_message: string | null;
  created: string;
  meta: {
    invitation_token?: string;
    type?: InvitationKind;
    id?: string;
    role?: string;
    organization?: { id: string; name: string };
    client?: { id: string; name: string };
    /** BILLING: what happened (low_balance, a declined top-up or renewal…). */
    kind?: string;
    /** BILLING: the in-app page to act on it (add funds, update the card). */
    path?: string;
  };
  author: { id: string; email: string; first_name: string; last_name: string } | null;
  organization: { id: string; name: string } | null;
  client: { id: string; name: string } | null;
}

export interface NotificationPage {
  results: BellNotification[];
  count: number;
  next: number | null;
}

export const notificationsKey = ['user', 'notification'] as const;
export const newCountKey = [...notificationsKey, 'new'] as const;

const enc = encodeURIComponent;

/**
 * GET /v1/user/notification/?page=k&limit=10: the bell shows the first 10 and Load more appends
 * the next 10 (spec §4). Background calls: no progress bar, no server-error toast (spec §7:
 * silent); a failure says the §8 text, and a success clears a network-error toast (spec §4).
 */
export function notificationsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: [...notificationsKey, 'list'],
    initialPageParam: 1,
    queryFn: async ({ signal, pageParam }) => {
      try {
        const page = await api.get<NotificationPage>('/v1/user/notification/', {
          signal,
          query: { page: pageParam, limit: NOTIFICATION_PAGE_SIZE },
          silent: true,
          noServerErrorToast: true,
        });
        hideNetworkErrorToast();
        return page;
      } catch (error) {
        if (!signal.aborted) toast.error(Messages.notificationLoadFailed);
        throw error;
      }
    },
    getNextPageParam: (last, _all, lastParam) => (last.next ? lastParam + 1 : undefined),
    refetchInterval: NOTIFICATION_POLL_MS,
    retry: false,
  });
}

/** GET /v1/user/notification/new/: the unseen count, polled every 60000 ms (spec §9). */
export function useNewCount(enabled: boolean) {
  return useQuery({
    queryKey: newCountKey,
    // In a task of its own: it becomes due with the push stream and the release notes' dot.
    queryFn: ({ signal }) =>
      nextTask().then(() =>
        api.get<{ count: number }>('/v1/user/notification/new/', {
          signal,
          silent: true,
          noServerErrorToast: true,
          noNetworkErrorToast: true,
        }),
      ),
    enabled,
    refetchInterval: NOTIFICATION_POLL_MS,
    retry: false,
  });
}

/** After a change: the list again, and the count lowered at once (then checked). */
function useAfterChange() {
  const queryClient = useQueryClient();
  return (seen: boolean) => {
    if (seen) {
      queryClient.setQueryData<{ count: number }>(newCountKey, (old) =>
        old ? { count: Math.max(0, old.count - 1) } : old,
      );
    }
    return queryClient.invalidateQueries({ queryKey: notificationsKey });
  };
}

/** PUT /v1/user/notification/{id}/is-seen/ (Read). */
export function useMarkSeen() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: (n: BellNotification) =>
      api.put<BellNotification>(`/v1/user/notification/${enc(n.id)}/is-seen/`, undefined, {
        silent: true,
      }),
    onSuccess: (_data, n) => after(!n.is_seen),
  });
}

/** The accept call of the invitation's kind (the token is the credential). */
function acceptInvitation(kind: InvitationKind, token: string) {
  const path =
    kind === 'client'
      ? '/v1/clients/users/invitation/accept/'
      : '/v1/organizations/users/invitation/accept/';
  return api.post<{ detail: string; needs_password: boolean }>(
    path,
    { token },
    { loadingMessage: 'Accepting the invitation…' },
  );
}

/**
 * Accept (spec §4): verify the token with the invitation's kind, say the §8 success text, reload
 * the organizations and workspaces, lower the count and mark the notification seen. A failed
 * verification says the §8 failure text.
 */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  const after = useAfterChange();
  return useMutation({
    mutationFn: async (n: BellNotification) => {
      const kind = n.meta.type ?? 'organization';
      const answer = await acceptInvitation(kind, n.meta.invitation_token ?? '');
      await api.put(`/v1/user/notification/${enc(n.id)}/is-seen/`, undefined, { silent: true });
      return { kind, answer };
    },
    onSuccess: async ({ kind }, n) => {
      toast.success(
        kind === 'client'
          ? Messages.invitationAcceptedWorkspace
          : Messages.invitationAcceptedOrganization,
      );
      await Promise.all([invalidateTenancy(queryClient), after(!n.is_seen)]);
    },
    onError: () => {
      toast.error(Messages.invitationVerifyFailed);
      void after(false);
    },
  });
}

/** Decline (spec §4): the decline action, then mark seen. */
export function useDeclineInvitation() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: async (n: BellNotification) => {
      await api.put(`/v1/user/notification/${enc(n.id)}/is-seen/decline/`, undefined, {
        loadingMessage: 'Declining the invitation…',
      });
      await api.put(`/v1/user/notification/${enc(n.id)}/is-seen/`, undefined, { silent: true });
    },
    onSuccess: (_data, n) => {
      toast.info('The invitation has been declined.');
      return after(!n.is_seen);
    },
    onError: (error) => {
      toast.error(error instanceof Error ? error.message : 'The invitation could not be declined.');
      void after(false);
    },
  });
}

/** Keeps the count current from the push stream when it is given one (see stream.ts). */
export function useCountFromPush(count: number | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (count === null) return;
    const old = queryClient.getQueryData<{ count: number }>(newCountKey);
    // The pushed count is the newest: a poll still on its way would bring an older one.
    void queryClient.cancelQueries({ queryKey: newCountKey }).then(() => {
      queryClient.setQueryData(newCountKey, { count });
      if (old?.count !== count) {
        void queryClient.invalidateQueries({ queryKey: [...notificationsKey, 'list'] });
      }
    });
  }, [count, queryClient]);
}
