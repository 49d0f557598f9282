import { EVENT_TYPE_CATALOGUE, SUBSCRIBABLE_EVENT_TYPES, type EventType } from '@portolan/contract';

/** `member` of `member.added`. */
type PrefixOf<T> = T extends `${infer P}.${string}` ? P : never;
/** The kinds of events an endpoint may subscribe to (the test event goes only where asked). */
type EventGroupId = Exclude<PrefixOf<EventType>, 'webhook'>;

/**
 * Each kind's title in the event picker. Typed against the catalogue, so a new kind of event
 * cannot go without a group.
 */
const GROUP_TITLES: Record<EventGroupId, string> = {
  member: 'Members',
  invitation: 'Invitations',
  workspace: 'Workspaces',
  module: 'Modules',
  subscription: 'Subscription',
  balance: 'Balance',
  invoice: 'Invoices',
  api_key: 'API keys',
};

const DESCRIPTIONS: ReadonlyMap<string, string> = new Map(
  EVENT_TYPE_CATALOGUE.map((e) => [e.type, e.description]),
);

/** What an event means, from the catalogue; empty for one this web app does not know yet. */
export const eventDescription = (type: string) => DESCRIPTIONS.get(type) ?? '';

const prefixOf = (type: string) => type.slice(0, type.indexOf('.'));

interface EventGroup {
  id: EventGroupId;
  title: string;
  types: readonly string[];
}

/** The events an endpoint may subscribe to, by kind, in the catalogue's order. */
export const EVENT_GROUPS: readonly EventGroup[] = (
  Object.keys(GROUP_TITLES) as EventGroupId[]
).map((id) => ({
  id,
  title: GROUP_TITLES[id],
  types: SUBSCRIBABLE_EVENT_TYPES.filter((type) => prefixOf(type) === id),
}));
