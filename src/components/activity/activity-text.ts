import type { ActivityAction, ActivityEvent } from '../../api/contract/activity';

/** What was done, as a person would say it (the subject is shown apart). */
export const actionVerbs: Record<ActivityAction, string> = {
  'vm.created': 'Create VM',
  'vm.status': 'Status',
  'vm.start': 'Start',
  'vm.stop': 'Stop',
  'vm.reset': 'Reset',
  'vm.upgrade': 'Upgrade',
  'vm.reinstall': 'Reinstall',
  'vm.snapshot': 'Take snapshot',
  'vm.restore': 'Restore snapshot',
  'vm.snapshotDelete': 'Delete snapshot',
  'vm.edit': 'Edit VM',
  'vm.delete': 'Delete VM',
  'interface.add': 'Add interface',
  'interface.remove': 'Remove interface',
  'ip.allocate': 'Allocate public IP',
  'ip.release': 'Release public IP',
  'network.create': 'Create network',
  'network.edit': 'Edit network',
  'network.delete': 'Delete network',
  'user.invite': 'Invite user',
  'user.activate': 'Activate account',
  'user.delete': 'Delete user',
  'user.role': 'Change role',
  'team.create': 'Create team',
  'team.rename': 'Rename team',
  'team.delete': 'Delete team',
  'team.member.add': 'Add member',
  'team.member.remove': 'Remove member',
  'team.member.role': 'Change member role',
  'session.new-address': 'Sign-in from a new address',
  'authenticator.enable': 'Turn on authenticator app',
  'authenticator.disable': 'Turn off authenticator app',
  'apiToken.create': 'Create API token',
  'apiToken.revoke': 'Revoke API token',
  'apiToken.new-address': 'API token used from a new address',
  'webhook.create': 'Create webhook',
  'webhook.delete': 'Delete webhook',
  'webhook.disable': 'Webhook disabled after failing for a day',
  'company.create': 'Create company',
  'company.limits': 'Change company limits',
  'company.second-factor-policy': 'Require an authenticator app or a passkey',
  'company.suspend': 'Suspend company',
  'company.resume': 'Resume company',
};

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** The event in a line: its action and what the details add ('Status: Running → Stopped'). */
export function describeEvent(event: ActivityEvent): string {
  const { detail } = event;
  const verb = actionVerbs[event.action];
  const change = detail.from !== undefined && detail.to !== undefined;
  const parts: string[] = [];
  if (change) {
    parts.push(`${text(detail.from)} → ${text(detail.to)}`);
  }
  if (detail.userName) parts.push(text(detail.userName));
  if (detail.role) parts.push(text(detail.role));
  if (detail.network) parts.push(`network ${text(detail.network)}`);
  if (detail.snapshot) parts.push(text(detail.snapshot));
  if (detail.address) parts.push(text(detail.address));
  if ('toTeamId' in detail) parts.push('moved to another team');
  return parts.length > 0 ? `${verb}: ${parts.join(', ')}` : verb;
}

export const outcomeLabels = {
  requested: 'Requested',
  succeeded: 'Succeeded',
  failed: 'Failed',
  observed: 'Observed',
} as const;
