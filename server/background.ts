/** Work that runs after the answer has gone, so its duration tells the caller nothing. */
export interface BackgroundTasks {
  run(label: string, task: () => Promise<void>): void;
  /** Resolves once every task started so far has finished (shutdown, tests). */
  idle(): Promise<void>;
}

export function createBackgroundTasks(
  onError: (error: unknown, label: string) => void,
): BackgroundTasks {
  const running = new Set<Promise<void>>();
  return {
    run(label, task) {
      const promise = Promise.resolve()
        .then(task)
        .catch((error: unknown) => onError(error, label))
        .finally(() => running.delete(promise));
      running.add(promise);
    },
    async idle() {
      while (running.size > 0) await Promise.all(running);
    },
  };
}
