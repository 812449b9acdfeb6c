// A kernel module without kernels (e2e/kernels.spec.js: loadEcsia rejects it).
export const notAKernel = 1;
