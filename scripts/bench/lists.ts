import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { connectPglite, connectPostgres, type Database } from '../../server/db/client';
import * as schema from '../../server/schema';
import {
  CONNECTIONS,
  freePort,
  load,
  SECONDS,
  startProcess,
  stopProcess,
  type Load,
} from './http-load';
import { startCluster } from './postgres-cluster';
import { seedTwoCompanies, type SeededCompany } from './seed-vms';

const VMS = 100_000;

/** The list's page 1 as the database alone answers it: the limit the API is measured against. */
const barePageQuery = (companyId: number) => `
select v.id, v.name, v.status, c.name as configuration, c.cpu, c.ram, v.created_at
from virtual_machines v join configurations c on c.id = v.configuration_id
where v.company_id = ${companyId} and v.deleted_at is null
order by v.name_key, v.id limit 10`;

interface Run {
  database: string;
  limit: { label: string; perSecond: number };
  loads: Load[];
}

/** The API through HTTP, as a client sees it, with the server in a process of its own. */
async function measureApi(env: Record<string, string>, company: SeededCompany): Promise<Load[]> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/api/v1`;
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'launchpad-bench-'));
  const server = await startProcess(
    'server/main.ts',
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      APP_SECRET: 'bench-secret-bench-secret-bench-secret',
      ...env,
    },
    `${base}/healthCheck/ready`,
  );
  const admin = { authorization: `Bearer ${company.adminToken}` };
  const viewer = { authorization: `Bearer ${company.viewerToken}` };
  try {
    return [
      await load('VM list, page 1', `${base}/virtualMachines/list?page=1`, admin),
      await load('VM list, page 5,000', `${base}/virtualMachines/list?page=5000`, admin),
      await load('VM list, search "abc1"', `${base}/virtualMachines/list?search=abc1`, admin),
      await load(
        'VM list, newest first',
        `${base}/virtualMachines/list?sortColumn=createdAt&sortDescending=true`,
        admin,
      ),
      await load('VM list, a Viewer (team scope)', `${base}/virtualMachines/list?page=1`, viewer),
      await load('GET /users/me', `${base}/users/me`, admin),
    ];
  } finally {
    await stopProcess(server);
    if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function seed(database: Database) {
  await database.migrate();
  const started = performance.now();
  const companies = await seedTwoCompanies(database.db, VMS);
  console.warn(
    `  seeded 2 x ${VMS.toLocaleString('en')} VMs in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return companies[0]!;
}

async function onPostgres(): Promise<Run> {
  const cluster = startCluster(await freePort());
  try {
    const database = connectPostgres(schema, cluster.url);
    const company = await seed(database);
    await database.close();
    const loads = await measureApi({ DATABASE_URL: cluster.url }, company);
    const queryFile = path.join(tmpdir(), `launchpad-bench-${process.pid}.sql`);
    writeFileSync(queryFile, barePageQuery(company.companyId));
    const out = cluster.tool('pgbench', [
      '-n',
      '-M',
      'prepared',
      '-c',
      String(CONNECTIONS),
      '-j',
      '2',
      '-T',
      String(SECONDS),
      '-f',
      queryFile,
      'postgres',
    ]);
    rmSync(queryFile);
    const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
    return {
      database: 'PostgreSQL 15',
      limit: { label: 'pgbench, bare page query', perSecond: tps },
      loads,
    };
  } finally {
    cluster.stop();
  }
}

async function onPglite(): Promise<Run> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'launchpad-bench-'));
  try {
    const database = connectPglite(schema, path.join(dataDir, 'pglite'));
    const company = await seed(database);
    // PGlite is one connection in the server's own process: its limit is one query after another.
    const query = barePageQuery(company.companyId);
    let done = 0;
    const until = performance.now() + SECONDS * 1000;
    while (performance.now() < until) {
      await database.db.execute(query);
      done += 1;
    }
    await database.close();
    const loads = await measureApi({ DATA_DIR: dataDir }, company);
    return {
      database: 'PGlite (embedded)',
      limit: { label: 'bare page query, in process', perSecond: done / SECONDS },
      loads,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function bareFastify(): Promise<Load> {
  const port = await freePort();
  const server = await startProcess(
    'scripts/bench/bare-fastify.ts',
    { PORT: String(port) },
    `http://127.0.0.1:${port}/`,
  );
  try {
    return await load('bare Fastify, one route', `http://127.0.0.1:${port}/`);
  } finally {
    await stopProcess(server);
  }
}

function print(run: Run, fastify: Load) {
  const page1 = run.loads[0]!;
  console.warn(
    `\n${run.database}: ${run.limit.label} ${run.limit.perSecond.toFixed(0)}/s; ${fastify.label} ${fastify.rps.toFixed(0)} req/s`,
  );
  console.warn('| what | req/s | p99 ms | of the limit | of page 1 |');
  console.warn('| --- | ---: | ---: | ---: | ---: |');
  for (const l of run.loads) {
    const limit = l.label === 'GET /users/me' ? fastify.rps : run.limit.perSecond;
    console.warn(
      `| ${l.label} | ${l.rps.toFixed(0)} | ${l.p99Ms.toFixed(0)} | ${((l.rps / limit) * 100).toFixed(1)}% | ${(l.rps / page1.rps).toFixed(2)} |`,
    );
  }
}

/**
 * The lists at scale, through HTTP at 50 connections (autocannon), on PostgreSQL (a cluster of its
 * own) and on PGlite, each beside its own limit measured in the same run: pgbench of the bare page
 * query, the bare query in process for PGlite, and bare Fastify for `/users/me`.
 */
async function main() {
  const only = process.argv[2];
  console.warn(
    `Lists at ${VMS.toLocaleString('en')} VMs in each of two companies; ${CONNECTIONS} connections, ${SECONDS} s each; ${availableParallelism()} cores; ${new Date().toISOString().slice(0, 10)}`,
  );
  const fastify = await bareFastify();
  if (only !== 'pglite') print(await onPostgres(), fastify);
  if (only !== 'postgres') print(await onPglite(), fastify);
}

await main();
