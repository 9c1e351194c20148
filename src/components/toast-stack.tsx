import { Notifications } from '@mantine/notifications';
import classes from './toasts.module.css';

/**
 * Mantine's toast outlet: bottom-left, newest on top, 5 s by default, no progress bar; hovering
 * pauses. Loaded with the first toast (see Toasts), not with the first page.
 */
export function ToastStack() {
  return (
    <Notifications
      position="bottom-left"
      autoClose={5000}
      withAutoCloseProgress={false}
      classNames={{ root: classes.root, notification: classes.notification }}
    />
  );
}
