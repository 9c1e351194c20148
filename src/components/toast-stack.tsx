import { Notifications } from '@mantine/notifications';
import classes from './toasts.module.css';

/**
 * Mantine's toast outlet: bottom-right, newest on top, 5 s by default, no progress bar; hovering
 * pauses. Loaded with the first toast (see Toasts), not with the first page. Bottom-left covered
 * the sidebar's user card (its menu, Logout); bottom-right covers only the end of the content,
 * and on a phone the stack spans the width at the bottom, under nothing but the page.
 */
export function ToastStack() {
  return (
    <Notifications
      position="bottom-right"
      autoClose={5000}
      withAutoCloseProgress={false}
      classNames={{ root: classes.root, notification: classes.notification }}
    />
  );
}
