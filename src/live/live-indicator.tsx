import { Badge, Tooltip } from '@mantine/core';
import { useStreamState } from './stream-state';

export const LIVE_PAUSED = 'Live updates paused';

/** Says so while the live stream is down (the screens poll meanwhile); nothing while it is up. */
export function LiveIndicator() {
  const state = useStreamState();
  if (state !== 'down') return null;
  return (
    <Tooltip label="Reconnecting. Until then, what is changing is refreshed every few seconds.">
      <Badge
        role="status"
        color="yellow"
        variant="light"
        radius="sm"
        tt="none"
        pos="fixed"
        top={12}
        right={16}
        style={{ zIndex: 300 }}
      >
        {LIVE_PAUSED}
      </Badge>
    </Tooltip>
  );
}
