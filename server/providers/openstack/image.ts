import { z } from '../../../src/api/contract/zod';
import { ProviderRejection } from '../driver';
import { isHttpStatus } from './http';
import { id, ServiceClient, type ServiceSession } from './service-client';

const imageList = z.object({ images: z.array(z.object({ id })) });
const image = z.object({ id });

/** Glance: the images servers boot from. */
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
}
