// A local TCP port nothing listens on: the kernel picks one, and it is released for the caller's
// server (bench/browser.mjs, e2e/netcode.spec.js). Another process could take it in between; the
// callers start their server at once.
import net from 'node:net';

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
