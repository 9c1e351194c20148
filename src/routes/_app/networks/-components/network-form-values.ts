import {
  createNetworkBody,
  DEFAULT_DNS_SERVERS,
  networkMessages,
  updateNetworkBody,
  type CreateNetworkBody,
  type NetworkDetails,
  type NetworkType,
  type UpdateNetworkBody,
} from '../../../../api/contract/networks';

/** The network form as it holds its values: text as typed, the region null until chosen. */
export interface NetworkFormValues {
  name: string;
  regionId: number | null;
  description: string;
  networkType: NetworkType;
  cidrBlock: string;
  dhcpStartAddress: string;
  dhcpEndAddress: string;
  defaultRoute: string;
  dnsServers: string;
}
export type NetworkFormField = keyof NetworkFormValues;

export const emptyNetworkForm: NetworkFormValues = {
  name: '',
  regionId: null,
  description: '',
  networkType: 'standard',
  cidrBlock: '',
  dhcpStartAddress: '',
  dhcpEndAddress: '',
  defaultRoute: '',
  dnsServers: DEFAULT_DNS_SERVERS,
};

/** The edit form starts from the stored network. */
export const formValuesOf = (network: NetworkDetails): NetworkFormValues => ({
  name: network.name,
  regionId: network.regionId,
  description: network.description,
  networkType: network.networkType,
  cidrBlock: network.cidrBlock,
  dhcpStartAddress: network.dhcpStartAddress ?? '',
  dhcpEndAddress: network.dhcpEndAddress ?? '',
  defaultRoute: network.defaultRoute ?? '',
  dnsServers: network.dnsNameservers.join(', '),
});

/**
 * What is sent (spec section 4): a standard network serves DHCP, a default route and DNS, with
 * SNAT always on; a custom one is layer 2 only, so all of that is off and cleared. The addresses
 * typed stay in the form, should the user switch back to Standard.
 */
export function updateBodyOf(values: NetworkFormValues): UpdateNetworkBody {
  const standard = values.networkType === 'standard';
  const ifStandard = (value: string) => (standard ? value : null);
  return {
    name: values.name,
    description: values.description,
    cidrBlock: values.cidrBlock,
    networkType: values.networkType,
    snatEnabled: standard,
    dhcpServerEnabled: standard,
    dhcpStartAddress: ifStandard(values.dhcpStartAddress),
    dhcpEndAddress: ifStandard(values.dhcpEndAddress),
    defaultRouteEnabled: standard,
    defaultRoute: ifStandard(values.defaultRoute),
    serveDNSServersEnabled: standard,
    dnsServers: ifStandard(values.dnsServers),
  };
}

export const createBodyOf = (values: NetworkFormValues): CreateNetworkBody => ({
  ...updateBodyOf(values),
  regionId: values.regionId,
});

const requiredForStandard: [NetworkFormField, string][] = [
  ['dhcpStartAddress', networkMessages.dhcpStartRequired],
  ['dhcpEndAddress', networkMessages.dhcpEndRequired],
  ['defaultRoute', networkMessages.defaultRouteRequired],
  ['dnsServers', networkMessages.dnsRequired],
];

/**
 * The form's field errors: the contract's rules, first message per field. The contract checks a
 * standard network's addressing only once the rest is valid; the form names every missing field
 * at once instead of in two rounds.
 */
export function networkFormErrors(
  values: NetworkFormValues,
  mode: 'create' | 'edit',
): Partial<Record<NetworkFormField, string>> | undefined {
  const result =
    mode === 'create'
      ? createNetworkBody.safeParse(createBodyOf(values))
      : updateNetworkBody.safeParse(updateBodyOf(values));
  const errors: Partial<Record<NetworkFormField, string>> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0] ?? '') as NetworkFormField;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  if (values.networkType === 'standard') {
    for (const [field, message] of requiredForStandard) {
      if (!String(values[field]).trim() && !errors[field]) errors[field] = message;
    }
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

/** Something the user must fill in is empty (spec section 5: 'Please fill in all required fields'). */
export function missesRequired(values: NetworkFormValues, mode: 'create' | 'edit'): boolean {
  const blank = (value: string) => value.trim() === '';
  if (blank(values.name) || blank(values.cidrBlock)) return true;
  if (mode === 'create' && values.regionId === null) return true;
  return (
    values.networkType === 'standard' &&
    requiredForStandard.some(([field]) => blank(String(values[field])))
  );
}
