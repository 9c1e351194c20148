import { ActionIcon, Button, Group, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPlus, IconTrash, IconWorld, IconWorldOff } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import {
  MAX_INTERFACES,
  networkMessages,
  PRIMARY_VMNIC,
  type NetworkAdapter,
} from '../../../../../api/contract/networks';
import type { VmDetails } from '../../../../../api/contract/vms';
import { DataTable } from '../../../../../components/data-table/data-table';
import { createAppColumnHelper } from '../../../../../components/data-table/table-hook';
import { networkErrorLeads } from '../../../../../components/error-text';
import { StopVmDialog } from '../stop-vm-button';
import { AddInterfaceDialog } from './add-interface-dialog';
import { interfaceColumns } from './interface-columns';
import { InterfaceConfirmation, type InterfaceAction } from './interface-confirmations';
import { useInterfaceOperations, type Operation } from './interface-operations';

const column = createAppColumnHelper<NetworkAdapter>();

interface VmInterfaceEditorProps {
  id: number;
  details: VmDetails;
  /** The edit page reloads the VM 1.5 s after a stop. */
  onStopped: () => void;
}

/**
 * The VM edit page's interfaces: public IPs allocated and released on standard networks (while
 * the VM runs, too), interfaces added and removed while it is stopped — a running VM is offered
 * a stop first. At most 5 interfaces; the primary (vmnic 1) stays.
 */
export function VmInterfaceEditor({ id, details, onStopped }: VmInterfaceEditorProps) {
  const vmName = details.virtualMachine.name;
  const [add, setAdd] = useState<{ opened: boolean; waitingFor: number | null }>({
    opened: false,
    waitingFor: null,
  });
  const [confirming, setConfirming] = useState<{
    adapter: NetworkAdapter;
    action: InterfaceAction;
  } | null>(null);
  const [confirmOpened, setConfirmOpened] = useState(false);
  const [stopOpened, setStopOpened] = useState(false);

  // The add dialog closes by itself once the interface it waits for is attached (or has failed).
  const onSettled = useCallback(
    (operation: Operation) =>
      setAdd((state) =>
        operation.kind === 'add' && state.waitingFor === operation.interfaceId
          ? { opened: false, waitingFor: null }
          : state,
      ),
    [],
  );
  const operations = useInterfaceOperations(id, onSettled);
  const { adapters } = operations;

  const count = adapters.data?.length ?? 0;
  const atMax = count >= MAX_INTERFACES;
  const { status } = details;
  const stopped = status === 'Stopped' || status === 'Shutoff';
  // Adding and removing need a stopped VM: a running one is offered the stop first.
  const changeInterfaces = (go: () => void) => (stopped ? go() : setStopOpened(true));
  const canChange = stopped || status === 'Running';

  const confirm = (adapter: NetworkAdapter, action: InterfaceAction) => {
    setConfirming({ adapter, action });
    setConfirmOpened(true);
  };

  const columns = [
    ...interfaceColumns(operations.progress),
    column.display({
      id: 'actions',
      header: () => <VisuallyHidden>Actions</VisuallyHidden>,
      meta: { align: 'right', card: 'action' },
      cell: ({ row }) => (
        <InterfaceActions
          adapter={row.original}
          busy={row.original.status !== 'Active' || operations.isPending(row.original.id)}
          removable={canChange}
          onAction={(action) =>
            action === 'remove'
              ? changeInterfaces(() => confirm(row.original, 'remove'))
              : confirm(row.original, action)
          }
        />
      ),
    }),
  ];

  return (
    <>
      <DataTable
        title="Network Interfaces"
        description={
          atMax
            ? networkMessages.maxInterfaces
            : stopped
              ? `Up to ${MAX_INTERFACES} interfaces; vmnic ${PRIMARY_VMNIC} is the primary and stays.`
              : 'Interfaces are added and removed while the VM is stopped; public IPs at any time.'
        }
        columns={columns}
        data={adapters.data}
        getRowId={(row) => String(row.id)}
        emptyMessage="No network interfaces have been found"
        isPending={adapters.isPending}
        isFetching={adapters.isFetching}
        error={adapters.data ? null : adapters.error}
        errorTitle={networkErrorLeads.fetchNetAdapters}
        onRefresh={() => void adapters.refetch()}
        toolbar={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            disabled={!adapters.data || atMax || !canChange}
            onClick={() => changeInterfaces(() => setAdd({ opened: true, waitingFor: null }))}
          >
            Add Interface
          </Button>
        }
      />
      <AddInterfaceDialog
        vmId={id}
        vmName={vmName}
        opened={add.opened}
        waitingFor={add.waitingFor}
        onAccepted={(interfaceId) => {
          operations.track({ kind: 'add', interfaceId, message: null });
          setAdd({ opened: true, waitingFor: interfaceId });
        }}
        onClose={() => setAdd({ opened: false, waitingFor: null })}
      />
      <InterfaceConfirmation
        vmId={id}
        target={confirming}
        opened={confirmOpened}
        onAccepted={operations.track}
        onClose={() => setConfirmOpened(false)}
      />
      <StopVmDialog
        id={id}
        name={vmName}
        opened={stopOpened}
        reason={networkMessages.stopFirst}
        onClose={() => setStopOpened(false)}
        onStopped={onStopped}
      />
    </>
  );
}

interface InterfaceActionsProps {
  adapter: NetworkAdapter;
  /** Being attached, detached, or changed by an operation of this page. */
  busy: boolean;
  removable: boolean;
  onAction: (action: InterfaceAction) => void;
}

function InterfaceActions({ adapter, busy, removable, onAction }: InterfaceActionsProps) {
  const label = `vmnic ${adapter.vmnic}`;
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {adapter.snatEnabled &&
        (adapter.publicIp ? (
          <Tooltip label="Release Public IP">
            <ActionIcon
              variant="subtle"
              color="orange"
              disabled={busy}
              aria-label={`Release Public IP of ${label}`}
              onClick={() => onAction('release')}
            >
              <IconWorldOff size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        ) : (
          <Tooltip label="Allocate Public IP">
            <ActionIcon
              variant="subtle"
              disabled={busy}
              aria-label={`Allocate Public IP to ${label}`}
              onClick={() => onAction('allocate')}
            >
              <IconWorld size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        ))}
      {adapter.vmnic !== PRIMARY_VMNIC && (
        <Tooltip label="Remove interface">
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove ${label}`}
            // An interface in Error may be removed to clean it up.
            disabled={!removable || (busy && adapter.status !== 'Error')}
            onClick={() => onAction('remove')}
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
