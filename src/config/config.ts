import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { isRole, type Role, roles } from '../domain/roles.js';

/** Everything athar reads from its environment, validated once at start. */
export interface Config {
  /** The data folder: SQLite file, blobs, keys. Absolute. */
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; poolSize: number };
  blobs: { kind: 'fs'; root: string };
  server: {
    host: string;
    port: number;
    /**
     * Which proxies in front may speak for the client (X-Forwarded-For/-Proto): false for none, a hop count, or
     * addresses/CIDRs (and proxy-addr's names loopback, linklocal, uniquelocal). Never "every peer".
     */
    trustProxy: false | number | string[];
    webRoot: string;
    /** Server processes sharing the port (node:cluster); 1 serves in this process. */
    workers: number;
    /** The key of reveal grants; null: a random one per start (one process, or one `serve --workers` group). */
    revealKey: Buffer | null;
  };
  log: { level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'; origin: string };
  /** The key that seals contact details; null: read (or, at init, make) <data>/keys/contacts.key. */
  contacts: { key: Buffer | null };
  /** Approved export requests' files: where they are built, and how long one may be fetched. */
  exports: { dir: string; hours: number };
  /** Browser uploads (the /ingest screen): at most this many bytes per upload, staged in <data>/uploads. */
  uploads: { maxBytes: number; dir: string };
  /** OCR (docs/ocr.md): the tesseract binary, or null when turned off (ATHAR_TESSERACT=off). */
  ocr: { tesseract: string | null };
  /** The backup folder the server backs up into from the /backups screen (`athar backup --out` takes any). */
  backups: { dir: string };
  /** Account rules an installation may set (docs/access.md "TOTP" and "Bulk reads of contacts"). */
  accounts: {
    /** Roles whose accounts must use TOTP: new accounts, and accounts given the role, cannot be without it. */
    totpRoles: Role[];
    /** An alert (audit row and log line) when one account reads contacts of this many reports in the window. */
    contactsAlert: { reports: number; windowMs: number };
  };
}

