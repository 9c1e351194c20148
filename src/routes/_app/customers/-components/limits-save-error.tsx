import { Alert, List } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage, fieldErrorMessages } from '../../../../components/error-text';
import { customerErrorLeads } from './customer-texts';

/** A failed save, above the buttons: the rows say what is wrong when the server named them. */
export function LimitsSaveError({ error, allPlaced }: { error: Error | null; allPlaced: boolean }) {
  if (!error) return null;
  const details = allPlaced ? [] : fieldErrorMessages(error);
  return (
    <Alert
      color="red"
      variant="light"
      title={customerErrorLeads.saveLimits}
      icon={<IconAlertCircle aria-hidden />}
    >
      {allPlaced ? 'Correct the limits marked above, then save again.' : errorMessage(error)}
      {details.length > 0 && (
        <List size="sm" mt={4}>
          {details.map((message) => (
            <List.Item key={message}>{message}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
