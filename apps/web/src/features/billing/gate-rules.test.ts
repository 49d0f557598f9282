import { describe, expect, it } from 'vitest';
import { ORG_ID } from '../../test/tenant-fixtures';
import { gateDecision } from './gate-rules';
import { entry, subscription } from './test-fixtures';

const NOW = new Date('2099-03-15T12:00:00.000Z');
const page = `/ps/organization-settings/${ORG_ID}/detail`;
const decide = (sub: Parameters<typeof subscription>[0], role: 'OWNER' | 'STAFF' = 'OWNER') =>
  gateDecision({
    billingOn: true,
    pathname: page,
    orgId: ORG_ID,
    entries: [entry(subscription(sub), role)],
    now: NOW,
  });

describe('the gate’s "active" (spec §4)', () => {
  it('lets through a subscription not flagged active whose expiry is ahead and amount above 0', () => {
    expect(
      decide({ is_active: false, expired_in: '2099-04-01T12:00:00.000Z', amount: 4900 }),
    ).toEqual({
      kind: 'pass',
    });
  });

  it('stops the same with the expiry past, or with amount 0', () => {
    expect(
      decide({ is_active: false, expired_in: '2099-03-01T12:00:00.000Z', amount: 4900 }),
    ).toEqual({
      kind: 'billing',
      to: expect.stringContaining(`/ps/organization-settings/${ORG_ID}/billing`),
    });
    expect(
      decide({ is_active: false, expired_in: '2099-04-01T12:00:00.000Z', amount: 0 }, 'STAFF'),
    ).toEqual({ kind: 'expired' });
  });
});
