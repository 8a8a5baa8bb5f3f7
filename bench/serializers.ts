/**
 * `npx tsx bench/serializers.ts`: JSON.stringify against serializers that
 * fast-json-stringify (Fastify's `schema.response` serializer) compiles from
 * the spec's success schemas, on the bodies the reference server answers
 * for the three benchmarked requests: CPU time per call, whether the bytes
 * are the same, and what becomes of an undeclared field and of a value of
 * the wrong type. The measurement behind docs/decisions/0018.
 */
import fjs from 'fast-json-stringify';
import { loadSpec } from '../generator/load/index.js';
import { startTestServer } from '../test/support/server.js';

type Json = Record<string, unknown>;
const { document } = await loadSpec('spec/openapi.yaml', process.cwd());

/** The schema with every `#/components/...` reference replaced by its target (the spec's response schemas have no cycles). */
const resolve = (node: any): any => {
  if (Array.isArray(node)) return node.map((n) => resolve(n));
  if (!node || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    const target = node.$ref.slice(2).split('/').reduce((o: any, k: string) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')], document);
    return resolve(target);
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) if (!['example', 'examples', 'x-error-code', 'description'].includes(k)) out[k] = resolve(v);
  return out;
};
const server = await startTestServer('pglite');
const member = server.logins.member;
const auth = `Basic ${Buffer.from(`${member.email}:${member.apiKey}`).toString('base64')}`;
const cases = [
  { path: '/users/me', method: 'get', url: '/api/v1/users/me' },
  { path: '/messages/{message_id}', method: 'get', url: '/api/v1/messages/105' },
  { path: '/messages/flags/narrow', method: 'post', url: '/api/v1/messages/flags/narrow', body: 'anchor=1&num_before=0&num_after=100&narrow=%5B%5D&op=add&flag=starred' },
];
for (const c of cases) {
  const op = (document as any).paths[c.path][c.method];
  const schema = resolve(op.responses['200'].content['application/json'].schema);
  let stringify: (o: unknown) => string;
  try { stringify = fjs(schema); } catch (e) { console.log(c.path, 'fjs refused:', (e as Error).message.slice(0, 200)); continue; }
  const res = await server.app.inject({ method: c.method.toUpperCase() as any, url: c.url, headers: { authorization: auth, ...(c.body && { 'content-type': 'application/x-www-form-urlencoded' }) }, payload: c.body });
  const obj = res.json();
  const a = JSON.stringify(obj); let b: string;
  try { b = stringify(obj); } catch (e) { console.log(c.path, 'fjs threw:', (e as Error).message.slice(0, 200)); continue; }
  const time = (f: () => unknown) => { for (let i = 0; i < 20000; i++) f(); const t = process.cpuUsage(); const n = 100000; for (let i = 0; i < n; i++) f(); const u = process.cpuUsage(t); return (u.user + u.system) / n; };
  const js = [0, 1, 2].map(() => time(() => JSON.stringify(obj))).sort()[1]!;
  const fj = [0, 1, 2].map(() => time(() => stringify(obj))).sort()[1]!;
  // What a field the schema does not declare, or a wrong type, becomes.
  const extra = stringify({ ...obj, not_in_schema: 1 });
  let coerced = '';
  const firstInteger = Object.entries(obj).find(([, v]) => typeof v === 'number');
  if (firstInteger) { try { coerced = stringify({ ...obj, [firstInteger[0]]: '12abc' }); coerced = coerced.match(new RegExp(`"${firstInteger[0]}":[^,}]*`))?.[0] ?? '(absent)'; } catch (e) { coerced = 'threw ' + (e as Error).message.slice(0, 80); } }
  console.log(`${c.method.toUpperCase()} ${c.path}: ${a.length} bytes; same bytes: ${a === b}; JSON.stringify ${js.toFixed(2)} µs, fast-json-stringify ${fj.toFixed(2)} µs (${(js / fj).toFixed(2)}x); undeclared field kept: ${extra.includes('not_in_schema')}; "12abc" for ${firstInteger?.[0]} -> ${coerced}`);
  if (a !== b) { let i = 0; while (a[i] === b[i]) i++; console.log('  differs at', i, JSON.stringify(a.slice(i - 40, i + 40)), 'vs', JSON.stringify(b.slice(i - 40, i + 40))); }
}
await server.close();
