// Two containers, one PostgreSQL (scripts/container/ci.sh): a sign-in begun on the first finishes
// on the second (the pending sign-in is in the database, the keys come from the shared APP_SECRET),
// and a team created through the second is listed through the first.
//
//   node scripts/container/shared-check.js <url A> <url B> <container A> <email> <password>
import { execFileSync } from 'node:child_process';

const [urlA, urlB, containerA, email, password] = process.argv.slice(2);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(base, method, path, body, token) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${base}${path}: ${res.status} ${text}`);
  return { res, data: text ? JSON.parse(text).data : undefined };
}

/** The six digits of the newest sign-in mail in container A's outbox (DATA_DIR/outbox). */
async function signInCode(seenBefore) {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const listing = execFileSync('podman', ['exec', containerA, 'ls', '-1', '/data/outbox'], {
      encoding: 'utf8',
    });
    const files = listing.split('\n').filter((f) => f.endsWith('.eml') && !seenBefore.has(f));
    for (const file of files.sort().reverse()) {
      const mail = execFileSync('podman', ['exec', containerA, 'cat', `/data/outbox/${file}`], {
        encoding: 'utf8',
      });
      const [headers, ...rest] = mail.split(/\r?\n\r?\n/);
      if (!/sign-in code/i.test(headers)) continue;
      const code = rest
        .join('\n')
        .replace(/=\r?\n/g, '')
        .match(/\b(\d{6})\b/)?.[1];
      if (code) return code;
    }
    await sleep(200);
  }
  throw new Error('no sign-in code in the outbox of the first container');
}

const outbox = () =>
  new Set(
    execFileSync(
      'podman',
      ['exec', containerA, 'sh', '-c', 'ls -1 /data/outbox 2>/dev/null || true'],
      {
        encoding: 'utf8',
      },
    ).split('\n'),
  );

const before = outbox();
const { res: login } = await call(urlA, 'POST', '/auth/login', { email, password });
const token = login.headers.get('authorization')?.replace(/^Bearer /, '');
if (!token) throw new Error('the sign-in on the first container gave no token');
const code = await signInCode(before);
await call(urlB, 'POST', '/auth/mfa', { code }, token);
process.stdout.write('a sign-in begun on the first container finished on the second\n');

const name = `container-ci-${Date.now()}`;
await call(urlB, 'POST', '/teams/create', { name }, token);
// A fresh database: its few teams are on the first page.
const { data: teams } = await call(urlA, 'GET', '/teams/list', undefined, token);
if (!JSON.stringify(teams).includes(name)) {
  throw new Error(`the team created through the second container is not listed through the first`);
}
process.stdout.write('a team created through the second container is listed through the first\n');
