import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { EMAIL_PATTERN } from '../src/api/contract/validation';
import { z } from '../src/api/contract/zod';

const optionalString = z.optional(
  z.pipe(
    z.string().check(z.trim()),
    z.transform((v) => v || undefined),
  ),
);

const envSchema = z.object({
  PORT: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(65535)), 3000),
  HOST: z._default(z.string(), '127.0.0.1'),
  DATA_DIR: z._default(z.string(), './data'),
  DATABASE_URL: optionalString,
  DATABASE_POOL_SIZE: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(1000))),
  SMTP_URL: optionalString,
  MAIL_FROM: z._default(z.string(), 'Launchpad <no-reply@launchpad.local>'),
  SUPPORT_EMAIL: z._default(
    z.string().check(z.trim(), z.regex(EMAIL_PATTERN, 'SUPPORT_EMAIL must be an e-mail address')),
    'support@launchpad.local',
  ),
  PUBLIC_URL: optionalString,
  BASE_PATH: z._default(z.string(), '/'),
  BOOTSTRAP_ADMIN_EMAIL: z._default(z.string(), 'admin@example.com'),
  BOOTSTRAP_ADMIN_PASSWORD: optionalString,
  // Every key of the product is derived from it (server/domain/app-keys.ts): 32 characters at least.
  APP_SECRET: optionalString.check(
    z.refine((v) => v === undefined || v.length >= 32, {
      error: 'APP_SECRET must be at least 32 characters',
    }),
  ),
  // It opens the bulk imports, so it must not be guessable.
  OPERATOR_TOKEN: optionalString.check(
    z.refine((v) => v === undefined || v.length >= 32, {
      error: 'OPERATOR_TOKEN must be at least 32 characters',
    }),
  ),
  // It opens /metrics on the public port, so it must not be guessable either.
  METRICS_TOKEN: optionalString.check(
    z.refine((v) => v === undefined || v.length >= 32, {
      error: 'METRICS_TOKEN must be at least 32 characters',
    }),
  ),
  METRICS_HOST: z._default(z.string(), '127.0.0.1'),
  // Unset or empty: no listener of its own (a coerced empty string would be port 0, any port).
  METRICS_PORT: optionalString.check(
    z.refine((v) => v === undefined || (/^\d{1,5}$/.test(v) && Number(v) <= 65535), {
      error: 'METRICS_PORT must be a port number',
    }),
  ),
  LOG_LEVEL: z._default(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    'info',
  ),
  TRUST_PROXY: z._default(z.string(), 'false'),
  AUTH_RATE_LIMIT: z._default(z.coerce.number().check(z.int(), z.gte(1)), 20),
  API_TOKEN_RATE_LIMIT: z._default(z.coerce.number().check(z.int(), z.gte(1)), 600),
  QUOTA_NETWORKS_PER_REGION: z._default(
    z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)),
    50,
  ),
  QUOTA_PUBLIC_IPS_PER_REGION: z._default(
    z.coerce.number().check(z.int(), z.gte(1), z.lte(100_000)),
    256,
  ),
  QUOTA_VMS_PER_REGION: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100_000)), 100),
  QUOTA_VCPUS_PER_REGION: z._default(
    z.coerce.number().check(z.int(), z.gte(1), z.lte(1_000_000)),
    512,
  ),
  QUOTA_RAM_GB_PER_REGION: z._default(
    z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000_000)),
    2048,
  ),
  SIM_PROVISION_SECONDS: z._default(z.coerce.number().check(z.gte(0), z.lte(3600)), 8),
  SIM_ACTION_SECONDS: z._default(z.coerce.number().check(z.gte(0), z.lte(3600)), 3),
  SIM_RESIZE_SECONDS: z._default(z.coerce.number().check(z.gte(0), z.lte(3600)), 10),
  LIBVIRT_CONFIG: optionalString,
  OPENSTACK_CONFIG: optionalString,
  WEBHOOK_ALLOW_PRIVATE: z._default(z.stringbool(), false),
  RESELLER_DOMAIN_CHECK: z._default(z.enum(['dns', 'off']), 'dns'),
  SHUTDOWN_TIMEOUT_SECONDS: z._default(z.coerce.number().check(z.gt(0), z.lte(3600)), 25),
  SHUTDOWN_DELAY_SECONDS: z._default(z.coerce.number().check(z.gte(0), z.lte(3600)), 0),
});

