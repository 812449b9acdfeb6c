#!/usr/bin/env node
// A static file server for the pages and the wasm builds, without dependencies.
//   node scripts/serve.mjs [root] [--port N] [--host H] [--no-coi] [--coep require-corp|credentialless]
// root defaults to the repository root; port to $PORT or 8080; host to 127.0.0.1.
// Unless --no-coi, every response carries the headers that make a page cross-origin isolated
// (so it gets SharedArrayBuffer and the threaded build):
//   Cross-Origin-Opener-Policy: same-origin
//   Cross-Origin-Embedder-Policy: require-corp
//   Cross-Origin-Resource-Policy: same-origin
// --no-coi serves the same files without them (the single-threaded fallback's page).
// --coep credentialless sends that COEP value instead (isolation without CORP opt-ins).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

function usage(message) {
  console.error(`serve.mjs: ${message}\nusage: node scripts/serve.mjs [root] [--port N] [--host H] [--no-coi] [--coep require-corp|credentialless]`);
  process.exit(2);
}

function parseArgs(argv) {
  const options = {
    root: fileURLToPath(new URL('..', import.meta.url)),
    port: process.env.PORT ?? '8080',
    host: '127.0.0.1',
    coi: true,
    coep: 'require-corp',
  };
  let rootGiven = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--no-coi') options.coi = false;
    else if (arg === '--port' || arg === '--host' || arg === '--coep') {
      if (i + 1 >= argv.length) usage(`${arg} needs a value`);
      options[arg.slice(2)] = argv[(i += 1)];
    } else if (arg.startsWith('--port=')) options.port = arg.slice(7);
    else if (arg.startsWith('--host=')) options.host = arg.slice(7);
    else if (arg.startsWith('--coep=')) options.coep = arg.slice(7);
    else if (arg.startsWith('-')) usage(`unknown option ${arg}`);
    else if (!rootGiven) {
      options.root = path.resolve(arg);
      rootGiven = true;
    } else usage(`unexpected argument ${arg}`);
  }
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`bad port ${options.port}`);
  options.port = port;
  if (options.coep !== 'require-corp' && options.coep !== 'credentialless') usage(`bad --coep ${options.coep}`);
  return options;
}

const options = parseArgs(process.argv.slice(2));
const root = path.resolve(options.root);

function headers(extra) {
  const h = { 'Cache-Control': 'no-store', ...extra };
  if (options.coi) {
    h['Cross-Origin-Opener-Policy'] = 'same-origin';
    h['Cross-Origin-Embedder-Policy'] = options.coep;
    h['Cross-Origin-Resource-Policy'] = 'same-origin';
  }
  return h;
}

function fail(res, status, text) {
  res.writeHead(status, headers({ 'Content-Type': 'text/plain; charset=utf-8' }));
  res.end(`${status} ${text}\n`);
}

const server = createServer(async (req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return fail(res, 405, 'method not allowed');
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
  } catch {
    return fail(res, 400, 'bad request');
  }
  let file = path.resolve(root, `.${pathname}`);
  if (file !== root && !file.startsWith(root + path.sep)) return fail(res, 403, 'forbidden');
  try {
    let info = await stat(file);
    if (info.isDirectory()) {
      if (!pathname.endsWith('/')) {
        res.writeHead(301, headers({ Location: `${pathname}/` }));
        return res.end();
      }
      file = path.join(file, 'index.html');
      info = await stat(file);
    }
    const type = MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    res.writeHead(200, headers({ 'Content-Type': type, 'Content-Length': info.size }));
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).on('error', () => res.destroy()).pipe(res);
  } catch {
    fail(res, 404, 'not found');
  }
});

server.on('error', (error) => {
  console.error(`serve.mjs: ${error.message}`);
  process.exit(1);
});

server.listen(options.port, options.host, () => {
  const { port } = server.address();
  const shown = options.host.includes(':') ? `[${options.host}]` : options.host;
  console.log(`serving ${root} at http://${shown}:${port}/ (${options.coi ? `cross-origin isolated: COOP/COEP (${options.coep}) headers on` : 'no COOP/COEP headers (--no-coi)'})`);
});

function stop(signal) {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 1000).unref();
  console.log(`serve.mjs: ${signal}, stopped`);
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
