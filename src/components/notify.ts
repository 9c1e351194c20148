import { notifications } from '@mantine/notifications';

export type NotifyType = 'success' | 'error' | 'info' | 'warning';

const colors: Record<NotifyType, string> = {
  success: 'green',
  error: 'red',
  info: 'blue',
  warning: 'yellow',
};

/** The application's toast helper: success for 3 seconds unless told otherwise; a click closes it. */
export function notify(message: string, options: { type?: NotifyType; duration?: number } = {}) {
  const { type = 'success', duration = 3000 } = options;
  const id = notifications.show({
    message,
    color: colors[type],
    autoClose: duration,
    withCloseButton: true,
    style: { cursor: 'pointer' },
    onClick: () => notifications.hide(id),
  });
  return id;
}