/** Flags given on the command line; they win over the environment. */
export interface ConfigFlags {
  data?: string;
  databaseUrl?: string;
  port?: string | number;
  host?: string;
  workers?: string | number;
  logLevel?: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Each documented variable, with the flag that overrides it. README.md lists the same. */
export const configVariables = {
  ATHAR_DATA: { flag: '--data', default: './data', about: 'data folder: athar.db, blobs/, keys/' },
  ATHAR_DATABASE_URL: {
    flag: '--database-url',
    default: '(SQLite file in the data folder)',
    about:
      'postgres://user:pass@host:5432/db switches to PostgreSQL; sqlite:/path/file.db names another SQLite file',
  },
  ATHAR_DB_POOL_SIZE: { flag: undefined, default: '10', about: 'PostgreSQL connection pool size' },
  ATHAR_BLOBS: { flag: undefined, default: '<data>/blobs', about: 'blob store folder (content-addressed)' },
  ATHAR_HOST: { flag: '--host', default: '127.0.0.1', about: 'address the server binds to' },
  ATHAR_PORT: { flag: '--port', default: '8080', about: 'port the server listens on' },
  ATHAR_WORKERS: {
    flag: '--workers',
    default: '1',
    about:
      'server processes sharing the port, up to the number of cores (one process migrates and signs the log)',
  },
  ATHAR_TRUST_PROXY: {
    flag: undefined,
    default: 'false',
    about:
      'the proxies in front (TLS-terminating): their addresses/CIDRs, comma-separated, or a hop count; true means loopback only. Their X-Forwarded-* is honoured, cookies marked Secure',
  },
  ATHAR_LOG_LEVEL: {
    flag: '--log-level',
    default: 'info',
    about: 'fatal, error, warn, info, debug, trace or silent',
  },
  ATHAR_LOG_ORIGIN: {
    flag: undefined,
    default: 'athar.localhost/log',
    about: "the tamper-evident log's origin line (fixed when the log key is made)",
  },
  ATHAR_WEB_ROOT: { flag: undefined, default: '<repo>/web/dist', about: 'folder of the built web interface' },
  ATHAR_CONTACTS_KEY: {
    flag: undefined,
    default: '(<data>/keys/contacts.key)',
    about:
      'base64 of the 32-byte AES-256-GCM key that seals family contact details (several servers share it)',
  },
  ATHAR_EXPORT_HOURS: {
    flag: undefined,
    default: '72',
    about: 'hours an approved export (court bundle or data export) may be fetched before its file is removed',
  },
  ATHAR_REVEAL_KEY: {
    flag: undefined,
    default: '(random per start)',
    about:
      'base64 of the 32-byte key of reveal grants; give servers behind one balancer the same (serve --workers shares its own)',
  },
  ATHAR_UPLOAD_MAX_BYTES: {
    flag: undefined,
    default: '2147483648',
    about:
      'largest browser upload in bytes (all its files, zips counted unpacked); the command line has no limit',
  },
  ATHAR_BACKUPS: {
    flag: undefined,
    default: '<data>-backups',
    about:
      'the backup folder of the /backups screen (best on another disk); athar backup --out names any folder',
  },
  ATHAR_TESSERACT: {
    flag: undefined,
    default: 'tesseract',
    about:
      'the tesseract binary that reads card numbers and scanned registries (docs/ocr.md); off turns OCR off',
  },
  ATHAR_TOTP_ROLES: {
    flag: undefined,
    default: 'admin,investigator,liaison',
    about:
      'roles whose accounts must use TOTP (comma-separated, or none); by default admins and every role that reads contacts or originals',
  },
  ATHAR_CONTACTS_ALERT: {
    flag: undefined,
    default: '20/60',
    about:
      'REPORTS/MINUTES: alert (audit row contacts_bulk_read, a log line) when one account reads the contacts of that many reports within that many minutes',
  },
} as const;

/** Variables whose values are secrets: never echoed in configuration errors. */
const secretVariables: ReadonlySet<string> = new Set(['ATHAR_CONTACTS_KEY', 'ATHAR_REVEAL_KEY']);

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

const proxyNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One trusted proxy: an address, an address/prefix, or one of proxy-addr's names. */
function isProxyAddress(text: string): boolean {
  if (proxyNames.has(text)) return true;
  const [address = '', prefix, ...rest] = text.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * ATHAR_TRUST_PROXY (docs/access.md "Client addresses"): false, a hop count (1–10), or a list of proxies. `true`
 * trusts a proxy on this machine only (loopback): it no longer lets every peer name its own address.
 */
const trustProxyText = z.string().transform((v, ctx): false | number | string[] => {
  const text = v.trim().toLowerCase();
  if (['false', 'no', 'off', '0', ''].includes(text)) return false;
  if (['true', 'yes', 'on'].includes(text)) return ['loopback'];
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops >= 1 && hops <= 10) return hops;
  } else {
    const list = text
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (list.length > 0 && list.every(isProxyAddress)) return list;
  }
  ctx.addIssue({
    code: 'custom',
    message:
      "must be false, a hop count 1–10, or the proxies' addresses/CIDRs, comma-separated (true: loopback only)",
  });
  return z.NEVER;
});

/** ATHAR_TOTP_ROLES: roles, comma-separated; `none` for no role. */
const totpRolesText = z.string().transform((v, ctx): Role[] => {
  const text = v.trim().toLowerCase();
  if (text === 'none') return [];
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = list.filter((r) => !isRole(r));
  if (list.length === 0 || unknown.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `must be roles (${roles.join(', ')}), comma-separated, or none`,
    });
    return z.NEVER;
  }
  return [...new Set(list)] as Role[];
});

