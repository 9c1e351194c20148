import {
  resellerSettingsMessages,
  updateResellerSettingsBody,
  type ResellerSettings,
  type UpdateResellerSettingsBody,
} from '../../../../api/contract/reseller-settings';

/** A domain row: one the server knows (`import`: the operator's; `settings`: added here) or new. */
export interface DomainRow {
  host: string;
  source: ResellerSettings['domains'][number]['source'] | 'new';
}

/** The form's values: every text as typed ('' for none), the domains as rows. */
export interface ResellerSettingsValues {
  brandName: string;
  logoUrl: string;
  tabLogoUrl: string;
  primaryColor: string;
  supportEmail: string;
  orderUrls: { newCustomer: string; accountChanges: string };
  domains: DomainRow[];
}

export const toFormValues = (settings: ResellerSettings): ResellerSettingsValues => ({
  brandName: settings.brandName ?? '',
  logoUrl: settings.logoUrl ?? '',
  tabLogoUrl: settings.tabLogoUrl ?? '',
  primaryColor: settings.primaryColor ?? '',
  supportEmail: settings.supportEmail,
  orderUrls: {
    newCustomer: settings.orderUrls.newCustomer ?? '',
    accountChanges: settings.orderUrls.accountChanges ?? '',
  },
  domains: settings.domains.map(({ host, source }) => ({ host, source })),
});

/** The request as the contract takes it (it trims, lower-cases and makes blanks null). */
export const toBody = ({
  domains,
  ...values
}: ResellerSettingsValues): UpdateResellerSettingsBody => ({
  ...values,
  domains: domains.map((row) => row.host),
});

/** A domain row's host field, as the form names it. */
export const domainField = (index: number) => `domains[${index}].host` as const;

const SCALAR_FIELDS = new Set([
  'brandName',
  'logoUrl',
  'tabLogoUrl',
  'primaryColor',
  'supportEmail',
  'orderUrls.newCustomer',
  'orderUrls.accountChanges',
  'domains',
]);

/**
 * Where an error the contract or a 400 names goes in the form: `domains.1` at the second domain's
 * host, `domains` under the list as a whole, the others at their fields; null for anything else
 * (shown above the buttons).
 */
export function formFieldOf(path: string, domains: number) {
  const row = /^domains\.(\d+)$/.exec(path);
  if (row) return Number(row[1]) < domains ? domainField(Number(row[1])) : 'domains';
  return SCALAR_FIELDS.has(path) ? path : null;
}

/**
 * The contract's rules, each at its field (the first message of each). A host listed twice is
 * marked at its second row, which the contract only says of the list.
 */
export function settingsFormErrors(values: ResellerSettingsValues) {
  const fields: Record<string, string> = {};
  const seen = new Set<string>();
  values.domains.forEach(({ host }, index) => {
    const key = host.trim().toLowerCase();
    if (key && seen.has(key)) fields[domainField(index)] = resellerSettingsMessages.domainDuplicate;
    seen.add(key);
  });
  const parsed = updateResellerSettingsBody.safeParse(toBody(values));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = formFieldOf(issue.path.join('.'), values.domains.length);
      if (!field) continue;
      // The duplicate is already on its row.
      if (field === 'domains' && issue.message === resellerSettingsMessages.domainDuplicate)
        continue;
      fields[field] ??= issue.message;
    }
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}
