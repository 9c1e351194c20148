import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { ActivityEvent } from '../api/contract/activity';
import type { VmDetails, VmStatus } from '../api/contract/vms';
import { activityKeys } from '../queries/activity';
import { apiTokenKeys } from '../queries/api-tokens';
import { dashboardKeys } from '../queries/dashboard';
import { networkKeys } from '../queries/networks';
import { permissionKeys } from '../queries/permissions';
import { teamKeys } from '../queries/teams';
import { userKeys } from '../queries/users';
import { vmKeys } from '../queries/vms';
import { webhookKeys } from '../queries/webhooks';

/** What an event changes on screen, besides the histories: the keys whose data it makes stale. */
function staleKeys(event: ActivityEvent): QueryKey[] {
  const { subject, action } = event;
  switch (subject.type) {
    case 'vm': {
      const keys: QueryKey[] = [vmKeys.lists(), teamKeys.all];
      // A status is written in place (below); everything else about the VM is read again.
      if (action !== 'vm.status') keys.push(vmKeys.detail(subject.id));
      if (action.startsWith('interface.') || action.startsWith('ip.')) {
        keys.push(
          networkKeys.adaptersOf(subject.id),
          networkKeys.available(),
          networkKeys.details(),
        );
      }
      // The Dashboard's figures count statuses and public IPs: every VM event may move them.
      if (['vm.created', 'vm.upgrade', 'vm.delete'].includes(action)) keys.push(dashboardKeys.all);
      else keys.push(dashboardKeys.summary());
      return keys;
    }
    case 'network':
      return [networkKeys.all, dashboardKeys.summary()];
    case 'team':
      // Membership decides which VMs a member sees (and counts), and shows in the users' pages.
      return [
        teamKeys.all,
        userKeys.all,
        permissionKeys.all,
        vmKeys.lists(),
        dashboardKeys.summary(),
      ];
    case 'user':
      // A deleted user's tokens go with them.
      return [userKeys.all, teamKeys.all, permissionKeys.all, apiTokenKeys.lists()];
    case 'apiToken':
      return [apiTokenKeys.lists()];
    case 'webhook':
      // Made, deleted (another tab, a script) or disabled by the delivery worker.
      return [webhookKeys.lists()];
    case 'session':
      return [];
    case 'company':
      // Suspended, its users are signed out; resumed, they sign in again to fresh data.
      return [];
  }
}

/**
 * One event into the query cache: a VM's new status straight into its details, and every list or
 * page it touches marked stale (those on screen are fetched again at once).
 */
export function applyEvent(queryClient: QueryClient, event: ActivityEvent) {
  if (event.action === 'vm.status' && typeof event.detail.to === 'string') {
    const status = event.detail.to as VmStatus;
    queryClient.setQueryData<VmDetails>(vmKeys.detail(event.subject.id), (vm) =>
      vm ? { ...vm, status } : vm,
    );
  }
  for (const queryKey of [activityKeys.all, ...staleKeys(event)]) {
    void queryClient.invalidateQueries({ queryKey });
  }
}
