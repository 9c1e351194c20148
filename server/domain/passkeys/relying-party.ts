import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { holdersOf, productHost } from '../reseller/settings-domains';

/** Whom a passkey belongs to (WebAuthn's relying party): a host name and the origin of its pages. */
export interface RelyingParty {
  /** The RP ID: a host name, without port. A credential works only where it was made. */
  id: string;
  /** The origin the browser's answer must name (scheme, host and port). */
  origin: string;
  /** What the browser shows while it asks. */
  name: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/**
 * The relying party of the console page the request comes from. The product's own host is
 * PUBLIC_URL's; a reseller's domain (one of `reseller_domains`) is its own relying party, so a
 * passkey made there works there (and one made on the product's host works on the product's
 * host). Any other host gets the product's: the browser then refuses, as that page may not use
 * it. `localhost` stands for a loopback PUBLIC_URL (an address cannot be an RP ID).
 */
export async function relyingPartyOf(
  deps: { db: Db; config: Pick<Config, 'publicUrl' | 'publicOrigin'> },
  request: Pick<FastifyRequest, 'hostname' | 'host'>,
  name: string,
): Promise<RelyingParty> {
  const own = productHost(deps.config);
  const host = (request.hostname ?? '').toLowerCase();
  const scheme = new URL(deps.config.publicUrl).protocol;
  const product = { id: own, origin: deps.config.publicOrigin, name };
  if (host === '' || host === own) return product;
  if (host === 'localhost' && LOOPBACK.has(own)) {
    return { id: host, origin: `${scheme}//${request.host.toLowerCase()}`, name };
  }
  const holders = await holdersOf(deps.db, [host]);
  if (holders.has(host))
    return { id: host, origin: `${scheme}//${request.host.toLowerCase()}`, name };
  return product;
}
