// The test pages' seeded random numbers: the same seed gives the same sequence on every build and
// thread count, so a seeded scenario is one fixed sequence of calls.

/** A generator of integers in [0, n): xorshift32 from `seed` (0 counts as 1). */
export function rng(seed) {
  let state = (seed >>> 0) || 1;
  return (n) => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state % n;
  };
}
