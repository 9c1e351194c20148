import { ProviderRejection, type SnapshotState } from '../driver';
import type { Cloud } from './clouds';
import { ignoreMissing, unlessMissing } from './http';
import { rebuildFromImage } from './rebuild';

/**
 * A server's snapshots as Nova makes them: `createImage`, an image in Glance (its size Glance's
 * once uploaded), restored by Nova's rebuild from that image (`rebuild.ts`, shared with the
 * reinstall: the server keeps its id, ports, addresses and user data), deleted from Glance. An
 * image outlives its server: the product deletes a VM's snapshots with it.
 */

/** The property Nova gives the image, so that a repeated create finds the one it made. */
const TOKEN_PROPERTY = 'launchpad_snapshot_token';

/** Glance's image statuses, in the driver's words. */
function statusOf(glance: string): SnapshotState['status'] | null {
  switch (glance) {
    case 'queued':
    case 'saving':
    case 'uploading':
    case 'importing':
      return 'creating';
    case 'active':
      return 'available';
    case 'pending_delete':
      return 'deleting';
    case 'deleted':
      return null;
    default:
      // killed, deactivated
      return 'error';
  }
}

export async function createSnapshot(
  cloud: Cloud,
  serverId: string,
  name: string,
  clientToken: string,
): Promise<string> {
  const [made] = await cloud.image.imagesWithProperty(TOKEN_PROPERTY, clientToken);
  if (made) return made.id;
  return cloud.compute.createImage(serverId, name, { [TOKEN_PROPERTY]: clientToken });
}

export async function getSnapshot(
  cloud: Cloud,
  ref: string,
  imageId: string,
): Promise<SnapshotState | null> {
  const image = await unlessMissing(cloud.image.getImage(imageId));
  const status = image && statusOf(image.status);
  if (!image || !status) return null;
  return {
    ref,
    status,
    sizeBytes: image.size ?? null,
    fault:
      status === 'error'
        ? { engineText: `Glance reports the image ${image.status}`, kind: 'unknown' }
        : null,
  };
}

/** Nova's rebuild of the server from the snapshot's image, once per client token. */
export async function restoreSnapshot(
  cloud: Cloud,
  serverId: string,
  imageId: string,
  clientToken: string,
): Promise<void> {
  const image = await unlessMissing(cloud.image.getImage(imageId));
  if (!image || image.status !== 'active') {
    throw new ProviderRejection('The snapshot is not available');
  }
  await rebuildFromImage(cloud, serverId, { imageId, clientToken });
}

export const deleteSnapshot = (cloud: Cloud, imageId: string) =>
  ignoreMissing(cloud.image.deleteImage(imageId));
