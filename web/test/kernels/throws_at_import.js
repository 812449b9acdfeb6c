// A kernel module whose evaluation throws (e2e/kernels.spec.js: loadEcsia must reject naming it).
export function never() {}
throw new Error('this kernel module throws while it is imported');
