import { Alert, Center, Loader } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage, vmErrorLeads } from '../../../../components/error-text';
import { PageHeader } from '../../../../components/page-header';

/** A VM page before its details are there: the loader, or why they could not be fetched. */
export function VmPlaceholder({
  title,
  onBack,
  error,
}: {
  title: string;
  onBack: () => void;
  error: Error | null;
}) {
  return (
    <>
      <PageHeader title={title} onBack={onBack} />
      {error ? (
        <Alert
          color="red"
          variant="light"
          title={vmErrorLeads.fetchVm}
          icon={<IconAlertCircle aria-hidden />}
        >
          {errorMessage(error)}
        </Alert>
      ) : (
        <Center py="xl">
          <Loader size="sm" aria-label="Loading virtual machine" />
        </Center>
      )}
    </>
  );
}
