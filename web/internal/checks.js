// Internal to the JS layer (never exported by web/ecsia.js): the value checks every public call
// shares, so each kind of bad input gets the same wording everywhere (G5).
//
// Every function here is pure: it throws an Error whose message starts with `op` (e.g.
// 'world.spawn') and names what was wrong, or returns the checked value.

import { NULL_ENTITY } from './constants.js';
// describe(value) for error messages, isPlainObject(value): written in the kernel runtime, which
// imports nothing (the workers import it by URL), and shared from here by the rest of the layer.
import { describe, isHandle, isOpaqueObject, isPlainObject } from './kernel_runtime.js';

export { describe, isHandle, isOpaqueObject, isPlainObject, NULL_ENTITY };

/** Throws unless `value` is a plain object (an options bag); undefined gives {}. */
export function optionsObject(op, value, what = 'options') {
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw new Error(`${op}: ${what} must be an object, got ${describe(value)}`);
  return value;
}

/** Throws for an option the call does not know (a misspelt option is an error, not ignored). */
export function knownKeys(op, object, keys, what = 'options') {
  for (const key of Object.keys(object)) {
    if (!keys.includes(key)) {
      throw new Error(`${op}: unknown ${what === 'options' ? 'option' : `key of ${what}`} '${key}' (known: ${keys.join(', ')})`);
    }
  }
}

export function checkEntity(op, entity) {
  if (!Number.isInteger(entity) || entity < 0 || entity > NULL_ENTITY) {
    throw new Error(`${op}: ${describe(entity)} is not an entity handle (handles are the numbers spawn() returns)`);
  }
  return entity;
}

export function checkCount(op, what, value) {
  if (!Number.isInteger(value) || value < 0) throw new Error(`${op}: ${what} must be a whole number >= 0, got ${describe(value)}`);
  return value;
}

/** An array of strings (undefined gives []); a single string is not accepted here. */
export function stringList(op, what, value) {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new Error(`${op}: ${what} must be an array of names, got ${describe(value)}`);
  }
  return value;
}

export function checkFunction(op, what, value) {
  if (typeof value !== 'function') throw new Error(`${op}: ${what} must be a function, got ${describe(value)}`);
  return value;
}
