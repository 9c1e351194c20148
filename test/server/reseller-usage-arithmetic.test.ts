import { describe, expect, it } from 'vitest';
import { usageMessages } from '../../src/api/contract/usage';
import { HttpError } from '../../server/http-error';
import {
  BYTES_PER_GB,
  clip,
  coveredMs,
  gbHoursOf,
  gbOf,
  hoursOf,
  usageWindow,
  wholeMinutes,
} from '../../server/domain/reseller/usage-window';

/** The month windows and the minute arithmetic usage for billing is counted with. */

const at = (iso: string) => new Date(iso);
const SECOND = 1000;

describe('the month window (UTC)', () => {
  it('is the whole month once it is over, up to now while it is not', () => {
    const now = at('2026-12-05T10:11:12.345Z');
    expect(usageWindow('2026-11', now)).toEqual({
      month: '2026-11',
      from: at('2026-11-01T00:00:00Z'),
      to: at('2026-12-01T00:00:00Z'),
    });
    expect(usageWindow('2026-12', now)).toEqual({
      month: '2026-12',
      from: at('2026-12-01T00:00:00Z'),
      to: now,
    });
  });

  it('ends December at the new year, and February on the 29th in a leap year', () => {
    const now = at('2030-01-01T00:00:00Z');
    expect(usageWindow('2026-12', now).to).toEqual(at('2027-01-01T00:00:00Z'));
    expect(usageWindow('2028-02', now).to).toEqual(at('2028-03-01T00:00:00Z'));
    expect(usageWindow('2027-02', now).to).toEqual(at('2027-03-01T00:00:00Z'));
  });

  it('takes any year as written, even before 100', () => {
    const window = usageWindow('0042-03', at('2026-11-01T00:00:00Z'));
    expect(window.from.toISOString()).toBe('0042-03-01T00:00:00.000Z');
    expect(window.to.toISOString()).toBe('0042-04-01T00:00:00.000Z');
  });

  it('refuses a month after the current one, naming month', () => {
    const now = at('2026-12-31T23:59:59.999Z');
    expect(usageWindow('2026-12', now).to).toEqual(now);
    const refusal = (() => {
      try {
        usageWindow('2027-01', now);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal).toMatchObject({
      statusCode: 400,
      field: 'month',
      message: usageMessages.monthInFuture,
    });
  });
});

describe('minutes and hours', () => {
  it('rounds to the nearest whole minute, half a minute up', () => {
    expect([29_999, 30_000, 89_999, 90_000, 0].map(wholeMinutes)).toEqual([0, 1, 1, 2, 0]);
  });

  it('makes hours of minutes to 2 decimals', () => {
    expect([1, 3, 20, 40, 90, 8640, 21060].map(hoursOf)).toEqual([
      0.02, 0.05, 0.33, 0.67, 1.5, 144, 351,
    ]);
    // Three rows of one minute are 0.05 h, not three times 0.02: totals are summed in minutes.
    expect(hoursOf(1 + 1 + 1)).not.toBe(3 * hoursOf(1));
  });
});

describe('GB and GB-hours of snapshots', () => {
  const GB = BYTES_PER_GB;

  it('counts a GB as 2^30 bytes, to 2 decimals', () => {
    expect(GB).toBe(1_073_741_824);
    expect([10 * GB, 2.5 * GB, 1e9, GB / 200, GB / 201, 0].map(gbOf)).toEqual([
      10, 2.5, 0.93, 0.01, 0, 0,
    ]);
  });

  it('makes GB-hours of byte-minutes once, half a hundredth up', () => {
    const gbMinutes = (n: number) => BigInt(n * GB);
    expect(gbHoursOf(gbMinutes(60))).toBe(1);
    expect(gbHoursOf(gbMinutes(1))).toBe(0.02);
    // 1.5 GB-min is 0.025 GB-h exactly: up.
    expect(gbHoursOf(gbMinutes(1.5))).toBe(0.03);
    expect(gbHoursOf(gbMinutes(1.5) - 1n)).toBe(0.02);
    // Three snapshots of 1 GB for a minute each: 0.05, not three rows' 0.02.
    expect(gbHoursOf(3n * gbMinutes(1))).toBe(0.05);
  });

  it('stays exact past the doubles’ integers: a 31-day month of 10 TB', () => {
    const byteMinutes = 44_640n * 10n * 2n ** 40n;
    expect(byteMinutes > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    // 44640 min × 10240 GB / 60 = 7618560 GB-h
    expect(gbHoursOf(byteMinutes)).toBe(7_618_560);
    expect(gbHoursOf(byteMinutes + 1n)).toBe(7_618_560);
  });
});

describe('periods in a window', () => {
  const window = {
    month: '2026-11',
    from: at('2026-11-01T00:00:00Z'),
    to: at('2026-12-01T00:00:00Z'),
  };

  it('clips a period to the window, an open one to its end', () => {
    expect(clip({ startedAt: at('2026-10-20T00:00:00Z'), endedAt: null }, window)).toEqual({
      from: window.from,
      to: window.to,
    });
    expect(
      clip({ startedAt: at('2026-11-10T00:00:00Z'), endedAt: at('2026-12-10T00:00:00Z') }, window),
    ).toEqual({ from: at('2026-11-10T00:00:00Z'), to: window.to });
  });

  it('leaves out a period that only touches the window', () => {
    expect(clip({ startedAt: at('2026-10-01T00:00:00Z'), endedAt: window.from }, window)).toBe(
      undefined,
    );
    expect(clip({ startedAt: window.to, endedAt: null }, window)).toBe(undefined);
  });

  it('counts what run periods cover of a size period, exactly', () => {
    const span = { from: at('2026-11-10T00:00:00Z'), to: at('2026-11-10T01:00:00Z') };
    const runs = [
      // Began before the size period: only its part inside counts.
      { startedAt: at('2026-11-09T23:00:00Z'), endedAt: at('2026-11-10T00:10:00.500Z') },
      { startedAt: at('2026-11-10T00:20:00Z'), endedAt: at('2026-11-10T00:20:29Z') },
      // Still running: up to the span's end.
      { startedAt: at('2026-11-10T00:50:00Z'), endedAt: null },
      // Another size's.
      { startedAt: at('2026-11-10T02:00:00Z'), endedAt: null },
    ];
    expect(coveredMs(span, runs)).toBe(10 * 60 * SECOND + 500 + 29 * SECOND + 10 * 60 * SECOND);
    expect(wholeMinutes(coveredMs(span, runs))).toBe(20);
  });
});
