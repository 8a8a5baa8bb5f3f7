/** `--auth` for every kind of security scheme, as sent and as the curl reproduction writes it. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../generator/config.js';
import { credentialVariable, placement, readCredentials } from '../../generator/conformance/credentials.js';
import { curlCommand } from '../../generator/conformance/curl.js';
import type { SecuritySchemeModel } from '../../generator/model/types.js';

const source = { file: 'openapi.yaml' };
const names = { camel: 'x', pascal: 'X', file: 'x' };
const scheme = (name: string, rest: Partial<SecuritySchemeModel> & Pick<SecuritySchemeModel, 'kind'>): SecuritySchemeModel => ({ name, names, description: '', source, ...rest });
const schemes = [
  scheme('basic', { kind: 'basic' }),
  scheme('token', { kind: 'bearer' }),
  scheme('oauth', { kind: 'oauth2' }),
  scheme('oidc', { kind: 'openIdConnect' }),
  scheme('digest', { kind: 'http', scheme: 'Digest' }),
  scheme('header-key', { kind: 'apiKey', in: 'header', parameterName: 'X-Api-Key' }),
  scheme('query-key', { kind: 'apiKey', in: 'query', parameterName: 'api_key' }),
  scheme('cookie-key', { kind: 'apiKey', in: 'cookie', parameterName: 'session' }),
  scheme('tls', { kind: 'mutualTLS' }),
];

describe('credentials', () => {
  it('are placed as each scheme says', () => {
    const at = (name: string, value: string) => placement(schemes.find((s) => s.name === name)!, value);
    expect(at('basic', 'me:pw')).toEqual({ kind: 'header', name: 'Authorization', value: `Basic ${Buffer.from('me:pw').toString('base64')}` });
    for (const name of ['token', 'oauth', 'oidc']) expect(at(name, 't')).toEqual({ kind: 'header', name: 'Authorization', value: 'Bearer t' });
    expect(at('digest', 'd')).toEqual({ kind: 'header', name: 'Authorization', value: 'Digest d' });
    expect(at('header-key', 'k')).toEqual({ kind: 'header', name: 'X-Api-Key', value: 'k' });
    expect(at('query-key', 'k')).toEqual({ kind: 'query', name: 'api_key', value: 'k' });
    expect(at('cookie-key', 'k')).toEqual({ kind: 'cookie', name: 'session', value: 'k' });
    expect(at('tls', 'k')).toBeUndefined();
  });

  it('come from --auth over TEAMCHAT_AUTH_<SCHEME>, and bad ones are refused', () => {
    expect(credentialVariable('header-key')).toBe('TEAMCHAT_AUTH_HEADER_KEY');
    const read = readCredentials(schemes, ['token=flag'], { TEAMCHAT_AUTH_TOKEN: 'env', TEAMCHAT_AUTH_QUERY_KEY: 'q' });
    expect([...read.values]).toEqual([['token', 'flag'], ['query-key', 'q']]);
    expect(() => readCredentials(schemes, ['tls=x'], {})).toThrow(ConfigError);
    expect(() => readCredentials(schemes, ['basic=nocolon'], {})).toThrow('HTTP Basic takes <username>:<password>');
  });

  it('appear in curl as variables that the shell fills in', async () => {
    const used = schemes.filter((s) => ['basic', 'token', 'query-key', 'cookie-key'].includes(s.name));
    const command = curlCommand({ method: 'GET', url: 'http://127.0.0.1:1/x?a=1', headers: { Cookie: 'c=1' } }, used);
    expect(command).toBe(
      `curl -sS -i -X GET -u "\${TEAMCHAT_AUTH_BASIC}" -H "Authorization: Bearer \${TEAMCHAT_AUTH_TOKEN}" 'http://127.0.0.1:1/x?a=1'"&api_key=\${TEAMCHAT_AUTH_QUERY_KEY}" -b "c=1; session=\${TEAMCHAT_AUTH_COOKIE_KEY}"`,
    );
    // What the shell makes of it: the words curl would get.
    const { stdout } = await promisify(execFile)('bash', ['-c', `printf '%s\\n' ${command.slice('curl '.length)}`], {
      env: { ...process.env, TEAMCHAT_AUTH_BASIC: 'me:pw', TEAMCHAT_AUTH_TOKEN: 't', TEAMCHAT_AUTH_QUERY_KEY: 'q', TEAMCHAT_AUTH_COOKIE_KEY: 's' },
      encoding: 'utf8',
    });
    expect(stdout.split('\n')).toEqual(expect.arrayContaining(['me:pw', 'Authorization: Bearer t', 'http://127.0.0.1:1/x?a=1&api_key=q', 'c=1; session=s']));
  });
});
