import { createVmBody, vmMessages, type CreateVmBody } from '../../../../api/contract/vms';

/** What the Create Virtual Machine form holds; a dropdown not chosen yet is null. */
export interface CreateVmValues {
  name: string;
  countryId: number | null;
  regionId: number | null;
  imageId: number | null;
  configurationId: number | null;
  providerId: number | null;
  numberOfInstances: number | null;
  teamId: number | null;
  allocatePublicIp: boolean;
  /** The user's account keys the guest accepts. */
  sshKeyIds: number[];
  /** A key pair is generated as well (false: the account keys only). */
  generateKeyPair: boolean;
}

export const createVmDefaults: CreateVmValues = {
  name: '',
  countryId: null,
  regionId: null,
  imageId: null,
  configurationId: null,
  providerId: null,
  numberOfInstances: null,
  teamId: null,
  allocatePublicIp: true,
  sshKeyIds: [],
  generateKeyPair: true,
};

/**
 * The selection cascade of spec section 4, in order. Choosing one clears every choice after it:
 * a country clears the region (and so what hangs on it), a region the image, an image the size,
 * a size the provider and instance count, an instance count the team.
 */
export const cascade = [
  'countryId',
  'regionId',
  'imageId',
  'configurationId',
  'providerId',
  'numberOfInstances',
  'teamId',
] as const;
export type CascadeField = (typeof cascade)[number];

export const after = (field: CascadeField) => cascade.slice(cascade.indexOf(field) + 1);

/**
 * Whether the screen around the name field is drawn the same for these values: a keystroke in the
 * name changes nothing there but whether the name is filled (which opens the country's dropdown),
 * unless the name counts as well (the local rule's message shows and follows it). Redrawing every
 * dropdown and its options on each key took 150-250 ms a key on a phone, with 100 teams.
 */
export const drawnTheSame =
  (nameCounts: boolean) =>
  (a: CreateVmValues, b: CreateVmValues): boolean =>
    (Object.keys(a) as (keyof CreateVmValues)[]).every((key) =>
      key === 'name'
        ? nameCounts
          ? a.name === b.name
          : (a.name.trim() === '') === (b.name.trim() === '')
        : a[key] === b[key],
    );

/** Spec section 5: 1 to 10 copies. */
export const instanceCounts = Array.from({ length: 10 }, (_, i) => i + 1);

/**
 * The request, or the local message that stops it (spec section 5): any missing required field is
 * 'Please fill in empty fields'; then the contract's own rules (name, instance range).
 * `providerId` is the provider in effect: the chosen one, or the only one offered.
 */
export function toCreateBody(
  values: CreateVmValues,
  providerId: number | null,
): { body: CreateVmBody; problem: null } | { body: null; problem: string } {
  const required = [
    values.regionId,
    values.imageId,
    values.configurationId,
    providerId,
    values.numberOfInstances,
  ];
  if (!values.name.trim() || required.some((value) => value === null))
    return { body: null, problem: vmMessages.fillEmptyFields };
  const body: CreateVmBody = {
    name: values.name.trim(),
    regionId: values.regionId!,
    imageId: values.imageId!,
    configurationId: values.configurationId!,
    providerId: providerId!,
    numberOfInstances: values.numberOfInstances!,
    ...(values.teamId !== null ? { teamId: values.teamId } : {}),
    allocatePublicIp: values.allocatePublicIp,
    // Left out when they are the API's defaults.
    ...(values.sshKeyIds.length ? { sshKeyIds: values.sshKeyIds } : {}),
    ...(values.generateKeyPair ? {} : { generateKeyPair: false }),
  };
  const parsed = createVmBody.safeParse(body);
  if (!parsed.success) return { body: null, problem: parsed.error.issues[0]!.message };
  return { body, problem: null };
}
