/**
 * What the generated `server.ts` tells the runtime about its API: the route
 * of each operation and the settings of the whole document, passed when the
 * routes are registered.
 */
import type { ErrorStyle } from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'TRACE';

/** How a request or response body is written (the model's `BodyKind`). */
export type BodyKind = 'form' | 'multipart' | 'json' | 'text' | 'binary';

/** One declared media type of a body: lower case, without parameters (`image/*` and `*\/*` match by prefix). */
export interface MediaTypeRoute {
  mediaType: string;
  kind: BodyKind;
}

export interface Route {
  /** Operation name: the key in `Handlers`. */
  operation: string;
  operationId: string;
  method: HttpMethod;
  /** Full path in Fastify syntax (`:param`), base path included. */
  path: string;
  /** Whether every alternative of `security` needs credentials. */
  auth: boolean;
  /**
   * The security requirement: alternatives (any one suffices), each the
   * names of the schemes (`ApiSettings.securitySchemes`) that must all be
   * sent; an empty alternative makes credentials optional, no alternative
   * means none are read.
   */
  security: readonly (readonly string[])[];
  /** Path parameters whose names Fastify cannot route by: route name (`p0`) -> wire name (`pet-id`). */
  pathNames?: Readonly<Record<string, string>>;
  /** Whether the operation reads cookies (it has cookie parameters): the Cookie header is parsed only then (and for cookie API keys). */
  cookies?: boolean;
  /** Wire name of the file parameter, for an operation that takes exactly one file (any part name is taken for it). */
  file?: string;
  /** A request body taken whole (the model's `mode: 'whole'`): each media type it may come as. */
  body?: { readonly required: boolean; readonly contents: readonly MediaTypeRoute[] };
  /** Status of the primary success response (200 when absent). */
  status?: number;
  /**
   * Media types of each declared response, by status key (`201`, `2XX`,
   * `default`); `[]` for a response without a body. Absent: JSON answers.
   */
  responses?: Readonly<Record<string, readonly MediaTypeRoute[]>>;
}

/** A security scheme of `components.securitySchemes`, as the bindings read its credential. */
export interface SecuritySchemeRoute {
  kind: 'basic' | 'bearer' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'http' | 'mutualTLS';
  /** `apiKey`: where the key travels, and its header, query parameter or cookie name. */
  in?: 'header' | 'query' | 'cookie';
  name?: string;
  /** `http`: the scheme word (`Digest`). */
  scheme?: string;
}

/** What the generated `server.ts` knows of the whole API (docs/decisions/0026-server-runtime-options.md). */
export interface ApiSettings {
  title: string;
  securitySchemes: Readonly<Record<string, SecuritySchemeRoute>>;
  /** Success bodies get `result`/`msg` and `ignored_parameters_unsupported` (the document's convention). */
  successEnvelope: boolean;
  /**
   * Every operation takes its parameters as form or multipart fields (any
   * method): a request body no parser takes is refused saying to send them
   * so, rather than naming the operation.
   */
  parametersInFields: boolean;
  /** The status refusing a request body no parser takes, at an operation without a whole body: 400 (BAD_REQUEST) or 415 (UNSUPPORTED_MEDIA_TYPE). */
  refusedBodyStatus: 400 | 415;
  /** The wording of 401 answers, and the challenge of a handler's own UNAUTHORIZED. */
  unauthorized: {
    /** What a Basic pair holds, in the message for one without a colon (`username:password`). */
    basicPair: string;
    /** The message when `authenticate` finds no user for the credentials. */
    invalid: string;
    /** Whether an UNAUTHORIZED that brings no challenge (a handler's) is sent with the Basic challenge of the realm. */
    basicChallenge: boolean;
  };
  /** Error statuses and the document's error schema. */
  errors: ErrorStyle;
}
