import { createFileRoute, Outlet } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { idParams } from '../../-components/id-param';
import { useGoBack } from '../../../components/use-go-back';

/** One VM: its details and its edit page. An id that is not a number goes back. */
export const Route = createFileRoute('/_app/virtualMachineDetails/$virtualMachineId')({
  params: idParams('virtualMachineId'),
  component: VmLayout,
});

function VmLayout() {
  const { virtualMachineId } = Route.useParams();
  return virtualMachineId ? <Outlet /> : <GoBack />;
}

function GoBack() {
  const goBack = useGoBack('/virtualMachines');
  // Once, even when development mode runs effects twice.
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    goBack();
  }, [goBack]);
  return null;
}
