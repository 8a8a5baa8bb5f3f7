/**
 * The shapes the generated `client.ts` and the runtime share: what an
 * operation is (data the generator writes), what a call takes and gives.
 */
import type { EncodedBody, FieldsBody, WholeBodyWriter } from './bodies.js';
import type { CredentialWriter } from './credentials.js';
import type { ParamWriter } from './serialize.js';

/** A file to upload: its bytes, name and media type. */
export interface UploadFile {
  filename: string;
  contentType?: string;
  data: Blob | Uint8Array;
}

/** Bytes of a binary request body. */
export type BinaryBody = Blob | Uint8Array | ArrayBuffer;

/**
 * A credential given as a value, or as a function the client calls before
 * every request (sync or async), e.g. to refresh an OAuth2 access token.
 * A function returning `undefined` sends no credential for that request.
 */
export type TokenSource = string | (() => string | undefined | Promise<string | undefined>);

/** The user name and password of HTTP Basic authentication. */
export interface BasicCredentials {
  username: string;
  password: string;
}

/** The credential of one security scheme: Basic credentials, or a token/key. */
export type Credential = BasicCredentials | TokenSource;

/** Per-call options, the last argument of every operation. */
export interface RequestOptions {
  signal?: AbortSignal;
  /**
   * The media type to send the request body as, one of those the operation
   * declares (default: the first). Ignored by operations without a body.
   */
  contentType?: string;
  /** Extra headers for this call (parameters of the operation take precedence). */
  headers?: Record<string, string>;
}

/** A response with its status and headers, as `withResponse` methods and documented redirects resolve. */
export interface ApiResponse<S extends number = number, B = unknown> {
  status: S;
  headers: Headers;
  body: B;
}

/** `"201"` -> 201; a range (`"2XX"`) or `"default"` -> number. */
export type StatusOf<K> = K extends number ? K : K extends `${infer N extends number}` ? N : number;

/** The union of {@link ApiResponse} over a map of bodies by status key (`{ "200": A; "202": undefined }`). */
export type ApiResponseOf<R> = { [K in keyof R]-?: ApiResponse<StatusOf<K>, R[K]> }[keyof R];

/** One response-check finding: where (a JSON path) and what. */
export interface ResponseIssue {
  path: string;
  message: string;
}

export type ParamLocation = 'path' | 'query' | 'header' | 'cookie' | 'body';
export type ParamEncoding = 'plain' | 'json' | 'file';
export type ParamStyle = 'simple' | 'label' | 'matrix' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
export type ResponseKind = 'json' | 'text' | 'binary';

export interface ParamSpec {
  /** Name on the wire, also the key in the parameters object unless `key` says otherwise. */
  readonly name: string;
  /** The key in the parameters object, when two parameters of the operation share a wire name (`query_id`, `header_id`). */
  readonly key?: string;
  readonly in: ParamLocation;
  /** Path, query, header and cookie parameters: the writer of their location (body fields go to the operation's `fields`). */
  readonly write?: ParamWriter;
  readonly encoding: ParamEncoding;
  /**
   * `plain` parameters: absent means the location's default (path and header
   * `simple`, query and cookie `form`). Body fields: the style their Encoding
   * Object gives a list or object (spread as a query parameter's would be);
   * absent, a scalar's text, a list's elements as the field repeated.
   */
  readonly style?: ParamStyle;
  /** Absent means the style's default: true for `form`, false otherwise. A JSON body field: one JSON text per list element. */
  readonly explode?: boolean;
  /** Query and form fields: reserved characters (RFC 3986) are sent as they are. */
  readonly allowReserved?: boolean;
  /** Multipart fields: the part's media type (a file's default when the file names none; JSON parts default to `application/json`). */
  readonly contentType?: string;
  readonly featureLevel?: number;
}

