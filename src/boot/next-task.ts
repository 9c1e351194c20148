/**
 * Resolves on a later turn of the event loop: what runs after it is a task of its own, so that a
 * slow phone's main thread is not held by one long one.
 */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
