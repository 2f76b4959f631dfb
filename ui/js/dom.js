// Building DOM nodes without HTML strings. Text always goes in as text nodes, so a document that
// contains `<script>` shows those characters. Nothing in the interface parses HTML from a string.

/**
 * `el('button', {class: 'btn', type: 'button', onclick: f, dataset: {id: 3}}, 'text', childNode)`
 * Props: `class`, `text`, `dataset`, `style` (an object of CSS properties, set through the CSSOM,
 * which the content security policy allows), `on<event>` functions, booleans as present/absent
 * attributes, anything else as an attribute.
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = String(value);
    else if (key === 'dataset') {
      for (const [name, v] of Object.entries(value)) node.dataset[name] = String(v);
    } else if (key === 'style') {
      for (const [name, v] of Object.entries(value)) node.style.setProperty(name, String(v));
    } else if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else if (value === true) node.setAttribute(key, '');
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

/** Appends nodes and strings (as text nodes); skips null, undefined and false. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/**
 * `text` (a path, or a sentence naming one) as text nodes with a `<wbr>` after each path separator, so
 * that a long path wraps between folder names rather than inside one. The text itself is unchanged (a
 * copy of it has no extra characters) and goes in as text nodes only.
 */
export function pathText(text) {
  const nodes = [];
  if (text == null || text === '') return nodes;
  for (const part of String(text).split(/(?<=[\\/])(?=[^\\/])/)) {
    if (nodes.length) nodes.push(document.createElement('wbr'));
    nodes.push(document.createTextNode(part));
  }
  return nodes;
}

/** Sets `node`'s content to `text`, breakable after path separators (see pathText). */
export function setPathText(node, text) {
  node.replaceChildren(...pathText(text));
  return node;
}

/** Removes every child of `node`. */
export function clear(node) {
  node.replaceChildren();
  return node;
}

/** `document.querySelector`, failing loudly when the page lacks an element the code relies on. */
export function $(selector, root = document) {
  const found = root.querySelector(selector);
  if (!found) throw new Error(`missing element ${selector}`);
  return found;
}

export function $$(selector, root = document) {
  return [...root.querySelectorAll(selector)];
}

/** True when a key press is meant for a form control rather than for a page shortcut. */
export function isTypingTarget(target) {
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}
