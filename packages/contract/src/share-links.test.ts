import { describe, expect, it } from 'vitest';
import {
  canManageShareLink,
  canShareModule,
  isShareTokenShape,
  managesAllShareLinks,
  MODULE_OVERVIEWS,
  sharePath,
  shareLinkStatus,
} from './share-links.ts';
import { MODULE_CODES } from './constants.ts';

describe('share link rules', () => {
  const now = new Date('2030-06-01T12:00:00Z');

  it('says a link’s status: REVOKED wins, then EXPIRED at its expiry, else ACTIVE', () => {
    expect(shareLinkStatus({ expires_at: null, revoked_at: null }, now)).toBe('ACTIVE');
    expect(shareLinkStatus({ expires_at: '2030-06-01T12:00:01Z', revoked_at: null }, now)).toBe(
      'ACTIVE',
    );
    expect(shareLinkStatus({ expires_at: '2030-06-01T12:00:00Z', revoked_at: null }, now)).toBe(
      'EXPIRED',
    );
    expect(
      shareLinkStatus(
        { expires_at: '2030-01-01T00:00:00Z', revoked_at: '2029-12-01T00:00:00Z' },
        now,
      ),
    ).toBe('REVOKED');
  });

  it('lets every member share a module that is on, nobody one that is off', () => {
    const on = [{ module: 'TR', enabled: true }];
    const off = [{ module: 'TR', enabled: false }];
    for (const role of ['OWNER', 'ADMIN', 'MANAGER', 'STAFF', 'CLIENT'] as const) {
      expect(canShareModule({ orgRole: null, workspaceRole: role }, on, 'TR'), role).toBe(true);
      expect(canShareModule({ orgRole: null, workspaceRole: role }, off, 'TR'), role).toBe(false);
      expect(canShareModule({ orgRole: null, workspaceRole: role }, on, 'MAP'), role).toBe(false);
    }
    // An organization ADMIN acts as the workspace's ADMIN; an organization STAFF alone is no member.
    expect(canShareModule({ orgRole: 'ADMIN', workspaceRole: null }, on, 'TR')).toBe(true);
    expect(canShareModule({ orgRole: 'STAFF', workspaceRole: null }, on, 'TR')).toBe(false);
  });

  it('lets the creator and the workspace’s OWNERs and ADMINs manage a link', () => {
    const link = { created_by: 'u1' };
    expect(canManageShareLink({ userId: 'u1', orgRole: null, workspaceRole: 'CLIENT' }, link)).toBe(
      true,
    );
    expect(
      canManageShareLink({ userId: 'u2', orgRole: null, workspaceRole: 'MANAGER' }, link),
    ).toBe(false);
    expect(canManageShareLink({ userId: 'u2', orgRole: null, workspaceRole: 'ADMIN' }, link)).toBe(
      true,
    );
    expect(
      canManageShareLink({ userId: 'u2', orgRole: 'OWNER', workspaceRole: 'STAFF' }, link),
    ).toBe(true);
    expect(
      canManageShareLink(
        { userId: 'u2', orgRole: null, workspaceRole: 'STAFF' },
        { created_by: null },
      ),
    ).toBe(false);
    expect(managesAllShareLinks({ orgRole: 'STAFF', workspaceRole: 'MANAGER' })).toBe(false);
  });

  it('knows a token by its shape and puts it in a /share/ path', () => {
    const token = 'a'.repeat(40) + '-_Z';
    expect(isShareTokenShape(token)).toBe(true);
    expect(isShareTokenShape(token.slice(1))).toBe(false);
    expect(isShareTokenShape(`${token}=`.slice(1))).toBe(false);
    expect(isShareTokenShape(`${token.slice(1)}+`)).toBe(false);
    expect(sharePath(token)).toBe(`/share/${token}`);
  });

  it('has an overview for every module', () => {
    for (const code of MODULE_CODES) expect(MODULE_OVERVIEWS[code].length).toBeGreaterThan(20);
  });
});
