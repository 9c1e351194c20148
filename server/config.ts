import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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
    z
      .string()
      .check(
        z.trim(),
        z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'SUPPORT_EMAIL must be an e-mail address'),
      ),
    'support@launchpad.local',
  ),
  PUBLIC_URL: optionalString,
  BASE_PATH: z._default(z.string(), '/'),
  BOOTSTRAP_ADMIN_EMAIL: z._default(z.string(), 'admin@example.com'),
  BOOTSTRAP_ADMIN_PASSWORD: optionalString,
  APP_SECRET: optionalString,
  // It opens the bulk imports, so it must not be guessable.
  OPERATOR_TOKEN: optionalString.check(
    z.refine((v) => v === undefined || v.length >= 32, {
      error: 'OPERATOR_TOKEN must be at least 32 characters',
    }),
  ),
  LOG_LEVEL: z._default(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    'info',
  ),
  TRUST_PROXY: z._default(z.stringbool(), false),
  AUTH_RATE_LIMIT: z._default(z.coerce.number().check(z.int(), z.gte(1)), 20),
  QUOTA_NETWORKS_PER_REGION: z._default(
    z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)),
    50,
  ),
  QUOTA_PUBLIC_IPS_PER_REGION: z._default(
    z.coerce.number().check(z.int(), z.gte(1), z.lte(100_000)),
    256,
  ),
  SIM_PROVISION_SECONDS: z._default(z.coerce.number().check(z.gte(0), z.lte(3600)), 8),
  SIM_ACTION_SECONDS: z._default(z.coerce.number().check(z.gte(0), z.lte(3600)), 3),
  SIM_RESIZE_SECONDS: z._default(z.coerce.number().check(z.gte(0), z.lte(3600)), 10),
  LIBVIRT_CONFIG: optionalString,
  OPENSTACK_CONFIG: optionalString,
});

export interface RateLimits {
  /** Requests per minute per client address on each auth route. */
  authPerMinute: number;
  /** Failed logins per address in `loginFailureWindowMs` before the account is throttled. */
  loginFailures: number;
  loginFailureWindowMs: number;
}

export interface NetworkLimits {
  networksPerRegion: number;
  /** Public addresses NATed to interfaces plus the SNAT addresses of standard networks. */
  publicIpsPerRegion: number;
}

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
  /** `/` or `/prefix/`. */
  basePath: string;
  bootstrapAdminEmail: string;
  bootstrapAdminPassword: string | undefined;
  appSecret: string;
  operatorToken: string | undefined;
  logLevel: string;
  trustProxy: boolean;
  cookieSecure: boolean;
  rateLimits: RateLimits;
  /** What one company may hold in one region, so that no company can exhaust a shared pool. */
  limits: NetworkLimits;
  /** How long the embedded sim engine takes, in seconds. */
  sim: { provisionSeconds: number; actionSeconds: number; resizeSeconds: number };
  /** The libvirt provider's configuration file; unset: no libvirt provider. */
  libvirtConfigFile: string | undefined;
  /** The OpenStack providers' configuration file; unset: no OpenStack provider. */
  openStackConfigFile: string | undefined;
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
    basePath,
    bootstrapAdminEmail: e.BOOTSTRAP_ADMIN_EMAIL.trim().toLowerCase(),
    bootstrapAdminPassword: e.BOOTSTRAP_ADMIN_PASSWORD,
    appSecret: loadAppSecret(dataDir, e.APP_SECRET),
    operatorToken: e.OPERATOR_TOKEN,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    cookieSecure: publicUrl.startsWith('https:'),
    rateLimits: {
      authPerMinute: e.AUTH_RATE_LIMIT,
      loginFailures: 10,
      loginFailureWindowMs: 15 * 60_000,
    },
    limits: {
      networksPerRegion: e.QUOTA_NETWORKS_PER_REGION,
      publicIpsPerRegion: e.QUOTA_PUBLIC_IPS_PER_REGION,
    },
    sim: {
      provisionSeconds: e.SIM_PROVISION_SECONDS,
      actionSeconds: e.SIM_ACTION_SECONDS,
      resizeSeconds: e.SIM_RESIZE_SECONDS,
    },
    libvirtConfigFile: e.LIBVIRT_CONFIG && path.resolve(e.LIBVIRT_CONFIG),
    openStackConfigFile: e.OPENSTACK_CONFIG && path.resolve(e.OPENSTACK_CONFIG),
  };
}
