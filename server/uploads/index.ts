/**
 * The upload routes outside the API bindings (file serving, tus) and the
 * upload store the upload-file handler writes to, decorated on the app so
 * another store (a shared object store) can be passed in its place.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerFileServing } from './serve.js';
import { LocalDiskUploadStore, type UploadStore } from './store.js';
import { registerTus } from './tus.js';

declare module 'fastify' {
  interface FastifyInstance {
    uploadStore: UploadStore;
  }
}

export async function registerUploads(app: FastifyInstance, store: UploadStore = new LocalDiskUploadStore(app.services.config.uploadDir)): Promise<void> {
  app.decorate('uploadStore', store);
  registerFileServing(app, store);
  await registerTus(app, store);
}

export function uploadStore(request: FastifyRequest): UploadStore {
  return request.server.uploadStore;
}
