import { describe, expect, it, vi } from 'vitest';
import { apiError, json, mockApi } from '../test/api-mock';
import { signIn } from '../test/render-app';
import { api } from './api';
import { useAuthStore } from './auth-store';
import { SECURITY_SETTINGS_PATH, useMfaRequiredStore } from './mfa-required';
import { registerNavigator } from './navigation';

const ORG = '0a000000-0000-4000-8000-000000000001';
const refused = (policy = 'any') =>
  apiError(
    403,
    'MFA_REQUIRED',
    'Acme requires two-step verification for every member. Set it up under My Settings → Security to continue.',
    { organization_id: ORG, require_mfa: policy },
  );

/** A router stand-in at `path` that records where the client sends the user. */
function at(path: string) {
  let here = path;
  const navigate = vi.fn((to: string) => {
    here = to;
  });
  registerNavigator({ navigate, currentPath: () => here });
  return navigate;
}

describe('403 MFA_REQUIRED (an organization’s policy refuses the user)', () => {
  it('remembers the refusal and leads to My Settings → Security in place of the refused page', async () => {
    mockApi({ [`GET /v1/organizations/${ORG}/`]: refused('phishing_resistant') });
    signIn();
    const navigate = at(`/ps/organization-settings/${ORG}/detail`);

    await expect(api.get(`/v1/organizations/${ORG}/`)).rejects.toMatchObject({
      status: 403,
      code: 'MFA_REQUIRED',
    });
    expect(navigate).toHaveBeenCalledExactlyOnceWith(SECURITY_SETTINGS_PATH, { replace: true });
    expect(useMfaRequiredStore.getState().refusal).toEqual({
      organizationId: ORG,
      requireMfa: 'phishing_resistant',
      message: expect.stringContaining('Acme requires') as string,
      from: `/ps/organization-settings/${ORG}/detail`,
      userId: useAuthStore.getState().user?.user_id,
    });
  });

  it('stays on My Settings (no loop), keeping the page to go back to', async () => {
    mockApi({
      [`GET /v1/organizations/${ORG}/`]: refused(),
      [`GET /v1/organizations/${ORG}/balance/`]: refused(),
    });
    signIn();
    const navigate = at('/ps/dashboard');
    await api.get(`/v1/organizations/${ORG}/`).catch(() => {});
    expect(navigate).toHaveBeenCalledTimes(1);

    // A background call refused while on the page it led to: nothing moves.
    await api.get(`/v1/organizations/${ORG}/balance/`).catch(() => {});
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(useMfaRequiredStore.getState().refusal?.from).toBe('/ps/dashboard');
  });

  it('is nothing special for a call with a token of its own, or for any other 403', async () => {
    mockApi({
      [`GET /v1/organizations/${ORG}/`]: refused(),
      'GET /v1/organizations/o2/': apiError(403, 'PERMISSION_DENIED', 'No.'),
      'GET /v1/rest-auth/user/': json({}),
    });
    signIn();
    const navigate = at('/ps/dashboard');
    await api.get(`/v1/organizations/${ORG}/`, { token: 'another' }).catch(() => {});
    await api.get('/v1/organizations/o2/').catch(() => {});
    expect(navigate).not.toHaveBeenCalled();
    expect(useMfaRequiredStore.getState().refusal).toBeNull();
  });
});
