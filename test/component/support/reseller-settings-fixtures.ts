import {
  resellerSettingsMessages,
  type ResellerSettings,
} from '../../../src/api/contract/reseller-settings';
import type { ResellerSettingsUpdate } from '../../../src/api/reseller-settings';
import { api, http, ok, server } from './msw';

/** Skyline Cloud's settings: one domain from the operator, one added in its settings. */
export const skylineSettings = (overrides: Partial<ResellerSettings> = {}): ResellerSettings => ({
  brandName: 'Skyline Cloud',
  logoUrl: 'https://skyline.example/logo.svg',
  tabLogoUrl: null,
  primaryColor: '#1f4fbf',
  supportEmail: 'help@skyline.example',
  orderUrls: { newCustomer: 'https://skyline.example/order', accountChanges: null },
  domains: [
    { host: 'console.skyline.example', source: 'import' },
    { host: 'cloud.skyline.example', source: 'settings' },
  ],
  domainVerification: { recordPrefix: '_launchpad', value: 'launchpad-verify=4f9c2a' },
  ...overrides,
});

/**
 * Serves reseller/settings: GET answers the settings, PUT records its body and, unless a test
 * overrides it, stores it as the server would (new hosts then come from the settings).
 */
export function serveResellerSettings(settings: ResellerSettings = skylineSettings()) {
  let current = settings;
  const bodies: ResellerSettingsUpdate[] = [];
  const calls: string[] = [];
  server.use(
    http.get(api('reseller/settings'), () => {
      calls.push('get');
      return ok(current);
    }),
    http.put(api('reseller/settings'), async ({ request }) => {
      calls.push('put');
      const body = (await request.json()) as ResellerSettingsUpdate;
      bodies.push(body);
      const sources = new Map(current.domains.map((d) => [d.host, d.source]));
      current = {
        ...current,
        brandName: body.brandName,
        logoUrl: body.logoUrl,
        tabLogoUrl: body.tabLogoUrl,
        primaryColor: body.primaryColor,
        supportEmail: body.supportEmail,
        orderUrls: body.orderUrls,
        domains: body.domains.map((host) => ({ host, source: sources.get(host) ?? 'settings' })),
      };
      return ok(current, resellerSettingsMessages.saved);
    }),
  );
  return { bodies, calls };
}