export interface RateLimits {
  /** Requests per minute per client address on each auth route. */
  authPerMinute: number;
  /** Requests per minute per API token, over all routes. */
  apiTokenPerMinute: number;
  /** Failed logins per address in `loginFailureWindowMs` before the account is throttled. */
  loginFailures: number;
  loginFailureWindowMs: number;
}

export interface CompanyLimits {
  networksPerRegion: number;
  /** Public addresses NATed to interfaces plus the SNAT addresses of standard networks. */
  publicIpsPerRegion: number;
  vmsPerRegion: number;
  vcpusPerRegion: number;
  ramGbPerRegion: number;
}

/**
 * Whom to believe about the client's address (Fastify's `trustProxy`): false, a number of proxy
 * hops in front of the server, or the proxies' own addresses and CIDRs. Never `true`, which would
 * believe the left-most `X-Forwarded-For` entry: the one the client writes itself.
 */
export type TrustProxy = false | number | string[];

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Connections to PostgreSQL; undefined: sized for the machine's cores. */
  databasePoolSize: number | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where the Support page's messages are e-mailed. */
  supportEmail: string;
  /** Where e-mailed links point, always ending with the base path and a slash. */
  publicUrl: string;
  /** PUBLIC_URL's origin: the only one the console's pages are served from. */
  publicOrigin: string;
  /** `/` or `/prefix/`. */
  basePath: string;
  bootstrapAdminEmail: string;
  bootstrapAdminPassword: string | undefined;
  appSecret: string;
  operatorToken: string | undefined;
  /**
   * `/metrics`: on the public port behind `token`, and/or on an address of its own when `port`
   * is set; with neither, nowhere.
   */
  metrics: { token: string | undefined; host: string; port: number | undefined };
  logLevel: string;
  trustProxy: TrustProxy;
  cookieSecure: boolean;
  rateLimits: RateLimits;
  /** What one company may hold in one region, so that no company can exhaust a shared pool. */
  limits: CompanyLimits;
  /** How long the embedded sim engine takes, in seconds. */
  sim: { provisionSeconds: number; actionSeconds: number; resizeSeconds: number };
  /** The libvirt provider's configuration file; unset: no libvirt provider. */
  libvirtConfigFile: string | undefined;
  /** The OpenStack providers' configuration file; unset: no OpenStack provider. */
  openStackConfigFile: string | undefined;
  /** Webhooks may use plain HTTP and reach private addresses (tests, private installations). */
  webhookAllowPrivate: boolean;
  /**
   * How a domain a reseller adds in its settings is proven to be its own: `dns`, the TXT record
   * `_launchpad.<host>`; `off`, not at all (tests, a private installation). Imported domains are
   * the operator's word and never checked.
   */
  resellerDomainCheck: 'dns' | 'off';
  /**
   * After SIGTERM: how long the process keeps accepting while its readiness check says 503 (so
   * that load balancers stop sending first), and how long it may take in all before it exits anyway.
   */
  shutdown: { delayMs: number; timeoutMs: number };
}

