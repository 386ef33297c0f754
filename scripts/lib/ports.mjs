import net from 'node:net';

/**
 * A TCP port that is free on 127.0.0.1 right now (the kernel picks it). The one free-port helper of
 * the scripts and the test suites (decision 037). `avoid` is a set of ports already handed out in
 * this process, for callers that take several ports before starting anything on them: the kernel
 * could otherwise hand the same one out twice. `host` is where the port must be free (0.0.0.0 for a
 * server that binds every interface).
 * @param {Set<number>} [avoid]
 * @param {string} [host]
 * @returns {Promise<number>}
 */
export async function freePort(avoid, host = '127.0.0.1') {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const server = net.createServer();
      server.unref();
      server.on('error', reject);
      server.listen(0, host, () => {
        const address = server.address();
        const found = typeof address === 'object' && address ? address.port : 0;
        server.close(() => resolve(found));
      });
    });
    if (!avoid) return port;
    if (!avoid.has(port)) {
      avoid.add(port);
      return port;
    }
  }
}

function portFree(/** @type {number} */ port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/**
 * The first of `count` ports in a row that are all free on 127.0.0.1 (a cluster numbers its
 * processes from one base port), picked at random in 20000-39999.
 * @param {number} count
 * @returns {Promise<number>}
 */
export async function freePortRun(count) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    const all = await Promise.all(Array.from({ length: count }, (_, i) => portFree(base + i)));
    if (all.every(Boolean)) return base;
  }
  throw new Error(`no ${count} free ports in a row`);
}
