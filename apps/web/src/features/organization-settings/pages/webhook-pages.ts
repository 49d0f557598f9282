// The webhooks list and an endpoint's page, loaded as one chunk: they share most of their code
// (the status, the event picker, the secret dialog, the API calls), which would otherwise go to
// the `shared` chunk every page preloads, bringing the settings chunk's lib/dates.ts with it.
export { WebhookPage } from './WebhookPage';
export { WebhooksPage } from './WebhooksPage';
