/**
 * `multipart/form-data` bodies: `@fastify/multipart` registered without its
 * cleanup hooks (docs/decisions/0012-multipart-without-cleanup-hooks.md),
 * and a body's parts read into fields and files in memory.
 */
import multipart, { type FastifyMultipartOptions } from '@fastify/multipart';
import type { FastifyInstance, FastifyPluginCallback, FastifyRequest } from 'fastify';
import { ApiError, frameworkError, messageOf, statusOf, tooLarge } from './errors.js';
import { appendField, Fields, type FormFields } from './parsing.js';
import type { RawRequest } from '../validators-runtime/index.js';

export type RawFile = NonNullable<RawRequest['files']>[number];

/** Multipart parts beyond this many are refused, so a body of tiny parts cannot pile up. */
const MAX_PARTS = 1000;

/**
 * `@fastify/multipart` without the hooks it adds for its disk mode
 * (`saveRequestFiles`): an `onRequest` hook that listens for the response's
 * 'close' and an `onResponse` hook, both there to delete temporary files.
 * The bindings only read parts as streams into memory (`request.parts()`), so
 * there is never a file to delete, and those two async hooks would otherwise
 * run on every request of every operation (every operation accepts
 * multipart bodies). The parser and the request decorators are the plugin's own.
 */
const streamingMultipart: FastifyPluginCallback<FastifyMultipartOptions> = Object.assign(
  (instance: FastifyInstance, options: FastifyMultipartOptions, done: (error?: Error) => void) => {
    const withoutCleanupHooks = new Proxy(instance, {
      get(target, property, receiver) {
        if (property !== 'addHook') return Reflect.get(target, property, receiver) as unknown;
        return (name: string, hook: unknown) => {
          if (name === 'onRequest' || name === 'onResponse') return receiver;
          (target.addHook as (name: string, hook: unknown) => unknown)(name, hook);
          return receiver;
        };
      },
    });
    (multipart as unknown as FastifyPluginCallback<FastifyMultipartOptions>)(withoutCleanupHooks, options, done);
  },
  // Runs in the API scope itself, as the plugin does (fastify-plugin's marker).
  { [Symbol.for('skip-override')]: true },
);

/** Registers the multipart parser in the API's scope, files and fields limited to `bodyLimit` bytes. */
export async function registerMultipart(scope: FastifyInstance, bodyLimit: number): Promise<void> {
  await scope.register(streamingMultipart, {
    limits: { fileSize: bodyLimit, fieldSize: bodyLimit, parts: MAX_PARTS },
    throwFileSizeLimit: true,
  });
}

/** The fields and files of a multipart body, at most `bodyLimit` bytes in all. */
export async function readMultipart(request: FastifyRequest, bodyLimit: number): Promise<{ fields: FormFields; files: RawFile[] }> {
  if (Number(request.headers['content-length'] ?? 0) > bodyLimit) throw tooLarge();
  const fields = new Fields();
  const files: RawFile[] = [];
  let total = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        total += data.byteLength;
        files.push({ field: part.fieldname, filename: part.filename, contentType: part.mimetype, data });
      } else {
        if (part.valueTruncated || part.fieldnameTruncated) throw tooLarge();
        // A part declared application/json arrives parsed; decoders expect the field's text.
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        total += value.length;
        appendField(fields, part.fieldname, value);
      }
      if (total > bodyLimit) throw tooLarge();
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (statusOf(error) === 413) throw tooLarge();
    throw frameworkError('BAD_REQUEST', `Malformed multipart/form-data body: ${messageOf(error)}`);
  }
  return { fields, files };
}
