// The devtools panel's small DOM toolkit (web/devtools.js): elements from a tag, attributes and
// children, and the number formats every section shares.
// Thread rule: the page's main thread.

const shownKeys = new WeakMap();  // fillUnlessSame's key of each node it filled

/**
 * el('td', { class: 'n', title: '…' }, child, …): children are nodes or text; an attribute whose
 * value is null or false is left out, `on<event>` attributes become listeners.
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === false || value === undefined) continue;
    if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Replaces the node's children. */
export function fill(node, ...children) {
  shownKeys.delete(node);
  node.replaceChildren();
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/**
 * fill(node, ...build()) unless `key` (a string that says everything the content shows) is the
 * one the node was last filled with: an unchanged section is not rebuilt, so the browser has no
 * style, layout or paint to redo for it.
 */
export function fillUnlessSame(node, key, build) {
  if (shownKeys.get(node) === key) return node;
  fill(node, build());
  shownKeys.set(node, key);
  return node;
}

export function bytes(n) {
  if (n >= 1 << 30) return `${(n / (1 << 30)).toFixed(2)} GiB`;
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1 << 10) return `${(n / (1 << 10)).toFixed(1)} KiB`;
  return `${n} B`;
}

export function micros(us) {
  return us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(0)} µs`;
}

export const errorText = (error) => (error instanceof Error ? error.message : String(error));
