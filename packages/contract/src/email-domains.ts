/**
 * E-mail domains that change what a user sees (spec §1 custom shipment template, §6 internal
 * staff). The lists themselves are configuration and never leave the server; only the answer for
 * the signed-in user does (GET /v1/rest-auth/user/).
 */

/** The domain of an address, lower-cased, without a trailing dot; '' when there is none. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return '';
  return email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.+$/, '');
}

/**
 * True when the address's domain is one of `domains` (lower-cased, as the configuration parses
 * them). Exact match only: `example.com` does not cover `eu.example.com`, which must be listed on
 * its own, so a list never grants more than it names.
 */
export function isEmailInDomains(email: string, domains: readonly string[]): boolean {
  const domain = emailDomain(email);
  return domain !== '' && domains.includes(domain);
}