export function normalizeBasePath(value: string): string {
  const trimmed = value.trim().replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}/` : '/';
}

/** APP_SECRET, or one generated once into the data folder so restarts keep sessions valid. */
function loadAppSecret(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

const isAddressOrCidr = (value: string) => {
  const [address, prefix, ...rest] = value.split('/');
  const family = isIP(address ?? '');
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
};

/** `true` is one hop: the address the proxy in front of the server saw. */
export function parseTrustProxy(value: string): TrustProxy | undefined {
  const v = value.trim().toLowerCase();
  if (['', 'false', 'no', 'off', '0'].includes(v)) return false;
  if (['true', 'yes', 'on'].includes(v)) return 1;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  const list = v.split(',').map((part) => part.trim());
  return list.every(isAddressOrCidr) ? list : undefined;
}

/**
 * TRUST_PROXY as Fastify's option. Fastify takes a hop count only to refuse it (it cannot tell a
 * proxy from a client that writes the header itself); as a function, the address used is the one
 * the farthest trusted proxy saw.
 */
export const trustProxyOption = (trust: TrustProxy) =>
  typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;

/** A setting the server cannot start with: said in one line, without a stack trace. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(`Configuration error: ${message}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      const name = i.path.join('.');
      return i.message.startsWith(name) ? i.message : `${name}: ${i.message}`;
    });
    throw new ConfigError(problems.join('; '));
  }
  const e = parsed.data;
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (trustProxy === undefined) {
    throw new ConfigError(
      "TRUST_PROXY must be false, true (one proxy), a number of proxy hops, or the proxies' addresses or CIDRs separated by commas",
    );
  }
  if (e.SHUTDOWN_DELAY_SECONDS >= e.SHUTDOWN_TIMEOUT_SECONDS) {
    throw new ConfigError('SHUTDOWN_DELAY_SECONDS must be less than SHUTDOWN_TIMEOUT_SECONDS');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const basePath = normalizeBasePath(e.BASE_PATH);
  const publicHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  const publicUrl = (e.PUBLIC_URL ?? `http://${publicHost}:${e.PORT}${basePath}`).replace(
    /\/*$/,
    '/',
  );
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    publicUrl,
    publicOrigin: new URL(publicUrl).origin,
    basePath,
    bootstrapAdminEmail: e.BOOTSTRAP_ADMIN_EMAIL.trim().toLowerCase(),
    bootstrapAdminPassword: e.BOOTSTRAP_ADMIN_PASSWORD,
    appSecret: loadAppSecret(dataDir, e.APP_SECRET),
    operatorToken: e.OPERATOR_TOKEN,
    metrics: {
      token: e.METRICS_TOKEN,
      host: e.METRICS_HOST,
      port: e.METRICS_PORT === undefined ? undefined : Number(e.METRICS_PORT),
    },
    logLevel: e.LOG_LEVEL,
    trustProxy,
    cookieSecure: publicUrl.startsWith('https:'),
    rateLimits: {
      authPerMinute: e.AUTH_RATE_LIMIT,
      apiTokenPerMinute: e.API_TOKEN_RATE_LIMIT,
      loginFailures: 10,
      loginFailureWindowMs: 15 * 60_000,
    },
    limits: {
      networksPerRegion: e.QUOTA_NETWORKS_PER_REGION,
      publicIpsPerRegion: e.QUOTA_PUBLIC_IPS_PER_REGION,
      vmsPerRegion: e.QUOTA_VMS_PER_REGION,
      vcpusPerRegion: e.QUOTA_VCPUS_PER_REGION,
      ramGbPerRegion: e.QUOTA_RAM_GB_PER_REGION,
    },
    sim: {
      provisionSeconds: e.SIM_PROVISION_SECONDS,
      actionSeconds: e.SIM_ACTION_SECONDS,
      resizeSeconds: e.SIM_RESIZE_SECONDS,
    },
    libvirtConfigFile: e.LIBVIRT_CONFIG && path.resolve(e.LIBVIRT_CONFIG),
    openStackConfigFile: e.OPENSTACK_CONFIG && path.resolve(e.OPENSTACK_CONFIG),
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    resellerDomainCheck: e.RESELLER_DOMAIN_CHECK,
    shutdown: {
      delayMs: e.SHUTDOWN_DELAY_SECONDS * 1000,
      timeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    },
  };
}
