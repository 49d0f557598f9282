import { CODE_TTL_MINUTES } from '@portolan/contract';
import type { OutgoingMail } from './transport.ts';

/** Every e-mail shares one layout, in HTML and plain text. */
export interface MailContext {
  brand: string;
  publicUrl: string;
  supportEmail: string;
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function layout(
  ctx: MailContext,
  to: string,
  subject: string,
  parts: {
    greeting: string;
    lines: string[];
    code?: string;
    links?: { label: string; url: string }[];
    footer?: string;
  },
): OutgoingMail {
  const links = parts.links ?? [];
  const text = [
    parts.greeting,
    '',
    ...parts.lines,
    ...(parts.code ? ['', parts.code, ''] : []),
    ...(links.length ? ['', ...links.map((l) => `${l.label}: ${l.url}`), ''] : []),
    ...(parts.footer ? [parts.footer, ''] : []),
    `Questions? Write to ${ctx.supportEmail}.`,
    `— ${ctx.brand} (${ctx.publicUrl})`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0"><tr><td align="center">
<table role="presentation" width="560" cellspacing="0" cellpadding="0" style="background:#ffffff;border-radius:8px;padding:32px">
<tr><td style="font-size:20px;font-weight:bold;color:#1864ab;padding-bottom:16px">${escapeHtml(ctx.brand)}</td></tr>
<tr><td style="font-size:15px;line-height:1.5">
<p>${escapeHtml(parts.greeting)}</p>
${parts.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
${parts.code ? `<p style="font-size:32px;letter-spacing:8px;font-weight:bold;text-align:center;margin:24px 0">${escapeHtml(parts.code)}</p>` : ''}
${links.map((l) => `<p><a href="${escapeHtml(l.url)}" style="color:#1864ab;font-weight:bold">${escapeHtml(l.label)}</a></p>`).join('\n')}
${parts.footer ? `<p style="color:#52606d">${escapeHtml(parts.footer)}</p>` : ''}
</td></tr>
<tr><td style="font-size:12px;color:#7b8794;padding-top:24px;border-top:1px solid #e4e7eb">
Questions? Write to <a href="mailto:${escapeHtml(ctx.supportEmail)}">${escapeHtml(ctx.supportEmail)}</a>.
<br><a href="${escapeHtml(ctx.publicUrl)}">${escapeHtml(ctx.publicUrl)}</a>
</td></tr></table></td></tr></table></body></html>`;
  return { to, subject, text, html };
}

export function activationCodeMail(ctx: MailContext, to: string, firstName: string, code: string) {
  return layout(ctx, to, `Your ${ctx.brand} activation code`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [`Enter this code to activate your ${ctx.brand} account:`],
    code,
    footer: `The code expires in ${CODE_TTL_MINUTES} minutes. If you did not register, ignore this e-mail.`,
  });
}

export function passwordResetCodeMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  code: string,
) {
  return layout(ctx, to, `Your ${ctx.brand} password reset code`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [`Enter this code to choose a new ${ctx.brand} password:`],
    code,
    footer: `The code expires in ${CODE_TTL_MINUTES} minutes. If you did not ask for a reset, ignore this e-mail; your password stays as it is.`,
  });
}

/**
 * To the owner of an address someone tried to register again: registration answers as if the
 * address were new (it must not tell who has an account), so the owner hears of it here.
 */
export function registrationAttemptMail(ctx: MailContext, to: string, firstName: string) {
  const base = ctx.publicUrl.replace(/\/+$/, '');
  return layout(ctx, to, `Someone tried to register with your ${ctx.brand} e-mail`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [
      `Someone just tried to register a new ${ctx.brand} account with this e-mail address, which already has an account.`,
      'If it was you, sign in instead; if you forgot your password, choose a new one.',
    ],
    links: [
      { label: 'Sign in', url: `${base}/login` },
      { label: 'Reset your password', url: `${base}/forgot-password` },
    ],
    footer:
      'If it was not you, ignore this e-mail: nothing was changed, and your account stays as it is.',
  });
}

/** Where and how an account was signed in to, as the new-device mail tells it. */
export interface SignInPlace {
  /** "Chrome 156 on macOS Catalina". */
  device: string;
  ip: string | null;
  /** When, as written in the mail (UTC). */
  at: Date;
}

/**
 * To the owner of an account signed in to from a device it has no session of: if it was not
 * them, what to do at once.
 */
export function newDeviceSignInMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  place: SignInPlace,
) {
  const base = ctx.publicUrl.replace(/\/+$/, '');
  const when = `${place.at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return layout(ctx, to, `New sign-in to your ${ctx.brand} account`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [
      `Your ${ctx.brand} account was just signed in to from a device it had not been used on:`,
      `${place.device}, from ${place.ip ?? 'an unknown address'}, at ${when}.`,
      'If it was you, there is nothing to do.',
      'If it was not you, choose a new password now, then sign out the sessions you do not recognise in My Settings.',
    ],
    links: [
      { label: 'Choose a new password', url: `${base}/forgot-password` },
      { label: 'My Settings: where you are signed in', url: `${base}/ps/profile` },
    ],
  });
}

/** To the new address of an e-mail change: the code that proves the owner reads it. */
export function emailChangeCodeMail(ctx: MailContext, to: string, firstName: string, code: string) {
  return layout(ctx, to, `Confirm your new ${ctx.brand} e-mail address`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [`Enter this code in ${ctx.brand} to make this your account's e-mail address:`],
    code,
    footer: `The code expires in ${CODE_TTL_MINUTES} minutes. If you did not ask for this, ignore this e-mail; nothing changes.`,
  });
}

/** To the current address when a change to another is asked for: if it was not them, what to do. */
export function emailChangeRequestedMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  newEmail: string,
) {
  const base = ctx.publicUrl.replace(/\/+$/, '');
  return layout(ctx, to, `A change of your ${ctx.brand} e-mail address was asked for`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [
      `Someone signed in to your ${ctx.brand} account asked to change its e-mail address to ${newEmail}. It changes only when the code sent there is entered.`,
      'If it was you, there is nothing to do here.',
      'If it was not you, choose a new password now and sign out the sessions you do not recognise.',
    ],
    links: [
      { label: 'Choose a new password', url: `${base}/forgot-password` },
      { label: 'My Settings: security', url: `${base}/ps/profile?tab=security` },
    ],
  });
}

