/*
 * Mantine's styles for what the first download draws: the sign-in screens, the error screen and
 * the toasts. The signed-in screens bring the whole stylesheet (./signed-in.ts). Both in Mantine's
 * `mantine` cascade layer, so that the whole sheet arriving later overrides none of our own rules.
 * Dependencies before the components that use them, as Mantine's documentation orders them.
 */
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Title.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Image.layer.css';
import '@mantine/core/styles/Code.layer.css';
import '@mantine/core/styles/Container.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import '@mantine/core/styles/List.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/CheckboxIndicator.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/PinInput.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
