/**
 * The server bindings' runtime, as the generated `server.ts` imports it:
 * `api.ts` (what the document tells the runtime), `parsing.ts` (form bodies,
 * cookies), `multipart.ts`, `requests.ts` (a request read for its decoder),
 * `credentials.ts` (security schemes and `authenticate`), `answers.ts`
 * (success bodies, `respond`, constant bodies), `errors.ts` (`ApiError`,
 * framework errors, the error style) and `routes.ts` (registration on
 * Fastify). No module keeps state of its own: what the API is arrives
 * through `registerOperations`, so importing has no side effect.
 */
export type { ApiSettings, BodyKind, HttpMethod, MediaTypeRoute, Route, SecuritySchemeRoute } from './api.js';
export { constantBody, constantHandler, respond, Responded } from './answers.js';
export type { HandlerResult, Respond, ResponseFor, ResponseHeaders } from './answers.js';
export type {
  ApiKeyCredential,
  Authenticate,
  BasicCredential,
  Credential,
  HttpCredential,
  MutualTlsCredential,
  TokenCredential,
} from './credentials.js';
export { ApiError, FRAMEWORK_ERROR_STATUS, frameworkErrorsOf, notImplemented } from './errors.js';
export type { ApiErrorBody, ApiErrorCode, ErrorEnvelope, ErrorFields, ErrorFormat, ErrorStyle, FrameworkErrorCode, ServerRuntimeTypes } from './errors.js';
export { operation, registerOperations } from './routes.js';
export type { Binding, Handler, HandlerContext, RegisterOptions } from './routes.js';