/** To the former address once the change is made. */
export function emailChangedMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  newEmail: string,
) {
  return layout(ctx, to, `Your ${ctx.brand} e-mail address was changed`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [
      `Your ${ctx.brand} account's e-mail address is now ${newEmail}. Sign-in and e-mails use that address from now on.`,
      `If you did not make this change, write to ${ctx.supportEmail} at once.`,
    ],
  });
}

/** What an invitation or an addition is to, as the mails name it. */
export interface MembershipOffer {
  kind: 'organization' | 'client';
  /** The organization's or the workspace's name. */
  target: string;
  /** Who invited or added them (name, else e-mail). */
  inviter: string;
  /** The role's display name. */
  role: string;
}

const noun = (offer: MembershipOffer) => (offer.kind === 'client' ? 'workspace' : 'organization');

/**
 * An invitation: the link to the confirm page carries the token (spec §2: /ps/clients/invitation
 * or /ps/organizations/invitation), valid for `validDays`.
 */
export function invitationMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  offer: MembershipOffer & { token: string; validDays: number },
) {
  const base = ctx.publicUrl.replace(/\/+$/, '');
  const page = offer.kind === 'client' ? 'clients' : 'organizations';
  return layout(ctx, to, `You are invited to ${offer.target} on ${ctx.brand}`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [
      `${offer.inviter} invited you to the ${noun(offer)} ${offer.target} on ${ctx.brand}, as ${offer.role}.`,
      'Open the link to accept. If you have no password yet, you choose one there.',
    ],
    links: [
      {
        label: 'Accept the invitation',
        url: `${base}/ps/${page}/invitation?token=${encodeURIComponent(offer.token)}`,
      },
    ],
    footer: `The link works for ${offer.validDays} days. If you do not know ${offer.inviter}, ignore this e-mail.`,
  });
}

/**
 * A member added at once (a force-invitation). It never carries a password (decision 0008): the
 * inviter chose the password of a new account and hands it over themselves, or the member chooses
 * their own through "Reset your password".
 */
export function memberAddedMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  offer: MembershipOffer & { newAccount: boolean },
) {
  const base = ctx.publicUrl.replace(/\/+$/, '');
  return layout(ctx, to, `You were added to ${offer.target} on ${ctx.brand}`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [
      `${offer.inviter} added you to the ${noun(offer)} ${offer.target} on ${ctx.brand}, as ${offer.role}.`,
      offer.newAccount
        ? `An account was made for you: sign in with this e-mail address and the password ${offer.inviter} chose, which they give you themselves. You may also choose your own password with "Reset your password".`
        : `Sign in with your ${ctx.brand} account as usual.`,
    ],
    links: [
      { label: 'Sign in', url: `${base}/login` },
      ...(offer.newAccount
        ? [{ label: 'Reset your password', url: `${base}/forgot-password` }]
        : []),
    ],
  });
}

