/* Mantine's whole stylesheet, for the signed-in screens (see ./first-screens.ts). */
import '@mantine/core/styles.layer.css';
