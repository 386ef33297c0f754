import { buildApp } from './app.js';
import { loadConfig, ConfigError } from './config.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`gateway: bad configuration: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }

  let app;
  try {
    app = await buildApp({ config });
  } catch (err) {
    console.error(`gateway: cannot start: ${(err as Error).message}`);
    process.exit(1);
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  try {
    await app.listen({ port: config.GATEWAY_PORT, host: config.GATEWAY_HOST });
  } catch (err) {
    console.error(`gateway: cannot listen on ${config.GATEWAY_HOST}:${config.GATEWAY_PORT}: ${(err as Error).message}`);
    process.exit(1);
  }
}

void main();
