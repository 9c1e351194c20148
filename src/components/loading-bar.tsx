import { Box } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import { inFlight } from '../api/in-flight';
import classes from './loading-bar.module.css';

/** A thin indeterminate bar across the top of the viewport while any API request is in flight. */
export function LoadingBar() {
  const loading = useSyncExternalStore(inFlight.subscribe, inFlight.isLoading, inFlight.isLoading);
  if (!loading) return null;
  return (
    <Box className={classes.track} role="progressbar" aria-label="Loading">
      <div className={classes.bar} />
    </Box>
  );
}
