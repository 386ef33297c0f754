import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../gateway/src/config.js';

describe('gateway configuration', () => {
  it('has working defaults for the embedded setup', () => {
    const config = loadConfig({});
    expect(config.GATEWAY_PORT).toBe(4000);
    expect(config.DATA_DIR).toBe('./data');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.RATE_LIMIT).toBe(true);
    expect(config.SEED_DEMO).toBe(true);
    expect(config.PUSH_ALLOW_HTTP).toBe(false); // push endpoints: the browsers' push services only (decision 044)
  });

  it.each([
    [{ GATEWAY_PORT: 'eighty' }, 'GATEWAY_PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ ADMIN_EMAIL: 'not-an-email' }, 'ADMIN_EMAIL'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
    [{ RATE_LIMIT: 'maybe' }, 'RATE_LIMIT'],
    [{ PUSH_ALLOW_HTTP: 'yes' }, 'PUSH_ALLOW_HTTP'],
    [{ SMTP_URL: 'nope' }, 'SMTP_URL'],
    [{ GATEWAY_REQUEST_TIMEOUT_MS: 'soon' }, 'GATEWAY_REQUEST_TIMEOUT_MS'],
    [{ GATEWAY_IDLE_TIMEOUT_MS: '0' }, 'GATEWAY_IDLE_TIMEOUT_MS'],
    [{ GATEWAY_HEADERS_TIMEOUT_MS: '60000', GATEWAY_REQUEST_TIMEOUT_MS: '30000' }, 'GATEWAY_HEADERS_TIMEOUT_MS'],
  ])('rejects %o with one line naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (err) {
      expect((err as Error).message.startsWith(`${name}:`)).toBe(true);
      expect((err as Error).message).not.toContain('\n');
    }
  });

  it('times out slow clients by default, leaving a 5 MB cover on slow mobile data its two minutes (decision 030)', () => {
    expect(loadConfig({})).toMatchObject({
      GATEWAY_HEADERS_TIMEOUT_MS: 30_000,
      GATEWAY_REQUEST_TIMEOUT_MS: 120_000,
      GATEWAY_IDLE_TIMEOUT_MS: 30_000,
    });
  });

  it('reads on/off switches', () => {
    expect(loadConfig({ RATE_LIMIT: 'off', SEED_DEMO: '0' })).toMatchObject({ RATE_LIMIT: false, SEED_DEMO: false });
    expect(loadConfig({ PUSH_ALLOW_HTTP: 'on' }).PUSH_ALLOW_HTTP).toBe(true);
  });
});
