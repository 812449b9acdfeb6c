// The square the entities stay in, from 0 to 1000 on both axes: a module the kernels import.
export const LOW = 0;
export const HIGH = 1000;

// Whether a coordinate `p` moving at `v` has left the square and is still moving away.
export function outside(p, v) {
  return (p < LOW && v < 0) || (p > HIGH && v > 0);
}