/** ATHAR_CONTACTS_ALERT: REPORTS/MINUTES. */
const contactsAlertText = z.string().transform((v, ctx) => {
  const m = /^\s*(\d{1,6})\s*\/\s*(\d{1,5})\s*$/.exec(v);
  const reports = Number(m?.[1]);
  const minutes = Number(m?.[2]);
  if (!m || reports < 2 || minutes < 1 || minutes > 7 * 24 * 60) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be REPORTS/MINUTES, e.g. 20/60 (at least 2 reports, 1–10080 minutes)',
    });
    return z.NEVER;
  }
  return { reports, windowMs: minutes * 60_000 };
});

const key32 = z
  .string()
  .refine((v) => /^[A-Za-z0-9+/]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32, {
    message: 'must be 32 random bytes in base64 (e.g. openssl rand -base64 32)',
  })
  .optional();

const schema = z.object({
  ATHAR_DATA: z.string().min(1, 'must not be empty'),
  ATHAR_DATABASE_URL: z
    .string()
    .refine((v) => /^(postgres|postgresql):\/\//.test(v) || /^(sqlite|file):/.test(v), {
      message: 'must start with postgres://, postgresql://, sqlite: or file:',
    })
    .optional(),
  ATHAR_DB_POOL_SIZE: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(200, 'must be at most 200'),
  ATHAR_BLOBS: z
    .string()
    .refine((v) => !/^s3:\/\//.test(v), { message: 's3:// blob stores are not supported yet; give a folder' })
    .optional(),
  ATHAR_HOST: z.string().min(1, 'must not be empty'),
  ATHAR_PORT: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0–65535')
    .max(65535, 'must be 0–65535'),
  ATHAR_WORKERS: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be 1–64')
    .max(64, 'must be 1–64'),
  ATHAR_TRUST_PROXY: trustProxyText,
  ATHAR_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'must be one of fatal, error, warn, info, debug, trace, silent',
  }),
  ATHAR_LOG_ORIGIN: z
    .string()
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces, e.g. archive.example.org/log'),
  ATHAR_WEB_ROOT: z.string().optional(),
  ATHAR_CONTACTS_KEY: key32,
  ATHAR_REVEAL_KEY: key32,
  ATHAR_EXPORT_HOURS: z.coerce
    .number({ message: 'must be a number of hours' })
    .int()
    .min(1)
    .max(24 * 90),
  ATHAR_UPLOAD_MAX_BYTES: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number of bytes')
    .min(1024, 'must be at least 1024')
    .max(2 ** 50, 'must be at most 2^50'),
  ATHAR_TESSERACT: z.string().min(1, 'must not be empty'),
  ATHAR_BACKUPS: z.string().optional(),
  ATHAR_TOTP_ROLES: totpRolesText,
  ATHAR_CONTACTS_ALERT: contactsAlertText,
});

