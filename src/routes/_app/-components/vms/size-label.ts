import type { Configuration } from '../../../../api/contract/vms';

/** A VM size as the dropdowns and the upgrade list name it. */
export const sizeLabel = (size: Configuration) =>
  `${size.name} (${size.cpu} cores, ${size.ram} GB RAM, ${size.disk} GB disk)`;
