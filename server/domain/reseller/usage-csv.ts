import { usageCsvColumns, type Usage } from '../../../src/api/contract/usage';
import { hoursOf } from './usage-window';

/**
 * Usage as CSV (RFC 4180: CRLF line ends, a field quoted when it holds a comma, a quote or a line
 * break, its quotes doubled), a header row first, in the contract's columns. Hours are written
 * with 2 decimals, moments as ISO 8601 UTC; values are written as they are (a spreadsheet that
 * reads `=…` as a formula is the reader's to configure).
 */

type Column = (typeof usageCsvColumns)[number];
type Row = Partial<Record<Column, string | number | Date | null>>;

const field = (value: string | number | Date | null | undefined): string => {
  if (value === undefined || value === null) return '';
  const text = value instanceof Date ? value.toISOString() : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

const line = (row: Row) => `${usageCsvColumns.map((column) => field(row[column])).join(',')}\r\n`;

/** Hours, GB and GB-hours alike: 2 decimals. */
const hours = (value: number) => value.toFixed(2);

export function usageCsv(usage: Usage): string {
  const lines = [`${usageCsvColumns.join(',')}\r\n`];
  for (const company of usage.companies) {
    const owner: Row = {
      company_id: company.companyId,
      company_external_id: company.externalId,
      company_name: company.name,
    };
    for (const vm of company.vms) {
      lines.push(
        line({
          kind: 'vm',
          ...owner,
          vm_id: vm.vmId,
          vm_name: vm.vmName,
          region: vm.region,
          size: vm.size,
          vcpus: vm.vcpus,
          ram_gb: vm.ramGb,
          disk_gb: vm.diskGb,
          from: vm.from,
          to: vm.to,
          existed_hours: hours(vm.existedHours),
          ran_hours: hours(vm.ranHours),
          // The row's own: its ran minutes times its size, made hours.
          vcpu_ran_hours: hours(hoursOf(vm.ranMinutes * vm.vcpus)),
          ram_gb_ran_hours: hours(hoursOf(vm.ranMinutes * vm.ramGb)),
        }),
      );
    }
    for (const ip of company.publicIps) {
      lines.push(
        line({
          kind: 'public_ip',
          ...owner,
          vm_id: ip.vmId,
          region: ip.region,
          address: ip.address,
          from: ip.from,
          to: ip.to,
          public_ip_hours: hours(ip.hours),
        }),
      );
    }
    for (const snapshot of company.snapshots) {
      lines.push(
        line({
          kind: 'snapshot',
          ...owner,
          vm_id: snapshot.vmId,
          vm_name: snapshot.vmName,
          region: snapshot.region,
          from: snapshot.from,
          to: snapshot.to,
          snapshot_id: snapshot.snapshotId,
          snapshot_name: snapshot.snapshotName,
          size_gb: hours(snapshot.sizeGb),
          snapshot_gb_hours: hours(snapshot.gbHours),
        }),
      );
    }
    const { totals } = company;
    lines.push(
      line({
        kind: 'total',
        ...owner,
        from: usage.from,
        to: usage.to,
        existed_hours: hours(totals.vmExistedHours),
        ran_hours: hours(totals.vmRanHours),
        vcpu_ran_hours: hours(totals.vcpuRanHours),
        ram_gb_ran_hours: hours(totals.ramGbRanHours),
        public_ip_hours: hours(totals.publicIpHours),
        snapshot_gb_hours: hours(totals.snapshotGbHours),
      }),
    );
  }
  return lines.join('');
}
