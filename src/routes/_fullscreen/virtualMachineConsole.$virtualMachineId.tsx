import { createFileRoute } from '@tanstack/react-router';
import { idParams } from '../-components/id-param';
import { VmConsoleScreen } from './-components/vm-console-screen';

/** The VM console, alone in its tab (opened from the VM details' Console action). */
export const Route = createFileRoute('/_fullscreen/virtualMachineConsole/$virtualMachineId')({
  params: idParams('virtualMachineId'),
  component: VmConsolePage,
});

function VmConsolePage() {
  const { virtualMachineId } = Route.useParams();
  return <VmConsoleScreen id={virtualMachineId} />;
}
