import type { Cloud } from './clouds';
import { isHttpStatus } from './http';

/**
 * Nova's rebuild (`POST /servers/{id}/action {"rebuild": …}`): the server's disk laid down afresh
 * from a Glance image — one of the catalogue's for a reinstall, or a snapshot's image for a
 * restore — keeping its id, name, flavor, ports and floating IPs. Nova shows `REBUILD` until it
 * is done, then `ACTIVE`, or `SHUTOFF` for a server that was stopped (or `ERROR`, with its fault).
 */

/** The tag that says a rebuild was asked for with this client token. */
const REBUILD_TAG = 'lp-rebuild-';
export const rebuildTag = (clientToken: string) => `${REBUILD_TAG}${clientToken}`.slice(0, 60);

export interface RebuildOptions {
  /** The Glance image's id. */
  imageId: string;
  clientToken: string;
  /**
   * The new cloud-init user data (the config drive is made afresh with it). Left out, the server
   * keeps the user data it had (microversion 2.57 and later; the driver asks for 2.84).
   */
  userData?: string;
}

/**
 * Asks Nova to rebuild the server, once per client token. Nova keeps no record of who asked, so
 * the server is tagged with the token once Nova took the request: the same call again finds the
 * tag (or the rebuild it started still under way) and asks nothing more. The tags of earlier
 * rebuilds are removed, as Nova keeps at most 50. A cloud that refuses tags while the server
 * rebuilds (409) leaves it untagged: a retry after that might rebuild it once more, from the same
 * image with the same data, which is harmless.
 */
export async function rebuildFromImage(
  cloud: Cloud,
  serverId: string,
  options: RebuildOptions,
): Promise<void> {
  const tag = rebuildTag(options.clientToken);
  const { server } = await cloud.compute.getServer(serverId);
  const tags = server.tags ?? [];
  if (!tags.includes(tag) && server.status !== 'REBUILD') {
    await cloud.compute.action(serverId, {
      rebuild: {
        imageRef: options.imageId,
        ...(options.userData === undefined
          ? {}
          : { user_data: Buffer.from(options.userData).toString('base64') }),
      },
    });
  }
  const tolerated = (call: Promise<void>) =>
    call.catch((error: unknown) => {
      if (!isHttpStatus(error, 404) && !isHttpStatus(error, 409)) throw error;
    });
  for (const old of tags) {
    if (old.startsWith(REBUILD_TAG) && old !== tag) {
      await tolerated(cloud.compute.removeTag(serverId, old));
    }
  }
  if (!tags.includes(tag)) await tolerated(cloud.compute.addTag(serverId, tag));
}
