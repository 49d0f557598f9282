/**
 * The sandbox's hosted payment page: plain HTML and a form that posts without JavaScript (the
 * CSP forbids inline scripts). Labels for every field, one h1, errors announced (role="alert")
 * and tied to their field. What was typed as card number or security code is never written back.
 */

import { formatMoney } from '../money.ts';

const escapeHtml = (s: string) =>
  s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

const STYLE = `
body{font-family:system-ui,sans-serif;background:#f1f3f5;color:#212529;margin:0;padding:2rem 1rem}
main{max-width:26rem;margin:0 auto;background:#fff;border-radius:8px;padding:1.5rem 2rem;box-shadow:0 1px 4px rgba(0,0,0,.15)}
h1{font-size:1.4rem;margin:0 0 .5rem}
.amount{font-size:1.6rem;font-weight:700;margin:.25rem 0 1rem}
.note{font-size:.85rem;background:#fff9db;border:1px solid #fcc419;border-radius:4px;padding:.5rem .75rem}
label{display:block;font-weight:600;margin:.9rem 0 .3rem}
input{width:100%;box-sizing:border-box;font-size:1rem;padding:.5rem;border:1px solid #868e96;border-radius:4px}
input[aria-invalid=true]{border-color:#c92a2a}
.row{display:flex;gap:1rem}.row>div{flex:1}
.error{color:#c92a2a;font-size:.9rem;margin:.3rem 0 0}
.actions{display:flex;gap:1rem;margin-top:1.5rem}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:4px;border:1px solid #1864ab;cursor:pointer}
button.pay{background:#1864ab;color:#fff}button.cancel{background:#fff;color:#1864ab}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #4dabf7;outline-offset:2px}
a{color:#1864ab}`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

export interface PageCheckout {
  brand: string;
  description: string;
  amount: number;
  currency: string;
  /** Where the form posts. */
  action: string;
}

export type FormField = 'number' | 'expiry' | 'cvc' | 'name';

export function checkoutPage(
  checkout: PageCheckout,
  state: { error?: { field: FormField; message: string }; expiry?: string; name?: string } = {},
): string {
  const paying = checkout.amount > 0;
  const field = (name: FormField, label: string, attrs: string, value = '') => {
    const invalid = state.error?.field === name;
    return `<div><label for="${name}">${label}</label>
<input id="${name}" name="${name}" ${attrs} value="${escapeHtml(value)}"${
      invalid ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''
    }>${invalid ? `<p class="error" id="${name}-error" role="alert">${escapeHtml(state.error!.message)}</p>` : ''}</div>`;
  };
  return layout(
    `Pay ${checkout.brand}`,
    `<h1>${paying ? `Pay ${escapeHtml(checkout.brand)}` : 'Add a card'}</h1>
<p>${escapeHtml(checkout.description)}</p>
<p class="amount">${paying ? escapeHtml(formatMoney(checkout.amount, checkout.currency)) : 'Nothing is charged now'}</p>
<p class="note">Sandbox: no money moves. 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined;
4000 0000 0000 9995 has insufficient funds. Any future expiry date and any 3 digits.</p>
<form method="post" action="${escapeHtml(checkout.action)}">
${field('number', 'Card number', 'inputmode="numeric" autocomplete="cc-number" maxlength="23" required')}
<div class="row">
${field('expiry', 'Expiry (MM/YY)', 'autocomplete="cc-exp" placeholder="MM/YY" maxlength="7" required', state.expiry)}
${field('cvc', 'Security code (CVC)', 'inputmode="numeric" autocomplete="cc-csc" maxlength="4" required')}
</div>
${field('name', 'Name on card', 'autocomplete="cc-name" maxlength="200" required', state.name)}
<div class="actions">
<button type="submit" class="pay" name="action" value="pay">${paying ? `Pay ${escapeHtml(formatMoney(checkout.amount, checkout.currency))}` : 'Save card'}</button>
<button type="submit" class="cancel" name="action" value="cancel" formnovalidate>Cancel</button>
</div>
</form>`,
  );
}

/** A checkout that can no longer be paid (or was just paid): why, and the way back to the portal. */
export function closedPage(
  brand: string,
  page: { title: string; message: string; back: { href: string; label: string } },
): string {
  return layout(
    `${page.title} – ${brand}`,
    `<h1>${escapeHtml(page.title)}</h1>
<p role="status">${escapeHtml(page.message)}</p>
<p><a href="${escapeHtml(page.back.href)}">${escapeHtml(page.back.label)}</a></p>`,
  );
}