/** One declared media type of a whole request body and the writer that encodes it. */
export interface BodyContentSpec {
  readonly mediaType: string;
  readonly write: WholeBodyWriter;
  /** Form and multipart media types: the fields, as their Encoding Object says. */
  readonly fields?: readonly ParamSpec[];
}

/** A request body sent whole (JSON, text, bytes, or an object as a form), passed as the parameter `param`. */
export interface BodySpec {
  /** Picks the media type and encodes the value (`wholeBody`). */
  readonly encode: (operation: string, spec: BodySpec, value: unknown, contentType: string | undefined) => EncodedBody | undefined;
  /** The key of the body in the parameters object. */
  readonly param: string;
  readonly required: boolean;
  /** Each declared media type, in document order; the first is the default. */
  readonly contents: readonly BodyContentSpec[];
}

/** A declared response body: its media type and how it is read. */
export type ResponseContentSpec = readonly [mediaType: string, kind: ResponseKind];

/** `[path, level]`: a response field (`linkifiers[].example_input`) and the newest feature level noted on it. */
export type LevelledPath = readonly [string, number];

/** One security scheme of the document: its name (the key of `auth`) and how its credential is written. */
export interface SchemeSpec {
  readonly name: string;
  /** Absent for `mutualTLS`, whose credential lives in the TLS set-up. */
  readonly write?: CredentialWriter;
  /** `apiKey`: the header, query parameter or cookie name. */
  readonly key?: string;
  /** `http` schemes other than Basic and Bearer: the word sent before the credential (`Digest`). */
  readonly scheme?: string;
}

/** The checks of one operation's answers, loaded only with `validateResponses`. */
export interface ResponseChecks {
  /**
   * Throws `ResponseValidationError` when the body (or a declared header)
   * does not match what the document declares for this status; `level` is
   * the server's feature level, which excuses fields newer than it.
   */
  check(answer: { status: number; headers: Headers; body: unknown; failed: boolean }, options: { strict: boolean; level: number | undefined }): void;
}

/** One operation, as the generated `client.ts` writes it. */
export interface OperationSpec {
  /** The method name (`getMessage`), named in errors. */
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'TRACE';
  /** Relative to the base path, with `{name}` placeholders. */
  readonly path: string;
  /**
   * Security alternatives (any one suffices), each the schemes that must all
   * be sent; absent or `[]`: none. An empty alternative makes credentials optional.
   */
  readonly security?: readonly (readonly SchemeSpec[])[];
  readonly params: readonly ParamSpec[];
  /** How `in: 'body'` parameters travel (form or multipart fields); whole bodies are `requestBody`. */
  readonly fields?: FieldsBody;
  /** A body sent whole. */
  readonly requestBody?: BodySpec;
  /** The operation's own path prefix, when it differs from the document's. */
  readonly basePath?: string;
  /** The operation's own server (an absolute URL, its path included), when it differs from the document's. */
  readonly server?: string;
  readonly featureLevel?: number;
  /** The primary success status (default 200). */
  readonly success?: number;
  /**
   * Declared responses by status key (`'200'`, `'2XX'`, `'default'`): the
   * media types of each body (`[]`: no body). Statuses not listed are read
   * by their Content-Type.
   */
  readonly responses?: { readonly [status: string]: readonly ResponseContentSpec[] };
  /** The call resolves to the whole answer (status, headers, body), not the body: the operation documents a redirect. */
  readonly answer?: true;
  /** This operation's response checks, imported on first use (a chunk of its own in a bundle); absent from a client generated without the validators target. */
  readonly checks?: () => Promise<ResponseChecks>;
}

/** Conventions of our own API the document follows (see the generator's model). */
export interface ConventionsSpec {
  /** Success bodies are `{result: "success", msg, ...}`; `result: "error"` is an error whatever the status. */
  readonly successEnvelope: boolean;
  /** Error bodies carry a `code`; errors are read as such envelopes. */
  readonly bodyCodedErrors: boolean;
}
