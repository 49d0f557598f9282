/** Minor units of a currency as people read them: 2900, 'usd' → "$29.00". */
export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: currency.toUpperCase(),
    }).format(amount / 100);
  } catch {
    // Not an ISO currency Intl knows: still a readable amount.
    return `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}
