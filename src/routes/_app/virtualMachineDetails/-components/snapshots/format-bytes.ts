const units = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Bytes as a person reads them: `512 B`, `1.4 GB` (powers of 1024, as disks are shown). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 || value >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${shown} ${units[unit]}`;
}
