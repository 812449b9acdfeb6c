// A kernel module with a syntax error (e2e/kernels.spec.js).
export function broken( {
