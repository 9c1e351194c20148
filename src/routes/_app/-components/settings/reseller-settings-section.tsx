import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { resellerSettingsMessages } from '../../../../api/contract/reseller-settings';
import { errorMessage } from '../../../../components/error-text';
import { resellerSettingsQueries } from '../../../../queries/reseller-settings';
import { AdminsOnlyNotice } from './admins-only-notice';
import { ResellerSettingsForm } from './reseller-settings-form';

/** Settings' Reseller tab (the reseller's staff): its brand, support, order forms and domains. */
export function ResellerSettingsSection({ isAdmin }: { isAdmin: boolean }) {
  const settings = useQuery(resellerSettingsQueries.detail());
  if (settings.data) {
    return (
      <Stack gap="md">
        {!isAdmin && <AdminsOnlyNotice>{resellerSettingsMessages.adminsOnly}</AdminsOnlyNotice>}
        <ResellerSettingsForm settings={settings.data} canEdit={isAdmin} />
      </Stack>
    );
  }
  if (settings.error) {
    return (
      <Alert
        color="red"
        variant="light"
        title="Error fetching settings"
        icon={<IconAlertCircle aria-hidden />}
        maw={760}
      >
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(settings.error)}</Text>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} aria-hidden />}
            loading={settings.isFetching}
            onClick={() => void settings.refetch()}
          >
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  return (
    <Center py="xl">
      <Loader size="sm" aria-label="Loading settings" />
    </Center>
  );
}
