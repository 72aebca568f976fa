import { createServer } from 'node:net';

/** A loopback port free right now (for listeners that cannot take port 0, like the Temporal SDK's metrics). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
