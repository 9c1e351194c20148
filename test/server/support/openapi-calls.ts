import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { companies } from '../../../server/db/schema';
import type { JsonSchema } from './schema-arbitrary';
import { createUser } from './seed';
import { signIn } from './sign-in';
import type { VmWorld } from './vm-world';

/** The API document as a generic client reads it, and what it promises of each answer. */

export interface Operation {
  security?: Record<string, unknown>[];
  parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content: { 'application/json'?: { schema?: JsonSchema } } };
  responses: Record<string, { content?: { 'application/json'?: { schema?: object } } }>;
}

export interface ApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

export const readDocument = async (w: VmWorld): Promise<ApiDocument> =>
  (await w.server.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();

export const operations = (document: ApiDocument) =>
  Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({
      path,
      method: method.toUpperCase() as 'GET',
      operation,
    })),
  );

/** Real ids of the caller's company, one per kind of thing a path names. */
export interface KnownIds {
  vm: number;
  team: number;
  user: number;
  region: number;
  /**
   * A customer of the world's company's reseller, of its own: the reseller's paths name it, so
   * that suspending it leaves the Admin's company (and session) as it was.
   */
  customer: number;
}

export async function knownIds(w: VmWorld): Promise<KnownIds> {
  const vm = await w.runningVm('contract');
  const region = Number((await w.order()).regionId);
  const db = w.server.database.db;
  const [own] = await db
    .select({ resellerId: companies.resellerId })
    .from(companies)
    .where(eq(companies.id, w.companyId));
  const [customer] = await db
    .insert(companies)
    .values({
      externalId: `openapi-customer-${own!.resellerId}`,
      resellerId: own!.resellerId,
      name: 'Spare',
    })
    .returning({ id: companies.id });
  return { vm, team: w.alphaId, user: w.userIds.viewer!, region, customer: customer!.id };
}

/**
 * A session of a staff user of the reseller of the world's company, for the reseller's console
 * (`/reseller/…`): anyone else is answered 404 before the request is even read.
 */
export async function resellerSession(w: VmWorld): Promise<string> {
  const db = w.server.database.db;
  const [own] = await db
    .select({ resellerId: companies.resellerId })
    .from(companies)
    .where(eq(companies.id, w.companyId));
  const [staff] = await db
    .insert(companies)
    .values({
      externalId: `reseller:openapi-${own!.resellerId}`,
      resellerId: own!.resellerId,
      name: 'Reseller staff',
      isResellerStaff: true,
    })
    .returning({ id: companies.id });
  const email = 'staff@reseller.test';
  await createUser(db, { companyId: staff!.id, email, isAdmin: true, isReseller: true });
  return (await signIn(w.server, email)).token;
}

/** Whom the document's route is for: the reseller's staff for its console, else the Admin. */
export const callerFor = (path: string, sessions: { admin: string; reseller: string }) =>
  path.startsWith('/reseller/') ? sessions.reseller : sessions.admin;

/** The path with its parameters filled with a real id of the caller's company, guessed from it. */
export function fillPath(path: string, ids: KnownIds): string {
  const idFor = (name: string) => {
    if (/regionId/.test(name) || /Regions?|listImages|listProviders|getRegion|Cities/.test(path)) {
      return ids.region;
    }
    if (/^\/teams|permissions/.test(path)) return ids.team;
    if (/^\/(users|sessions)/.test(path)) return ids.user;
    if (/^\/reseller\//.test(path)) return ids.customer;
    return ids.vm;
  };
  return `/api/v1${path.replace(/\{(\w+)\}/g, (_, name: string) => String(idFor(name)))}`;
}

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

/** The answer is one the document lists for the route, with the shape it gives for that status. */
export function expectDocumented(
  route: string,
  operation: Operation,
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
) {
  const documented = operation.responses[String(res.statusCode)];
  expect(
    documented,
    `${route} answered ${res.statusCode}: ${res.body.slice(0, 200)}`,
  ).toBeDefined();
  const schema = documented!.content?.['application/json']?.schema;
  if (!schema || !String(res.headers['content-type']).startsWith('application/json')) return;
  const validate = ajv.compile(schema);
  const valid = validate(JSON.parse(res.body));
  expect(valid, `${route} ${res.statusCode}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}