/** What a data export is of, as its mails name it. */
export type ExportSubject = { kind: 'user' } | { kind: 'organization'; name: string };

const exportNoun = (subject: ExportSubject) =>
  subject.kind === 'user' ? 'your data' : `the data of ${subject.name}`;

/**
 * A data export is ready: the link downloads the archive itself (its token is the credential)
 * until `expiresAt`; the settings page offers the same file.
 */
export function dataExportReadyMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  input: { subject: ExportSubject; url: string; expiresAt: Date; settingsPath: string },
) {
  const base = ctx.publicUrl.replace(/\/+$/, '');
  const until = `${input.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return layout(ctx, to, `Your ${ctx.brand} data export is ready`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [
      `The export of ${exportNoun(input.subject)} you asked for is ready: one zip archive, with a README.txt that describes its files.`,
      `The link works until ${until}; after that the archive is deleted and you can ask for a new export.`,
    ],
    links: [
      { label: 'Download the archive', url: input.url },
      { label: 'Your exports in the settings', url: `${base}${input.settingsPath}` },
    ],
    footer: 'If you did not ask for this export, change your password and write to us.',
  });
}

/** A data export could not be built (after its retries): no archive, ask again. */
export function dataExportFailedMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  input: { subject: ExportSubject; settingsPath: string },
) {
  const base = ctx.publicUrl.replace(/\/+$/, '');
  return layout(ctx, to, `Your ${ctx.brand} data export could not be made`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [
      `The export of ${exportNoun(input.subject)} you asked for could not be built, even after several attempts. Nothing was kept.`,
      'Please ask for a new export in the settings; if it fails again, write to us.',
    ],
    links: [{ label: 'Your exports in the settings', url: `${base}${input.settingsPath}` }],
  });
}

/**
 * A webhook endpoint was switched off after its deliveries failed for days (issue 21 item 2): to
 * each OWNER of its organization. Deliveries wait until someone switches it on again.
 */
export function webhookDisabledMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  input: { organization: string; url: string; since: string; settingsPath: string },
) {
  const base = ctx.publicUrl.replace(/\/+$/, '');
  return layout(ctx, to, `A webhook of ${input.organization} was switched off`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [
      `Every delivery to the webhook endpoint ${input.url} of ${input.organization} has failed since ${input.since}, so ${ctx.brand} switched it off.`,
      'Its events wait. Fix the receiver, then switch the endpoint on again in the settings: the waiting events go out, and the delivery log shows what the receiver answered.',
    ],
    links: [{ label: 'Webhooks in the settings', url: `${base}${input.settingsPath}` }],
  });
}

/** The balance fell below a low-balance threshold (issue 22 item 3). */
export function lowBalanceMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  input: { organization: string; balance: string; threshold: string; walletPath: string },
) {
  const base = ctx.publicUrl.replace(/\/+$/, '');
  return layout(ctx, to, `The balance of ${input.organization} is low`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [
      `The balance of ${input.organization} is ${input.balance}, below your alert threshold of ${input.threshold}.`,
      'Add funds before it runs out: charges that find too little on the balance are refused, and the modules that make them stop working.',
    ],
    links: [{ label: 'Add funds', url: `${base}${input.walletPath}` }],
    footer:
      'You get this e-mail as an owner or admin of the organization. The thresholds are in the wallet settings.',
  });
}

/** An invoice was refunded and its credit note issued (issue 22 item 7). */
export function creditNoteMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  input: {
    organization: string;
    invoiceNumber: string;
    creditNoteNumber: string;
    /** What went back to the card, formatted ("$29.00"). */
    amount: string;
    reason: string;
    /** The credit a fund package's refund took back from the balance, formatted; null for none. */
    creditTakenBack: string | null;
    historyPath: string;
  },
) {
  const base = ctx.publicUrl.replace(/\/+$/, '');
  return layout(
    ctx,
    to,
    `Credit note ${input.creditNoteNumber}: ${input.invoiceNumber} of ${input.organization} refunded`,
    {
      greeting: `Hello ${firstName || 'there'},`,
      lines: [
        `${input.amount} of invoice ${input.invoiceNumber} went back to the card it was paid with. Reason: ${input.reason}`,
        ...(input.creditTakenBack
          ? [
              `The refund covers funds bought for the balance, so their credit of ${input.creditTakenBack} was taken back from it.`,
            ]
          : []),
        `Credit note ${input.creditNoteNumber} records it. Its PDF is in the billing history, beside the invoice; the card statement shows the money back within a few days.`,
      ],
      links: [{ label: 'Open the billing history', url: `${base}${input.historyPath}` }],
      footer: 'You get this e-mail as an owner or admin of the organization.',
    },
  );
}

/** What the auto top-up mails say of the top-up that was declined (issue 22 item 1). */
export interface DeclinedTopUp {
  organization: string;
  /** What the card was to be charged, formatted ("$50.00"). */
  amount: string;
  /** Why it was declined, as the gateway's failure reads to a buyer. */
  reason: string;
  walletPath: string;
  cardsPath: string;
}

/** An automatic top-up was declined; auto top-up stays on and tries at the next crossing. */
export function autoTopUpFailedMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  input: DeclinedTopUp & { threshold: string },
) {
  const base = ctx.publicUrl.replace(/\/+$/, '');
  return layout(ctx, to, `An automatic top-up of ${input.organization} was declined`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [
      `The automatic top-up of ${input.amount} for ${input.organization} could not be paid: ${input.reason}`,
      `Nothing was charged. Auto top-up stays on and tries again the next time the balance falls below ${input.threshold}.`,
      'Check the default card, or choose another one, so the next top-up goes through; or add funds now.',
    ],
    links: [
      { label: 'Cards', url: `${base}${input.cardsPath}` },
      { label: 'Add funds', url: `${base}${input.walletPath}` },
    ],
    footer: 'You get this e-mail as an owner or admin of the organization.',
  });
}

/** The last of AUTO_TOP_UP_MAX_FAILURES automatic top-ups in a row was declined: it is off. */
export function autoTopUpDisabledMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  input: DeclinedTopUp & { failures: number },
) {
  const base = ctx.publicUrl.replace(/\/+$/, '');
  return layout(ctx, to, `Auto top-up of ${input.organization} was switched off`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [
      `The automatic top-up of ${input.amount} for ${input.organization} could not be paid: ${input.reason}`,
      `That is ${input.failures} declined top-ups in a row, so ${ctx.brand} switched auto top-up off. Nothing was charged, and the balance is no longer topped up by itself.`,
      'Choose a default card that can be charged, then switch auto top-up on again in the wallet; or add funds now.',
    ],
    links: [
      { label: 'Cards', url: `${base}${input.cardsPath}` },
      { label: 'Auto top-up in the wallet', url: `${base}${input.walletPath}` },
    ],
    footer: 'You get this e-mail as an owner or admin of the organization.',
  });
}

/**
 * A renewal's payment failed (issue 22 item 5, dunning): to each OWNER and ADMIN, once per
 * attempt, with the gateway's reason, which attempt it was and when the next one comes.
 */
export function renewalFailedMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  input: {
    organization: string;
    plan: string;
    reason: string;
    attempt: number;
    attempts: number;
    /** When the next attempt comes, as written in the mail. */
    nextAttempt: string;
    cardsPath: string;
  },
) {
  const base = ctx.publicUrl.replace(/\/+$/, '');
  return layout(ctx, to, `The ${input.plan} plan of ${input.organization} could not be renewed`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [
      `We could not charge the card of ${input.organization} for the renewal of its ${input.plan} plan (attempt ${input.attempt} of ${input.attempts}).`,
      `The payment failed: ${input.reason}`,
      `We will try again on ${input.nextAttempt}. Update the card before then; meanwhile the organization keeps working.`,
    ],
    links: [{ label: 'Update the card', url: `${base}${input.cardsPath}` }],
    footer: 'You get this e-mail as an owner or admin of the organization.',
  });
}

/** The last renewal attempt failed and the subscription expired (issue 22 item 5). */
export function subscriptionExpiredMail(
  ctx: MailContext,
  to: string,
  firstName: string,
  input: {
    organization: string;
    plan: string;
    reason: string;
    attempts: number;
    subscriptionPath: string;
    cardsPath: string;
  },
) {
  const base = ctx.publicUrl.replace(/\/+$/, '');
  return layout(ctx, to, `The ${input.plan} plan of ${input.organization} has expired`, {
    greeting: `Hello ${firstName || 'there'},`,
    lines: [
      `The renewal of the ${input.plan} plan of ${input.organization} failed ${input.attempts} times, so the subscription has expired.`,
      `The last payment failed: ${input.reason}`,
      'Update the card, then choose a plan again to go on working.',
    ],
    links: [
      { label: 'Update the card', url: `${base}${input.cardsPath}` },
      { label: 'Choose a plan', url: `${base}${input.subscriptionPath}` },
    ],
    footer: 'You get this e-mail as an owner or admin of the organization.',
  });
}
