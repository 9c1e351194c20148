/** The exit codes, documented in docs/api.md ("The command-line client"). */
export const exitCodes = {
  ok: 0,
  /** An operation ended in failure, or the server failed (5xx, 429). */
  failed: 1,
  /** A bad argument: ours, or a 400 naming the field. */
  usage: 2,
  /** No URL or token configured, or the token is refused (401). */
  unauthenticated: 3,
  /** The token's user or access does not allow it (403). */
  forbidden: 4,
  notFound: 5,
  /** The resource's state does not allow it now (409). */
  conflict: 6,
  unreachable: 7,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** An error the client explains itself: its message is printed as is, then it exits with `code`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: ExitCode,
    /** A line of usage printed after the message (bad arguments). */
    readonly usage?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string, usage?: string) =>
  new CliError(message, exitCodes.usage, usage);
