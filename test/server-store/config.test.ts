import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';

describe('server configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 9991,
      databaseUrl: null,
      databaseFollowChanges: true,
      dataDir: resolve('./data'),
      uploadDir: resolve('./data/uploads'),
      demoPassword: 'demo1234',
      featureLevel: null,
      secretKey: null,
      webPublicStreamsEnabled: true,
      invitationLinkValidityMinutes: 14400,
      videoCall: { provider: 'jitsi_meet', baseUrl: 'https://meet.example.com' },
    });
  });

  it('turns the video-call integration off with VIDEO_CALL_PROVIDER=none', () => {
    expect(loadConfig({ VIDEO_CALL_PROVIDER: 'none' }).videoCall).toEqual({ provider: null, baseUrl: null });
  });

  it('reads every setting from the environment', () => {
    const config = loadConfig({
      HOST: '127.0.0.2',
      PORT: '8080',
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/chat',
      DATABASE_FOLLOW_CHANGES: 'false',
      DATA_DIR: '/tmp/chat-data',
      DEMO_PASSWORD: 'other',
      FEATURE_LEVEL: '300',
      SECRET_KEY: 'ab'.repeat(32),
      WEB_PUBLIC_STREAMS_ENABLED: 'false',
      VIDEO_CALL_PROVIDER: 'zoom',
      VIDEO_CALL_BASE_URL: 'https://zoom.example.com/',
    });
    expect(config).toMatchObject({
      host: '127.0.0.2',
      port: 8080,
      databaseUrl: 'postgres://u@127.0.0.1:5432/chat',
      databaseFollowChanges: false,
      dataDir: '/tmp/chat-data',
      uploadDir: '/tmp/chat-data/uploads',
      demoPassword: 'other',
      featureLevel: 300,
      webPublicStreamsEnabled: false,
      videoCall: { provider: 'zoom', baseUrl: 'https://zoom.example.com' },
    });
    expect(config.secretKey).toHaveLength(32);
  });

  it.each([
    [{ PORT: 'http' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ FEATURE_LEVEL: '-1' }, /FEATURE_LEVEL/],
    [{ SECRET_KEY: 'short' }, /SECRET_KEY/],
    [{ WEB_PUBLIC_STREAMS_ENABLED: 'maybe' }, /WEB_PUBLIC_STREAMS_ENABLED/],
    [{ DATABASE_FOLLOW_CHANGES: 'sometimes' }, /DATABASE_FOLLOW_CHANGES/],
    [{ VIDEO_CALL_PROVIDER: 'jitsi_meet', VIDEO_CALL_BASE_URL: 'meet.example.com' }, /http/],
  ])('rejects %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
