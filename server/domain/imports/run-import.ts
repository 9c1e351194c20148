import type { Logger } from 'pino';
import type { FieldError } from '../../../src/api/contract/envelope';
import type { ImportKind, ImportResult } from '../../../src/api/contract/imports';
import type { Tx } from '../../db/client';
import { conflict } from '../../http-error';
import type { ApiDeps } from '../../routes/deps';
import { sendActivationLink } from '../identity/account-activation';
import { productHost } from '../reseller/settings-domains';
import { importCompanies } from './companies';
import { importDistributors } from './distributors';
import type { KindOutcome } from './outcome';
import { importResellers, type ImportContext } from './resellers';
import { isUniqueViolation } from '../../db/errors';

export type ImportDeps = Pick<ApiDeps, 'db' | 'clock' | 'config' | 'mailer' | 'background'> & {
  log: Pick<Logger, 'info'>;
};

export type ImportOutcome = { result: ImportResult } | { errors: FieldError[] };

const importers: Record<
  ImportKind,
  (tx: Tx, raw: readonly unknown[], now: Date, context: ImportContext) => Promise<KindOutcome>
> = {
  distributer: importDistributors,
  reseller: importResellers,
  company: importCompanies,
};

/**
 * Applies a file of one kind (the API route and `npm run import` both come here): every item is
 * checked first and the file is written in one transaction, all of it or nothing. The accounts it
 * created get their activation link once the transaction has committed, in the background.
 */
export async function runImport(
  deps: ImportDeps,
  kind: ImportKind,
  items: readonly unknown[],
): Promise<ImportOutcome> {
  const now = deps.clock.now();
  let outcome: KindOutcome;
  try {
    const context = { productHost: productHost(deps.config) };
    outcome = await deps.db.transaction((tx) => importers[kind](tx, items, now, context));
  } catch (error) {
    // Another import created the same externalId or e-mail between our checks and our writes.
    if (isUniqueViolation(error)) {
      throw conflict('Another import changed the same records at the same time; run it again');
    }
    throw error;
  }
  if ('errors' in outcome) {
    deps.log.info(
      { kind, items: items.length, errors: outcome.errors.length },
      'import rejected; nothing written',
    );
    return { errors: outcome.errors };
  }

  const { result, invited } = outcome;
  deps.log.info(
    { kind, items: items.length, created: result.created, updated: result.updated },
    'import applied',
  );
  if (invited.length > 0) {
    deps.background.run('import activation e-mails', () => sendActivationLinks(deps, invited));
  }
  return { result };
}

/** One after the other, so a big file does not open thousands of SMTP connections at once. */
async function sendActivationLinks(deps: ImportDeps, emails: readonly string[]) {
  const failed: string[] = [];
  let firstError: unknown;
  for (const email of emails) {
    try {
      await sendActivationLink(deps, email);
    } catch (error) {
      failed.push(email);
      firstError ??= error;
    }
  }
  if (failed.length > 0) {
    throw new Error(
      `activation e-mail failed for ${failed.length} of ${emails.length} imported accounts (${failed.slice(0, 5).join(', ')}${failed.length > 5 ? ', …' : ''}); POST /users/register sends a new link`,
      { cause: firstError },
    );
  }
}
