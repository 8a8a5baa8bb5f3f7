import { resolve } from 'node:path';

/** Server settings, read once from the environment; defaults live here only. */
export interface ServerConfig {
  host: string;
  port: number;
  /** PostgreSQL connection string; null selects the embedded database. */
  databaseUrl: string | null;
  /**
   * DATABASE_FOLLOW_CHANGES (PostgreSQL only, default true): keep
   * authentications and message views and drop them on the committed changes
   * PostgreSQL notifies (server/docs/change-feed.md). False: every request
   * reads them, so another process's change counts from the very next
   * request, at one more statement per request.
   */
  databaseFollowChanges: boolean;
  /** Embedded database files and the server secret. */
  dataDir: string;
  /** Password of every human account of the demo organization. */
  demoPassword: string;
  /** Advertised feature level; null means the highest level in the spec. */
  featureLevel: number | null;
  uploadDir: string;
  /** 32 bytes sealing stored API keys; null: read or create DATA_DIR/secret.key. */
  secretKey: Buffer | null;
  /** Server setting WEB_PUBLIC_STREAMS_ENABLED. */
  webPublicStreamsEnabled: boolean;
  /** Server setting INVITATION_LINK_VALIDITY_MINUTES. */
  invitationLinkValidityMinutes: number;
  /** Server setting CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE. */
  canAccessAllUsersGroupLimitsPresence: boolean;
  /** Failed fetch_api_key attempts allowed per username within the window. */
  loginFailureLimit: number;
  /** Failed fetch_api_key attempts allowed per client address (any usernames) within the window. */
  loginFailureLimitPerAddress: number;
  loginFailureWindowSeconds: number;
  videoCall: VideoCallConfig;
}

/**
 * Defaults to a provider whose meeting URLs match the documentation's
 * examples, so the demo works out of the box; VIDEO_CALL_PROVIDER=none turns
 * the integration off.
 */
export interface VideoCallConfig {
  /** Provider name, e.g. 'jitsi_meet'; null: the integration is not configured. */
  provider: string | null;
  /** Meeting URLs are this base followed by a random room name. */
  baseUrl: string | null;
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): ServerConfig {
  const dataDir = resolve(text(env, 'DATA_DIR') ?? './data');
  const videoCall = videoCallConfig(env);
  return {
    host: text(env, 'HOST') ?? '127.0.0.1',
    port: integer(env, 'PORT', 9991, 0, 65535),
    databaseUrl: text(env, 'DATABASE_URL') ?? null,
    databaseFollowChanges: boolean(env, 'DATABASE_FOLLOW_CHANGES', true),
    dataDir,
    demoPassword: text(env, 'DEMO_PASSWORD') ?? 'demo1234',
    featureLevel: env.FEATURE_LEVEL?.trim() ? integer(env, 'FEATURE_LEVEL', 0, 0, 100_000) : null,
    uploadDir: resolve(text(env, 'UPLOAD_DIR') ?? `${dataDir}/uploads`),
    secretKey: secret(env),
    webPublicStreamsEnabled: boolean(env, 'WEB_PUBLIC_STREAMS_ENABLED', true),
    invitationLinkValidityMinutes: integer(env, 'INVITATION_LINK_VALIDITY_MINUTES', 14400, 1, 10_000_000),
    canAccessAllUsersGroupLimitsPresence: boolean(env, 'CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE', false),
    loginFailureLimit: integer(env, 'LOGIN_FAILURE_LIMIT', 10, 1, 1_000_000),
    // Higher than per username: several people may share one address.
    loginFailureLimitPerAddress: integer(env, 'LOGIN_FAILURE_LIMIT_PER_ADDRESS', 30, 1, 1_000_000),
    loginFailureWindowSeconds: integer(env, 'LOGIN_FAILURE_WINDOW_SECONDS', 600, 1, 86_400 * 365),
    videoCall,
  };
}

function videoCallConfig(env: Env): VideoCallConfig {
  const provider = text(env, 'VIDEO_CALL_PROVIDER') ?? 'jitsi_meet';
  if (provider === 'none') return { provider: null, baseUrl: null };
  const baseUrl = text(env, 'VIDEO_CALL_BASE_URL') ?? 'https://meet.example.com';
  if (!/^https?:\/\/[^/]/.test(baseUrl)) throw new Error(`VIDEO_CALL_BASE_URL must be an http(s) URL: ${baseUrl}`);
  return { provider, baseUrl: baseUrl.replace(/\/+$/, '') };
}

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = text(env, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}: ${value}`);
  }
  return Number(value);
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const value = text(env, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new Error(`${name} must be true or false: ${value}`);
}

function secret(env: Env): Buffer | null {
  const value = text(env, 'SECRET_KEY');
  if (value === undefined) return null;
  if (!/^[0-9a-fA-F]{64}$/.test(value)) throw new Error('SECRET_KEY must be 64 hexadecimal characters (32 bytes)');
  return Buffer.from(value, 'hex');
}
