import type { Config } from '../../config';

/** Whose console an e-mail links to and who signs it. */
export interface MailSite {
  /** The base of the e-mailed links, ending with a slash (as `Config.publicUrl`). */
  publicUrl: string;
  /** The From address's display name; undefined: MAIL_FROM as it is. */
  fromName: string | undefined;
}

export interface MailReseller {
  brandName: string | null;
  name: string;
  /** Its domains, by host name. */
  domains: readonly string[];
}

/**
 * A reseller with a domain has its customers' mail link to it and signs it with its name: the
 * domain the request came to when it is one of the reseller's (a reseller with several keeps each
 * customer where they are), else its first by name; PUBLIC_URL's scheme, port and base path are
 * kept. A reseller without one (the product's own customers among them) changes nothing.
 */
export function mailSiteOf(
  config: Pick<Config, 'publicUrl'>,
  reseller: MailReseller,
  requestHost?: string,
): MailSite {
  const { domains } = reseller;
  const first = domains[0];
  if (first === undefined) return { publicUrl: config.publicUrl, fromName: undefined };
  const asked = requestHost?.toLowerCase();
  const url = new URL(config.publicUrl);
  url.hostname = asked !== undefined && domains.includes(asked) ? asked : first;
  return { publicUrl: url.href, fromName: reseller.brandName ?? reseller.name };
}
