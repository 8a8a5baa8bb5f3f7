/**
 * The server's feature level on every answer, in the `X-Feature-Level`
 * header (spec/components/headers/FeatureLevel.yaml): the source API does not
 * say how clients learn the level, and a header reaches them on any call,
 * error answers included, without changing a response body.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';

export const FEATURE_LEVEL_HEADER = 'X-Feature-Level';

/** A route of the API, as the generated `routes` table lists it (method, full path in Fastify syntax). */
export interface ApiRoute {
  method: string;
  path: string;
}

/**
 * Reports `level` on every answer of `app`. Returns the headers to pass to
 * `registerRoutes` (its `headers` option): the bindings send them on the
 * API's answers themselves, so the API's routes carry no hook for it (a
 * route without hooks spares Fastify its hook runner, a few hundred ns per
 * request). Every other route the app adds afterwards (docs, uploads) gets an
 * onRequest hook of its own, and so do the app's 404 answers outside the
 * API. Call it before registering any route.
 */
export function reportFeatureLevel(app: FastifyInstance, level: number, apiRoutes: Readonly<Record<string, ApiRoute>>): Record<string, string> {
  const value = String(level);
  // Fastify keeps header names in lower case (and sends them so): a name already in lower case is
  // stored without making a new string on every request (about 30-50 ns less in a tight loop).
  const name = FEATURE_LEVEL_HEADER.toLowerCase();
  // A callback hook: an async one would cost a promise on every request.
  const hook = (_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    reply.header(name, value);
    done();
  };
  const api = new Set<string>();
  for (const route of Object.values(apiRoutes)) {
    api.add(`${route.method} ${route.path}`);
    // Fastify answers HEAD beside every GET route.
    if (route.method === 'GET') api.add(`HEAD ${route.path}`);
  }
  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    if (methods.every((method) => api.has(`${method} ${options.url}`))) return;
    // First among the route's own hooks, as an application-wide hook would run.
    const own = options.onRequest === undefined ? [] : Array.isArray(options.onRequest) ? options.onRequest : [options.onRequest];
    options.onRequest = [hook as onRequestHookHandler, ...(own as onRequestHookHandler[])];
  });
  // The app's own 404 answers (paths outside the API) keep Fastify's answer, with the header from a hook
  // of the not-found route: Fastify takes every lifecycle hook from these options, its types list two.
  const notFound = app.setNotFoundHandler as unknown as (options: { onRequest: onRequestHookHandler }) => FastifyInstance;
  notFound.call(app, { onRequest: hook as onRequestHookHandler });
  return { [name]: value };
}
