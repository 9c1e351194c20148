/**
 * The loop of a background worker that works in passes (the reconciler, the webhook deliveries):
 * a pass claims what is due and answers how much it took; the next pass follows at once while
 * there is work, else after `idleMs` or a nudge, whichever comes first. A failed pass is logged
 * and the loop goes on.
 */
export function passLoop(options: {
  runOnce: () => Promise<number>;
  idleMs: number;
  log: { warn(obj: object, msg: string): void };
  /** The log line of a failed pass. */
  failure: string;
}) {
  const { runOnce, idleMs, log } = options;
  let running: Promise<void> | undefined;
  let stopped = true;
  let wake: (() => void) | undefined;

  async function loop() {
    while (!stopped) {
      let took = 0;
      try {
        took = await runOnce();
      } catch (error) {
        log.warn(
          { error: error instanceof Error ? error.message : String(error) },
          options.failure,
        );
      }
      if (took > 0 || stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, idleMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  }

  return {
    /** Runs passes until one finds nothing due (tests, with a clock moved by hand). */
    async drain() {
      // Bounded: work that stays due now (a step, a failing receiver) would loop for ever.
      for (let pass = 0; pass < 1000 && (await runOnce()) > 0; pass += 1);
    },
    /** Ends the idle wait: there is work now. */
    nudge: () => wake?.(),
    start() {
      if (!stopped) return;
      stopped = false;
      running = loop();
    },
    async stop() {
      stopped = true;
      wake?.();
      await running;
    },
  };
}
