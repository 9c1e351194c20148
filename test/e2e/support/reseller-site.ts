import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ResellerSite {
  url: string;
  close: () => Promise<void>;
}

/**
 * The reseller's own website, on 127.0.0.1: its logo and tab icon in `color` (hex), and its order
 * forms under /orders/, where the console's order links lead.
 */
export async function startResellerSite(color = '#0b7285'): Promise<ResellerSite> {
  const logo =
    '<svg xmlns="http://www.w3.org/2000/svg" width="180" height="36" viewBox="0 0 180 36">' +
    `<rect width="36" height="36" rx="8" fill="${color}"/>` +
    `<text x="46" y="25" font-family="sans-serif" font-size="20" font-weight="700" fill="${color}">Skyline</text></svg>`;
  const icon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="${color}"/></svg>`;
  const site: Server = createServer((req, res) => {
    if (req.url === '/logo.svg' || req.url === '/favicon.svg') {
      res
        .writeHead(200, { 'content-type': 'image/svg+xml' })
        .end(req.url === '/logo.svg' ? logo : icon);
    } else if (req.url?.startsWith('/orders/')) {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<title>Order form</title><h1>Skyline order form ${req.url}</h1>`);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const { port } = site.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => site.close(() => resolve())),
  };
}
