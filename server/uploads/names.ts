/**
 * Names, paths and types of uploads.
 *
 * - The stored name keeps letters, digits, marks, '_', '.', '-'; runs of
 *   spaces and dashes become one '-'. That drops path separators, control
 *   and format characters and the brackets a markdown link text cannot
 *   hold; '..' cannot survive either. An empty result becomes
 *   `uploaded-file`.
 * - The path id (what follows /user_uploads/) is the realm id, two random
 *   directories and the percent-encoded name, exactly as it appears in the
 *   URL, so finding the URL in a message is a plain substring search.
 * - Served inline: only types a browser renders without running anything
 *   (images other than SVG, PDF, audio, video, plain text). Every other type
 *   is sent as an application/octet-stream attachment.
 */
import { randomBytes } from 'node:crypto';

const DEFAULT_NAME = 'uploaded-file';
const MAX_NAME_LENGTH = 150;

export function sanitizeFilename(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  const name = base
    .normalize('NFKC')
    .replace(/\p{C}/gu, '')
    .replace(/[^\p{L}\p{N}\p{M}_.\s-]/gu, '')
    .trim()
    .replace(/[-\s]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.-]+|\.+$/g, '');
  return truncate(name) || DEFAULT_NAME;
}

/** At most MAX_NAME_LENGTH code points, keeping a short extension. */
function truncate(name: string): string {
  const chars = [...name];
  if (chars.length <= MAX_NAME_LENGTH) return name;
  const extension = /\.[\p{L}\p{N}]{1,16}$/u.exec(name)?.[0] ?? '';
  const stem = chars.slice(0, MAX_NAME_LENGTH - [...extension].length).join('');
  return stem.replace(/[.-]+$/, '') + extension;
}

export function newPathId(realmId: number, filename: string): string {
  return `${realmId}/${randomBytes(1).toString('hex')}/${randomBytes(18).toString('base64url')}/${encodeURIComponent(filename)}`;
}

export function uploadUrl(pathId: string): string {
  return `/user_uploads/${pathId}`;
}

/** The path id a requested URL path denotes, whatever characters the client chose to percent-encode. */
export function canonicalPathId(requested: string): string | null {
  const segments = requested.split('/');
  try {
    return segments.map((segment) => encodeURIComponent(decodeURIComponent(segment))).join('/');
  } catch {
    return null;
  }
}

const GUESSED_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  js: 'text/javascript',
  json: 'application/json',
  xml: 'application/xml',
  zip: 'application/zip',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
};

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/** The declared type without parameters, or a guess from the name when none (or a generic one) was declared. */
export function uploadContentType(declared: string | undefined | null, filename: string): string {
  const type = (declared ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (MEDIA_TYPE.test(type) && type !== 'application/octet-stream') return type;
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  return (extension && GUESSED_TYPES[extension]) || 'application/octet-stream';
}

const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'application/pdf',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'text/plain',
]);

export interface ServingHeaders {
  'content-type': string;
  'content-disposition': string;
  'x-content-type-options': 'nosniff';
}

export function servingHeaders(contentType: string, filename: string): ServingHeaders {
  const inline = INLINE_TYPES.has(contentType);
  const type = !inline ? 'application/octet-stream' : contentType === 'text/plain' ? 'text/plain; charset=utf-8' : contentType;
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return {
    'content-type': type,
    'content-disposition': `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    'x-content-type-options': 'nosniff',
  };
}
