import type { User, UserUpdate } from '@portolan/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useAuthStore } from '../../../lib/auth-store';
import { currentUserKey } from '../../../lib/current-user';
import { uploadImage } from '../../../lib/image-upload';

export interface PasswordChangeBody {
  old_password: string;
  new_password1: string;
  new_password2: string;
}

export interface PasswordChangeResponse {
  detail?: string;
  /** A fresh token for this session, when the server rotates it. */
  token?: string;
}

/** PATCH /v1/rest-auth/user/ → the updated user. */
export function updateUser(body: UserUpdate) {
  return api.patch<User>('/v1/rest-auth/user/', body);
}

/** POST /v1/rest-auth/password/change/ {old_password, new_password1, new_password2}. */
export function changePassword(body: PasswordChangeBody) {
  return api.post<PasswordChangeResponse>('/v1/rest-auth/password/change/', body);
}

/** Keeps the cached user and the persisted auth state (e-mail, avatar) in step with the server. */
export function useStoreUser() {
  const queryClient = useQueryClient();
  return (user: User) => {
    queryClient.setQueryData(currentUserKey, user);
    const { setUser } = useAuthStore.getState();
    setUser(user, user.avatar ?? null);
  };
}

export function useUpdateUser() {
  const storeUser = useStoreUser();
  return useMutation({ mutationFn: updateUser, onSuccess: storeUser });
}

/** Upload the photo, then point the user's avatar at it. */
export function useUploadAvatar() {
  const storeUser = useStoreUser();
  return useMutation({
    mutationFn: async (file: File) => {
      const { url } = await uploadImage(file, 'Uploading your photo…');
      return updateUser({ avatar: url });
    },
    onSuccess: storeUser,
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (res) => {
      if (res && typeof res.token === 'string' && res.token) {
        useAuthStore.getState().setToken(res.token);
      }
    },
  });
}
