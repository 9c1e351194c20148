/** Runs `fn` `runs` times after `warmup` unmeasured runs; returns the median in milliseconds. */
export async function medianMs(fn: () => Promise<unknown>, runs = 30, warmup = 3): Promise<number> {
  for (let i = 0; i < warmup; i += 1) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const middle = Math.floor(times.length / 2);
  return times.length % 2 ? times[middle]! : (times[middle - 1]! + times[middle]!) / 2;
}

export function report(rows: [label: string, ms: number][]) {
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, ms] of rows)
    console.warn(`${label.padEnd(width)}  ${ms.toFixed(2)} ms (median)`);
}
