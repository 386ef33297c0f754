import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, readServerConfig } from '../../server/config';

const message = (env: Record<string, string>) => {
  try {
    readServerConfig(env);
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
};

describe('the web server configuration (server/config.ts)', () => {
  it('has defaults for everything', () => {
    expect(readServerConfig({})).toEqual({
      PORT: 3000,
      HOST: undefined,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      WEB_MAX_ACTIVE_REQUESTS: 32,
      WEB_MAX_ACTIVE_PER_CLIENT: 8,
      // Decision 086: one web process per core.
      WEB_CONCURRENCY: Math.max(1, os.availableParallelism()),
    });
  });

  it('reads the values given; an empty one counts as unset', () => {
    const config = readServerConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEB_MAX_ACTIVE_REQUESTS: '3',
      WEB_MAX_ACTIVE_PER_CLIENT: '',
      NODE_ENV: '',
      WEB_CONCURRENCY: '3',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEB_MAX_ACTIVE_REQUESTS: 3,
      WEB_MAX_ACTIVE_PER_CLIENT: 1,
      NODE_ENV: 'production',
      WEB_CONCURRENCY: 3,
    });
    expect(readServerConfig({ WEB_MAX_ACTIVE_REQUESTS: '10', WEB_MAX_ACTIVE_PER_CLIENT: '10' }).WEB_MAX_ACTIVE_PER_CLIENT).toBe(10);
  });

  it.each([
    [{ PORT: '0' }, 'bad configuration: PORT: must be a port number from 1 to 65535 (got "0")'],
    [{ PORT: '70000' }, 'bad configuration: PORT: must be a port number from 1 to 65535 (got "70000")'],
    [{ PORT: 'http' }, 'bad configuration: PORT: must be a port number from 1 to 65535 (got "http")'],
    [{ WEB_MAX_ACTIVE_REQUESTS: '0' }, 'bad configuration: WEB_MAX_ACTIVE_REQUESTS: must be a whole number from 1 to 10000 (got "0")'],
    [{ WEB_MAX_ACTIVE_REQUESTS: '2.5' }, 'bad configuration: WEB_MAX_ACTIVE_REQUESTS: must be a whole number from 1 to 10000 (got "2.5")'],
    [
      { WEB_MAX_ACTIVE_REQUESTS: '4', WEB_MAX_ACTIVE_PER_CLIENT: '5' },
      'bad configuration: WEB_MAX_ACTIVE_PER_CLIENT: must be a whole number from 1 to WEB_MAX_ACTIVE_REQUESTS (4) (got "5")',
    ],
    [
      { WEB_MAX_ACTIVE_PER_CLIENT: 'many' },
      'bad configuration: WEB_MAX_ACTIVE_PER_CLIENT: must be a whole number from 1 to WEB_MAX_ACTIVE_REQUESTS (32) (got "many")',
    ],
    [{ WEB_CONCURRENCY: '0' }, 'bad configuration: WEB_CONCURRENCY: must be a whole number of processes from 1 to 64 (got "0")'],
    [{ WEB_CONCURRENCY: 'auto' }, 'bad configuration: WEB_CONCURRENCY: must be a whole number of processes from 1 to 64 (got "auto")'],
    [{ LOG_LEVEL: 'loud' }, 'bad configuration: LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")'],
  ])('stops on %j with one line naming the variable', (env, expected) => {
    expect(message(env)).toBe(expected);
  });
});
