import { vmDetailsResponse, vmRules } from '../../src/api/contract/vms';
import { CliError, exitCodes } from './errors';
import type { Api } from './http';
import type { Poll } from './wait';

/**
 * A VM's details as the end of its operation: at rest, with no message when it succeeded, with
 * the reason when it failed (a failed action puts the VM back as it was, with a message; a failed
 * create or delete leaves it in Error). A deleted VM is not found, as it is while being deleted,
 * so only the event stream tells that a delete succeeded.
 */
export const pollVm =
  (api: Api): Poll =>
  async (subject) => {
    let details;
    try {
      ({ data: details } = await api.call(
        'GET',
        `virtualMachines/details/${subject.id}`,
        vmDetailsResponse,
      ));
    } catch (error) {
      if (error instanceof CliError && error.code === exitCodes.notFound) return undefined;
      throw error;
    }
    if (vmRules.isTransitional(details.status)) return undefined;
    const failed = details.status === 'Error' || details.statusMessage !== null;
    return { subject, ok: !failed, reason: failed ? details.statusMessage : null };
  };
