import { describe, expect, it } from 'vitest';
import { hopPath, redirectTarget } from './navigation';

describe('the /redirect helper: where ?path= may lead', () => {
  it('goes on to a same-origin path with its query and hash', () => {
    expect(redirectTarget('/ps/profile')).toBe('/ps/profile');
    expect(redirectTarget('/tr/0c000000-0000-4000-8000-000000000001/home?tab=2#top')).toBe(
      '/tr/0c000000-0000-4000-8000-000000000001/home?tab=2#top',
    );
  });

  it.each([
    ['//evil.com'],
    ['//evil.com/ps/dashboard'],
    ['https://evil.com'],
    ['http://evil.com/ps/profile'],
    ['/\\evil.com'],
    ['\\\\evil.com'],
    ['/\t/evil.com'],
    ['javascript:alert(1)'],
    ['JavaScript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['ps/profile'],
    [' /ps/profile'],
    [''],
    [null],
  ])('sends %j to the dashboard', (value) => {
    expect(redirectTarget(value)).toBe('/ps/dashboard');
  });

  it('never to itself, nor to a page a signed-in user is sent away from', () => {
    expect(redirectTarget('/redirect?path=//evil.com')).toBe('/ps/dashboard');
    expect(redirectTarget('/redirect/')).toBe('/ps/dashboard');
    expect(redirectTarget('/login')).toBe('/ps/dashboard');
  });

  it('a hop carries the path encoded, and comes back to it', () => {
    const path = '/ps/profile?x=1&y=2';
    const hop = hopPath(path);
    expect(hop).toBe('/redirect?path=%2Fps%2Fprofile%3Fx%3D1%26y%3D2');
    expect(redirectTarget(new URL(hop, 'http://x').searchParams.get('path'))).toBe(path);
  });
});
