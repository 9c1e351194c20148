import { eq } from 'drizzle-orm';
import { ROLE, type RoleId } from '../../../src/api/contract/roles';
import { sessions } from '../../../server/db/schema';
import { hashSecretToken } from '../../../server/domain/identity/secret-tokens';
import { vmSnapshots, webauthnCredentials } from '../../../server/db/self-service-schema';
import type { TestServer } from './harness';
import { lastMailTo, linkIn } from './mail';
import { NEW_PASSWORD } from './seed';
import { ed25519Key } from './ssh-key-fixtures';
import { bearer, signIn } from './sign-in';
import { smallUbuntuOrder } from './vm-fixtures';

export const OPERATOR_TOKEN = 'isolation-operator-token-0123456789';
export const callerRoles = ['admin', 'manager', 'operator', 'viewer'] as const;
export type CallerRole = (typeof callerRoles)[number];

/** One company as its users see it: a signed-in token per role and the ids they own. */
export interface Tenant {
  companyId: number;
  teamId: number;
  /** A running VM of the team, its primary interface and the network that is on. */
  vmId: number;
  interfaceId: number;
  networkId: number;
  /** Catalogue ids of a valid VM order (the catalogue is shared by every company). */
  order: { regionId: number; imageId: number; configurationId: number; providerId: number };
  tokens: Record<CallerRole, string>;
  userIds: Record<CallerRole, number>;
  /** A webhook of the company (never delivered to: no delivery worker runs in these tests). */
  webhookId: number;
  /** An API token of the company's Admin. */
  apiTokenId: number;
  /** An available snapshot of the VM (written as its operation would leave it). */
  snapshotId: number;
  /** An SSH key of the company's Admin. */
  sshKeyId: number;
  /** A passkey of the company's Admin (written as a registration would leave it). */
  passkeyId: number;
  /** A second signed-in session of the company's Admin, besides the one in `tokens`. */
  sessionId: number;
}

async function call(
  server: TestServer,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: unknown,
) {
  const res = await server.app.inject({
    method,
    url: `/api/v1${url}`,
    headers,
    payload: payload as object,
  });
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

/** Follows the activation e-mail: names and a password, then a verified sign-in. */
async function activateAndSignIn(server: TestServer, email: string) {
  await server.settled();
  const link = linkIn(lastMailTo(server, email));
  const token = link.searchParams.get('token')!;
  const id = Number(link.searchParams.get('id'));
  await call(
    server,
    'POST',
    `/users/confirmEmail/${encodeURIComponent(token)}`,
    {},
    {
      id,
      password: NEW_PASSWORD,
      firstName: 'Iso',
      lastName: 'Lation',
    },
  );
  const { token: session } = await signIn(server, email, { password: NEW_PASSWORD });
  return { id, token: session };
}

const teamRoleIds: Record<Exclude<CallerRole, 'admin'>, RoleId> = {
  manager: ROLE.manager,
  operator: ROLE.operator,
  viewer: ROLE.viewer,
};

/**
 * Two companies created the way an operator creates them (the import API), their admins activated
 * from the e-mail, and one member per team role invited by each admin.
 */
export async function importTwoTenants(server: TestServer): Promise<[Tenant, Tenant]> {
  await call(server, 'POST', '/imports/distributer', operator, {
    items: [{ externalId: 'iso-d', name: 'Iso Distribution', email: 'd@iso.test' }],
  });
  await call(server, 'POST', '/imports/reseller', operator, {
    items: [
      {
        externalId: 'iso-r',
        distributerExternalId: 'iso-d',
        name: 'Iso Reseller',
        email: 'staff@iso-reseller.test',
        resellerName: 'Iso Cloud',
      },
    ],
  });
  const imported = await call(server, 'POST', '/imports/company', operator, {
    items: ['a', 'b'].map((key) => ({
      externalId: `iso-${key}`,
      resellerExternalId: 'iso-r',
      name: `Company ${key.toUpperCase()}`,
      admin: { email: `admin@${key}.iso.test`, firstName: 'Admin', lastName: key.toUpperCase() },
    })),
  });
  const companyIds = (imported.items as { id: number }[]).map((item) => item.id);

  const tenants: Tenant[] = [];
  for (const [index, key] of ['a', 'b'].entries()) {
    const admin = await activateAndSignIn(server, `admin@${key}.iso.test`);
    const adminHeaders = bearer(admin.token);
    const { teamId } = await call(server, 'POST', '/teams/create', adminHeaders, {
      name: `Team ${key.toUpperCase()}`,
    });
    const tokens = { admin: admin.token } as Record<CallerRole, string>;
    const userIds = { admin: admin.id } as Record<CallerRole, number>;
    for (const [role, roleId] of Object.entries(teamRoleIds)) {
      const email = `${role}@${key}.iso.test`;
      await call(server, 'POST', '/users/create', adminHeaders, {
        email,
        roleId,
        teamIds: [teamId],
      });
      const member = await activateAndSignIn(server, email);
      tokens[role as CallerRole] = member.token;
      userIds[role as CallerRole] = member.id;
    }
    const order = await smallUbuntuOrder(server.database.db);
    const { ids } = await call(server, 'POST', '/virtualMachines/create', adminHeaders, {
      ...order,
      teamId,
      name: `vm-${key}`,
      numberOfInstances: 1,
    });
    const [primary] = await call(
      server,
      'GET',
      `/networks/listNetAdapters/${ids[0]}`,
      adminHeaders,
    );
    const { token: apiToken } = await call(server, 'POST', '/apiTokens/create', adminHeaders, {
      name: `Billing ${key}`,
      expiresAt: new Date(server.clock.now().getTime() + 30 * 86_400_000).toISOString(),
      access: 'read',
    });
    const { webhook } = await call(server, 'POST', '/webhooks/create', adminHeaders, {
      url: `https://hooks.${key}.iso.test/launchpad`,
      events: ['*'],
    });
    const sshKey = await call(server, 'POST', '/sshKeys/create', adminHeaders, {
      name: `Laptop ${key}`,
      publicKey: ed25519Key(`admin@${key}`).publicKey,
    });
    const [passkey] = await server.database.db
      .insert(webauthnCredentials)
      .values({
        userId: admin.id,
        name: `YubiKey ${key}`,
        credentialId: Buffer.from(`iso-credential-${key}`).toString('base64url'),
        publicKey: Buffer.from(`iso-public-key-${key}`).toString('base64url'),
      })
      .returning({ id: webauthnCredentials.id });
    const second = await signIn(server, `admin@${key}.iso.test`, { password: NEW_PASSWORD });
    const [secondSession] = await server.database.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.tokenHash, hashSecretToken(second.token)));
    tenants.push({
      webhookId: webhook.id,
      apiTokenId: apiToken.id,
      snapshotId: 0,
      sshKeyId: sshKey.id,
      passkeyId: passkey!.id,
      sessionId: secondSession!.id,
      companyId: companyIds[index]!,
      teamId,
      vmId: ids[0],
      interfaceId: primary.id,
      networkId: primary.networkId,
      order,
      tokens,
      userIds,
    });
  }
  await server.finishOperations();
  for (const tenant of tenants) {
    const [snapshot] = await server.database.db
      .insert(vmSnapshots)
      .values({
        companyId: tenant.companyId,
        vmId: tenant.vmId,
        name: 'nightly',
        status: 'available',
        sizeBytes: 1024,
        providerRef: 'snap-isolation',
      })
      .returning({ id: vmSnapshots.id });
    tenant.snapshotId = snapshot!.id;
  }
  return [tenants[0]!, tenants[1]!];
}
