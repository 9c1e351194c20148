import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession, eventually, operatorCalls, type ApiCall } from './support/api-session';
import { startServer, type RunningServer } from './support/server-process';

const OPERATOR_TOKEN = 'e2e-cli-operator-token-0123456789abcdef';
const ADMIN = { email: 'cli-admin@example.com', password: 'Cli!Journey-Passw0rd' };
const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'node_modules', '.bin', 'launchpad');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The client as a user runs it, through the link `npm ci` makes; killed if it outlives 60 s. */
function start(args: string[], env: Record<string, string>, input?: string) {
  const child = spawn(bin, args, {
    cwd: root,
    env: { ...process.env, LAUNCHPAD_URL: '', LAUNCHPAD_TOKEN: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const run: Run = { code: null, stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (run.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (run.stderr += chunk));
  child.stdin.end(input);
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exited = new Promise<Run>((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      run.code = code;
      resolve(run);
    }),
  );
  return { child, run, exited };
}

const launchpad = (args: string[], env: Record<string, string>, input?: string) =>
  start(args, env, input).exited;

describe('the command-line client, as a process against a running server', () => {
  let server: RunningServer;
  let admin: ApiCall;
  let env: Record<string, string>;
  let readOnly: Record<string, string>;
  let secret: string;
  let configHome: string;
  let vmId: number;

  const makeToken = async (access: 'read' | 'readWrite') => {
    const expiresAt = new Date(Date.now() + 24 * 3600_000).toISOString();
    const { secret } = await admin<{ secret: string }>('POST', '/apiTokens/create', {
      name: `cli ${access}`,
      expiresAt,
      access,
    });
    return secret;
  };

  beforeAll(async () => {
    server = await startServer({
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      OPERATOR_TOKEN,
      SIM_PROVISION_SECONDS: '1',
      SIM_ACTION_SECONDS: '1',
      SIM_RESIZE_SECONDS: '1',
    });
    admin = await apiSession(server, ADMIN);
    secret = await makeToken('readWrite');
    configHome = mkdtempSync(path.join(tmpdir(), 'launchpad-cli-'));
    env = { LAUNCHPAD_URL: server.url, LAUNCHPAD_TOKEN: secret, XDG_CONFIG_HOME: configHome };
    readOnly = { ...env, LAUNCHPAD_TOKEN: await makeToken('read') };
  });

  afterAll(async () => {
    await server?.stop();
    if (configHome) rmSync(configHome, { recursive: true, force: true });
  });

  it('logs in from the terminal, saves the token for its owner only, and never prints it', async () => {
    const home = { XDG_CONFIG_HOME: configHome };
    const login = await launchpad(['login'], home, `${server.url}\n${secret}\n`);
    expect(login.stderr).not.toContain(secret);
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(ADMIN.email);
    expect(login.stdout + login.stderr).not.toContain(secret);
    const file = path.join(configHome, 'launchpad', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);

    const list = await launchpad(['vm', 'list', '--output', 'json'], home);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('creates a VM and waits until it runs, then lists it as JSON and as a table', async () => {
    const create = await launchpad(
      [
        'vm',
        'create',
        '--name',
        'cli-web',
        '--region',
        'Los Angeles',
        '--image',
        'Ubuntu 24.04',
        '--size',
        'small',
        '--wait',
        '--output',
        'json',
      ],
      env,
    );
    expect(create.stderr).toBe('');
    expect(create.code).toBe(0);
    [vmId] = (JSON.parse(create.stdout) as { ids: number[] }).ids as [number];

    const json = await launchpad(['vm', 'list', '-o', 'json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject([
      { id: vmId, name: 'cli-web', status: 'Running' },
    ]);

    const table = await launchpad(['vm', 'list'], env);
    const [header, row] = table.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^\s*ID\s+NAME\s+STATUS\s+SIZE/);
    expect(row).toMatch(new RegExp(`^\\s*${vmId}\\s+cli-web\\s+Running\\s+`));
    // Not a terminal: no colour codes.
    expect(table.stdout).not.toContain('\u001b[');
  });

  it('upgrades the VM to a size named by its key, and waits for it', async () => {
    const upgrade = await launchpad(
      ['vm', 'upgrade', String(vmId), '--size', 'medium', '--wait'],
      env,
    );
    expect(upgrade.stderr).toBe('');
    expect(upgrade.code).toBe(0);
    const show = await launchpad(['vm', 'show', String(vmId), '-o', 'json'], env);
    expect(JSON.parse(show.stdout)).toMatchObject({
      status: 'Running',
      virtualMachine: { configuration: 'Medium' },
    });
  });

  it('creates, shows, lists and deletes a network, and lists the teams', async () => {
    const create = await launchpad(
      [
        'network',
        'create',
        '--name',
        'cli-net',
        '--region',
        'Los Angeles',
        '--cidr',
        '10.77.0.0/24',
        '--wait',
        '-o',
        'json',
      ],
      env,
    );
    expect(create.stderr).toBe('');
    expect(create.code).toBe(0);
    const { id } = JSON.parse(create.stdout) as { id: number };

    const show = await launchpad(['network', 'show', String(id)], env);
    expect(show.stdout).toMatch(/^Gateway:\s+10\.77\.0\.1$/m);
    const list = await launchpad(['network', 'list'], env);
    expect(list.stdout).toMatch(new RegExp(`^\\s*${id}\\s+cli-net\\s+10\\.77\\.0\\.0/24\\s`, 'm'));

    const remove = await launchpad(['network', 'delete', String(id), '--wait'], env);
    expect(remove.stderr).toBe('');
    expect(remove.code).toBe(0);
    expect((await launchpad(['network', 'show', String(id)], env)).code).toBe(5);

    await admin('POST', '/teams/create', { name: 'CLI team' });
    const teams = await launchpad(['team', 'list', '-o', 'json'], env);
    expect(JSON.parse(teams.stdout)).toMatchObject([{ name: 'CLI team', vmCount: 0 }]);
  });

  it('exits non-zero with the reason when the operation it waits for fails', async () => {
    await operatorCalls(server, OPERATOR_TOKEN)('/sim/faults', {
      kind: 'fail',
      action: 'reboot',
      message: 'Hypervisor said no',
    });
    const reset = await launchpad(['vm', 'reset', String(vmId), '--wait'], env);
    expect(reset.code).toBe(1);
    expect(reset.stderr).toContain(`VM ${vmId} failed:`);
    expect(reset.stderr).toContain('Hypervisor said no');
  });

  it('refuses a read-only token a stop and a console link, and gives a read-write token one', async () => {
    const stop = await launchpad(['vm', 'stop', String(vmId)], readOnly);
    expect(stop.code).toBe(4);
    expect(stop.stderr).toContain('This API token can only read (403)');
    const refused = await launchpad(['vm', 'console-url', String(vmId)], readOnly);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('This API token can only read (403)');

    const consoleUrl = await launchpad(['vm', 'console-url', String(vmId), '-o', 'json'], env);
    expect(consoleUrl.stderr).toBe('');
    const link = (JSON.parse(consoleUrl.stdout) as { consoleUrl: string }).consoleUrl;
    expect(link.startsWith(`${server.url}`)).toBe(true);
    // A browser with no session of the user's opens it: the link is the pass.
    expect((await fetch(link)).status).toBe(200);
  });

  it('stops the VM with --wait while a follower sees the events arrive', async () => {
    const follower = start(['events', '--follow', '--output', 'json'], env);
    try {
      await eventually(async () => follower.run.stderr.includes('following events'), 30, 'follow');
      const stop = await launchpad(['vm', 'stop', String(vmId), '--wait'], env);
      expect(stop.stderr).toBe('');
      expect(stop.code).toBe(0);
      const show = await launchpad(['vm', 'show', String(vmId), '-o', 'json'], env);
      expect(JSON.parse(show.stdout)).toMatchObject({ status: 'Stopped', statusMessage: null });

      const stopEnded = () =>
        follower.run.stdout
          .split('\n')
          .filter(Boolean)
          .map(
            (line) =>
              JSON.parse(line) as { action: string; outcome: string; subject: { id: number } },
          )
          .some(
            (e) => e.action === 'vm.stop' && e.outcome === 'succeeded' && e.subject.id === vmId,
          );
      await eventually(async () => stopEnded(), 30, 'the stop event');
    } finally {
      follower.child.kill('SIGTERM');
      await follower.exited;
    }
  });

  it('deletes the VM with --wait, after which it is not found', async () => {
    const remove = await launchpad(['vm', 'delete', String(vmId), '--wait'], env);
    expect(remove.stderr).toBe('');
    expect(remove.code).toBe(0);
    const show = await launchpad(['vm', 'show', String(vmId)], env);
    expect(show.code).toBe(5);
    expect(show.stderr).toContain('Virtual machine not found (404)');
  });

  it('says a bad token is refused, without printing it', async () => {
    const bad = `lp_${'x'.repeat(43)}`;
    const list = await launchpad(['vm', 'list'], { ...env, LAUNCHPAD_TOKEN: bad });
    expect(list.code).toBe(3);
    expect(list.stderr).toMatch(/\(401\)/);
    expect(list.stderr).toContain('launchpad login');
    expect(list.stdout + list.stderr).not.toContain(bad);
  });

  it('answers a bad argument with the usage line, and the field the server named', async () => {
    const show = await launchpad(['vm', 'show', 'abc'], env);
    expect(show.code).toBe(2);
    expect(show.stderr).toContain('id must be a positive whole number');
    expect(show.stderr).toContain('Usage: launchpad vm show <id>');

    const create = await launchpad(
      [
        'vm',
        'create',
        '--name',
        'bad name!',
        '--region',
        'Los Angeles',
        '--image',
        'Ubuntu 24.04',
        '--size',
        'small',
      ],
      env,
    );
    expect(create.code).toBe(2);
    expect(create.stderr).toMatch(/^\s+name: VM name can contain only/m);
    expect(create.stderr).toContain('Usage: launchpad vm create');

    const unknown = await launchpad(['vm', 'list', '--colour'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--colour'");
  });

  it('says when nothing is configured', async () => {
    const list = await launchpad(['team', 'list'], {
      XDG_CONFIG_HOME: path.join(configHome, 'none'),
    });
    expect(list.code).toBe(3);
    expect(list.stderr).toContain('run "launchpad login"');
  });
});
