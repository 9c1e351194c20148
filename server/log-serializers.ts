// E-mailed links carry their token in the path (the API) or the query (the console page); console
// links carry their ticket in the path.
const SECRET_PATH_SEGMENT = /\/(resetPasswordFromEmail|confirmEmail|console)\/[^/?#]+/gi;
const SECRET_QUERY_VALUE = /([?&](?:token|resetKey|code)=)[^&#]*/gi;

/** Either of the above, tested first: most URLs have no secret, and a test is cheaper than a replace. */
const HOLDS_A_SECRET = new RegExp(
  `${SECRET_PATH_SEGMENT.source}|${SECRET_QUERY_VALUE.source}`,
  'i',
);

export const redactUrl = (url: string) =>
  HOLDS_A_SECRET.test(url)
    ? url.replace(SECRET_PATH_SEGMENT, '/$1/[redacted]').replace(SECRET_QUERY_VALUE, '$1[redacted]')
    : url;

/** Fastify's request serializer, with the secrets of e-mailed links taken out of the URL. */
export function requestSerializer(req: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: req.url === undefined ? undefined : redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
