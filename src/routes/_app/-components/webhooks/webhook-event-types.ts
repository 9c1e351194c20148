import type { ComboboxItem, ComboboxParsedItem, OptionsFilter } from '@mantine/core';
import { activityActions, type ActivityAction } from '../../../../api/contract/activity';
import { ALL_EVENTS } from '../../../../api/contract/webhooks';
import { actionVerbs } from '../../../../components/activity/activity-text';

export const ALL_EVENTS_LABEL = 'All events';

const groups = [
  'Virtual machines',
  'Networks',
  'People',
  'API tokens',
  'Webhooks',
  'Company',
] as const;
type EventGroup = (typeof groups)[number];

function groupOf(action: ActivityAction): EventGroup {
  const [prefix] = action.split('.');
  if (prefix === 'vm' || prefix === 'interface' || prefix === 'ip') return 'Virtual machines';
  if (prefix === 'network') return 'Networks';
  if (prefix === 'apiToken') return 'API tokens';
  if (prefix === 'webhook') return 'Webhooks';
  // Its creation, limits and suspension: what its reseller does to it.
  if (prefix === 'company') return 'Company';
  return 'People';
}

/** The choices of the event types field: every event first, then the actions by resource. */
export const eventTypeOptions = [
  { value: ALL_EVENTS, label: ALL_EVENTS_LABEL },
  ...groups.map((group) => ({
    group,
    items: activityActions
      .filter((action) => groupOf(action) === group)
      .map((action) => ({ value: action, label: action })),
  })),
];

/** What an event type means, as the Activity tab words it. */
export const eventTypeDescription = (value: string): string =>
  value === ALL_EVENTS
    ? 'Every event type, including those added later'
    : (actionVerbs[value as ActivityAction] ?? '');

const matches = (item: ComboboxItem, needle: string) =>
  `${item.label} ${eventTypeDescription(item.value)}`.toLowerCase().includes(needle);

/** A search finds an event type by its name (`vm.delete`) or by what it means ('Delete VM'). */
export const filterEventTypes: OptionsFilter = ({ options, search }) => {
  const needle = search.trim().toLowerCase();
  if (!needle) return options;
  return options.flatMap((option): ComboboxParsedItem[] => {
    if (!('group' in option)) return matches(option, needle) ? [option] : [];
    const items = option.items.filter((item) => matches(item, needle));
    return items.length ? [{ ...option, items }] : [];
  });
};

/**
 * `*` comes alone (the contract refuses it beside others): choosing it replaces the types chosen,
 * and choosing a type replaces it.
 */
export function nextEventTypes(previous: readonly string[], next: string[]): string[] {
  if (next.includes(ALL_EVENTS) && !previous.includes(ALL_EVENTS)) return [ALL_EVENTS];
  return next.length > 1 ? next.filter((value) => value !== ALL_EVENTS) : next;
}

/** A webhook's event types in a line. */
export const eventTypesLabel = (events: readonly string[]) =>
  events.includes(ALL_EVENTS) ? ALL_EVENTS_LABEL : events.join(', ');
