import type { CombinedRegion } from '../../../../api/contract/vms';
import {
  limitEntry,
  limitMessages,
  type LimitEntry,
  type LimitResource,
  type LimitUse,
} from '../../../../api/contract/limits';

/** The resources as the console names them (a column, a dropdown). */
export const resourceLabels: Record<LimitResource, string> = {
  vms: 'VMs',
  vcpus: 'vCPUs',
  ramGb: 'RAM (GB)',
  publicIps: 'Public IPs',
  networks: 'Networks',
  snapshots: 'Snapshots',
};

export const ALL_REGIONS_LABEL = 'All regions';

/** The region dropdown's value for a limit on all regions together (a region is its id). */
export const ALL_REGIONS = 'all';

/** One row of the limits form; a dropdown not chosen yet is null, a number not typed ''. */
export interface LimitRowValues {
  resource: LimitResource | null;
  region: string;
  max: number | string;
}
export interface LimitsFormValues {
  limits: LimitRowValues[];
}

export const newLimitRow = (): LimitRowValues => ({ resource: null, region: ALL_REGIONS, max: '' });

export const toFormValues = (limits: readonly LimitUse[]): LimitsFormValues => ({
  limits: limits.map(({ resource, regionId, max }) => ({
    resource,
    region: regionId === null ? ALL_REGIONS : String(regionId),
    max,
  })),
});

export const RESOURCE_REQUIRED = 'Choose a resource';

/** A row's fields as the form names them. */
export const rowField = (index: number, part?: keyof LimitRowValues) =>
  part ? (`limits[${index}].${part}` as const) : (`limits[${index}]` as const);

const regionIdOf = (region: string) => (region === ALL_REGIONS ? null : Number(region));

/**
 * Each row's problems, at its fields: a resource to choose, the contract's rule on the maximum,
 * and (on the row, as the server puts it) a second limit on the same resource and region.
 */
export function limitsFormErrors(values: LimitsFormValues) {
  const fields: Record<string, string> = {};
  const seen = new Set<string>();
  values.limits.forEach((row, index) => {
    if (row.resource === null) fields[rowField(index, 'resource')] = RESOURCE_REQUIRED;
    const max = limitEntry.shape.max.safeParse(row.max === '' ? undefined : row.max);
    if (!max.success) fields[rowField(index, 'max')] = limitMessages.maxRange;
    const key = `${row.resource}/${row.region}`;
    if (row.resource !== null && seen.has(key)) fields[rowField(index)] = limitMessages.duplicate;
    seen.add(key);
  });
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** The request's entries (the rows once valid). */
export const toEntries = (values: LimitsFormValues): LimitEntry[] =>
  values.limits.map((row) => ({
    resource: row.resource!,
    regionId: regionIdOf(row.region),
    max: Number(row.max),
  }));

const serverParts: Record<string, keyof LimitRowValues> = {
  resource: 'resource',
  regionId: 'region',
  max: 'max',
};

/**
 * Where a 400's field error goes in the form: `limits.2.max` at row 3's maximum, `limits.2` on
 * row 3 as a whole; null for anything else (shown above the buttons).
 */
export function formFieldOf(field: string, rows: number) {
  const match = /^limits\.(\d+)(?:\.(\w+))?$/.exec(field);
  if (!match) return null;
  const index = Number(match[1]);
  if (index >= rows) return null;
  if (match[2] === undefined) return rowField(index);
  const part = serverParts[match[2]];
  return part ? rowField(index, part) : null;
}

/** All regions, every region the console knows, and any a limit names that is no longer offered. */
export function regionOptionsOf(
  regions: readonly CombinedRegion[] | undefined,
  limits: readonly LimitUse[],
) {
  const known = new Map(regions?.map((region) => [String(region.id), region.countryRegion]));
  for (const { regionId } of limits) {
    if (regionId !== null && !known.has(String(regionId)))
      known.set(String(regionId), `Region ${regionId}`);
  }
  return [
    { value: ALL_REGIONS, label: ALL_REGIONS_LABEL },
    ...[...known].map(([value, label]) => ({ value, label })),
  ];
}
