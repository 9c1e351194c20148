/** Runs `fn` `runs` times after `warmup` unmeasured runs; returns the median in milliseconds. */
export async function medianMs(fn: () => Promise<unknown>, runs = 30, warmup = 3): Promise<number> {
  for (let i = 0; i < warmup; i += 1) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return median(times);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function report(rows: [label: string, ms: number][]) {
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, ms] of rows)
    console.warn(`${label.padEnd(width)}  ${ms.toFixed(2)} ms (median)`);
}