/**
 * Reads configuration from the environment and flags. Every problem is collected and reported together;
 * callers turn a ConfigError into exit code 2.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  flags: ConfigFlags = {},
  cwd = process.cwd(),
): Config {
  const pick = (
    name: keyof typeof configVariables,
    flag: string | number | undefined,
  ): string | undefined => {
    if (flag !== undefined && flag !== '') return String(flag);
    const v = env[name];
    return v === undefined || v === '' ? undefined : v;
  };
  const raw = {
    ATHAR_DATA: pick('ATHAR_DATA', flags.data) ?? './data',
    ATHAR_DATABASE_URL: pick('ATHAR_DATABASE_URL', flags.databaseUrl),
    ATHAR_DB_POOL_SIZE: pick('ATHAR_DB_POOL_SIZE', undefined) ?? '10',
    ATHAR_BLOBS: pick('ATHAR_BLOBS', undefined),
    ATHAR_HOST: pick('ATHAR_HOST', flags.host) ?? '127.0.0.1',
    ATHAR_PORT: pick('ATHAR_PORT', flags.port) ?? '8080',
    ATHAR_WORKERS: pick('ATHAR_WORKERS', flags.workers) ?? '1',
    ATHAR_TRUST_PROXY: pick('ATHAR_TRUST_PROXY', undefined) ?? 'false',
    ATHAR_LOG_LEVEL: pick('ATHAR_LOG_LEVEL', flags.logLevel) ?? 'info',
    ATHAR_LOG_ORIGIN: pick('ATHAR_LOG_ORIGIN', undefined) ?? 'athar.localhost/log',
    ATHAR_WEB_ROOT: pick('ATHAR_WEB_ROOT', undefined),
    ATHAR_CONTACTS_KEY: pick('ATHAR_CONTACTS_KEY', undefined),
    ATHAR_REVEAL_KEY: pick('ATHAR_REVEAL_KEY', undefined),
    ATHAR_EXPORT_HOURS: pick('ATHAR_EXPORT_HOURS', undefined) ?? '72',
    ATHAR_UPLOAD_MAX_BYTES: pick('ATHAR_UPLOAD_MAX_BYTES', undefined) ?? '2147483648',
    ATHAR_TESSERACT: pick('ATHAR_TESSERACT', undefined) ?? 'tesseract',
    ATHAR_BACKUPS: pick('ATHAR_BACKUPS', undefined),
    ATHAR_TOTP_ROLES: pick('ATHAR_TOTP_ROLES', undefined) ?? configVariables.ATHAR_TOTP_ROLES.default,
    ATHAR_CONTACTS_ALERT:
      pick('ATHAR_CONTACTS_ALERT', undefined) ?? configVariables.ATHAR_CONTACTS_ALERT.default,
  };
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]) as keyof typeof configVariables;
      const flag = configVariables[name]?.flag;
      const shown = secretVariables.has(name) ? '(hidden)' : JSON.stringify(raw[name as keyof typeof raw]);
      const where = flag ? `${name} (or ${flag})` : name;
      return `${where}: ${issue.message} (got ${shown})`;
    });
    throw new ConfigError(problems);
  }
  const v = parsed.data;
  const dataDir = path.resolve(cwd, v.ATHAR_DATA);
  let database: Config['database'];
  const url = v.ATHAR_DATABASE_URL;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    database = { kind: 'postgres', url, poolSize: v.ATHAR_DB_POOL_SIZE };
  } else if (url) {
    database = { kind: 'sqlite', file: path.resolve(cwd, url.replace(/^(sqlite|file):(\/\/)?/, '')) };
  } else {
    database = { kind: 'sqlite', file: path.join(dataDir, 'athar.db') };
  }
  return {
    dataDir,
    database,
    blobs: { kind: 'fs', root: path.resolve(cwd, v.ATHAR_BLOBS ?? path.join(dataDir, 'blobs')) },
    server: {
      host: v.ATHAR_HOST,
      port: v.ATHAR_PORT,
      trustProxy: v.ATHAR_TRUST_PROXY,
      webRoot: path.resolve(cwd, v.ATHAR_WEB_ROOT ?? path.join(repoRoot, 'web', 'dist')),
      workers: v.ATHAR_WORKERS,
      revealKey: v.ATHAR_REVEAL_KEY ? Buffer.from(v.ATHAR_REVEAL_KEY, 'base64') : null,
    },
    log: { level: v.ATHAR_LOG_LEVEL, origin: v.ATHAR_LOG_ORIGIN },
    contacts: { key: v.ATHAR_CONTACTS_KEY ? Buffer.from(v.ATHAR_CONTACTS_KEY, 'base64') : null },
    exports: { dir: path.join(dataDir, 'exports'), hours: v.ATHAR_EXPORT_HOURS },
    uploads: { maxBytes: v.ATHAR_UPLOAD_MAX_BYTES, dir: path.join(dataDir, 'uploads') },
    ocr: { tesseract: v.ATHAR_TESSERACT === 'off' ? null : v.ATHAR_TESSERACT },
    backups: { dir: path.resolve(cwd, v.ATHAR_BACKUPS ?? `${dataDir}-backups`) },
    accounts: { totpRoles: v.ATHAR_TOTP_ROLES, contactsAlert: v.ATHAR_CONTACTS_ALERT },
  };
}

/** A database URL fit for messages and logs: the password is replaced. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
  }
}
