import { z } from '../../../src/api/contract/zod';
import { ProviderRejection } from '../driver';
import { isHttpStatus } from './http';
import { id, ServiceClient, type ServiceSession } from './service-client';

const imageList = z.object({ images: z.array(z.object({ id })) });
const image = z.object({ id });
/** An image as the driver reads its snapshots (Glance's `size` is null until it is uploaded). */
const imageDetail = z.object({ id, status: z.string(), size: z.nullish(z.number()) });
export type GlanceImage = z.infer<typeof imageDetail>;
const imageDetails = z.object({ images: z.array(imageDetail) });

/** Glance: the images servers boot from, and the servers' snapshots (images Nova made). */
export class ImageClient {
  private readonly api: ServiceClient;

  constructor(session: ServiceSession) {
    this.api = new ServiceClient(session, 'image', 'Glance');
  }

  /** The image's id, from its name or its id. */
  async imageId(nameOrId: string): Promise<string> {
    const name = encodeURIComponent(nameOrId);
    const byName = await this.api.read(imageList, `/v2/images?name=${name}`);
    if (byName.images[0]) return byName.images[0].id;
    try {
      return (await this.api.read(image, `/v2/images/${name}`)).id;
    } catch (error) {
      if (isHttpStatus(error, 404))
        throw new ProviderRejection(`The cloud has no image ${nameOrId}`);
      throw error;
    }
  }

  /** A 404 (no such image) is thrown as `OpenStackHttpError`, for the callers that expect it. */
  getImage(imageId: string): Promise<GlanceImage> {
    return this.api.read(imageDetail, `/v2/images/${imageId}`);
  }

  /** The images whose property `key` is `value` (Nova's `createImage` metadata become properties). */
  async imagesWithProperty(key: string, value: string): Promise<GlanceImage[]> {
    const query = `${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
    return (await this.api.read(imageDetails, `/v2/images?${query}`)).images;
  }

  deleteImage(imageId: string): Promise<void> {
    return this.api.send(`/v2/images/${imageId}`, { method: 'DELETE' });
  }
}
