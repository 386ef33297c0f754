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
