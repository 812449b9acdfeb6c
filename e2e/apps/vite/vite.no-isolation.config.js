// The same app without the isolation headers (the test's single-threaded dev server).
import { defineConfig } from 'vite';
import config from './vite.config.js';

export default defineConfig({ ...config, server: { ...config.server, headers: {} }, preview: { ...config.preview, headers: {} } });
