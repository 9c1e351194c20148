import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { networkMessages, type NetworkAdapter } from '../../../../../api/contract/networks';
import { withLead } from '../../../../../components/error-text';
import { notify } from '../../../../../components/notify';
import { networkQueries } from '../../../../../queries/networks';
import type { PublicIpProgress } from './interface-columns';

/** Spec section 8: the toasts of the interface editor. */
export const interfaceToasts = {
  add: { done: networkMessages.interfaceAdded, failed: 'Failed to add network interface' },
  remove: { done: networkMessages.interfaceRemoved, failed: 'Failed to remove network interface' },
  allocate: { done: networkMessages.ipAllocated, failed: 'Failed to allocate IP' },
  release: { done: networkMessages.ipReleased, failed: 'Failed to deallocate IP' },
} as const;

export type OperationKind = keyof typeof interfaceToasts;

/** An accepted request whose outcome the provider has yet to report on the interface. */
export interface Operation {
  kind: OperationKind;
  interfaceId: number;
  /**
   * The interface's message when the request was made. The server clears it when it accepts a
   * public IP change, so a message that differs from it, or any message once the list has shown
   * it cleared, tells of a failure; a list fetched before the request still shows the old one.
   */
  message: string | null;
}

type Outcome = { settled: false } | { settled: true; failure?: string | null };

const waiting: Outcome = { settled: false };
const done: Outcome = { settled: true };
const failed = (reason: string | null): Outcome => ({ settled: true, failure: reason });

/**
 * Where an operation stands, read from the interfaces as the server lists them now. An interface
 * is Attaching or Detaching while the provider works on it and shows a public IP once the provider
 * has NATed it, until its release is done; a failure leaves a new message on the interface (or an
 * Error status).
 */
export function outcomeOf(
  operation: Operation,
  adapters: readonly NetworkAdapter[],
  /** The list has shown the interface's message cleared since the request. */
  cleared = false,
): Outcome {
  const adapter = adapters.find((a) => a.id === operation.interfaceId);
  if (adapter?.status === 'Error') return failed(adapter.statusMessage);
  const newMessage =
    adapter?.statusMessage && (cleared || adapter.statusMessage !== operation.message)
      ? adapter.statusMessage
      : null;
  switch (operation.kind) {
    case 'add':
      // Listed from the moment the request is accepted; gone means the provider gave up on it.
      if (!adapter) return failed(null);
      return adapter.status === 'Active' ? done : waiting;
    case 'remove':
      if (!adapter) return done;
      // Back to Active: the provider could not unplug it.
      return adapter.status === 'Detaching' ? waiting : failed(adapter.statusMessage);
    case 'allocate':
      if (!adapter) return failed(null);
      if (adapter.publicIp) return done;
      return newMessage ? failed(newMessage) : waiting;
    case 'release':
      if (!adapter?.publicIp) return done;
      return newMessage ? failed(newMessage) : waiting;
  }
}

/**
 * The editor's operations under way. Adding an interface and changing a public IP are carried out
 * by the provider after the request is accepted; the VM's interfaces are polled meanwhile, and each
 * operation gets its toast once its interface shows how it ended.
 */
export function useInterfaceOperations(vmId: number, onSettled?: (operation: Operation) => void) {
  const [operations, setOperations] = useState<Operation[]>([]);
  const query = useQuery(networkQueries.adapters(vmId, operations.length > 0));
  const adapters = query.data;
  // An effect may run again before the settled operations have left the state: one toast each.
  const reported = useRef(new WeakSet<Operation>());
  const cleared = useRef(new WeakSet<Operation>());

  useEffect(() => {
    if (!adapters || operations.length === 0) return;
    const settled = operations.filter((operation) => {
      if (reported.current.has(operation)) return true;
      const adapter = adapters.find((a) => a.id === operation.interfaceId);
      if (adapter && adapter.statusMessage === null) cleared.current.add(operation);
      const outcome = outcomeOf(operation, adapters, cleared.current.has(operation));
      if (!outcome.settled) return false;
      reported.current.add(operation);
      const toasts = interfaceToasts[operation.kind];
      if (outcome.failure === undefined) notify(toasts.done);
      else notify(withLead(toasts.failed, outcome.failure), { type: 'error' });
      onSettled?.(operation);
      return true;
    });
    if (settled.length > 0) setOperations((all) => all.filter((o) => !settled.includes(o)));
  }, [adapters, operations, onSettled]);

  const progress = new Map<number, PublicIpProgress>();
  for (const operation of operations) {
    if (operation.kind === 'allocate') progress.set(operation.interfaceId, 'allocating');
    if (operation.kind === 'release') progress.set(operation.interfaceId, 'releasing');
  }

  return {
    /** The VM's interfaces (polled while something is under way). */
    adapters: query,
    operations,
    /** Public IPs being allocated or released, by interface. */
    progress,
    isPending: (interfaceId: number) => operations.some((o) => o.interfaceId === interfaceId),
    track: (operation: Operation) => setOperations((all) => [...all, operation]),
  };
}
