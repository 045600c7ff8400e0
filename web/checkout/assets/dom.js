// Builds the page's elements without HTML strings: every text lands in a
// text node, so nothing an offer or a seller wrote can become markup.

/**
 * h creates an element. Props set attributes, except `class`, `dataset`,
 * event handlers (`onclick`: a function) and the live properties `value`,
 * `checked`, `disabled` and `selected`, which are set as properties (value
 * after the children, so a select's options exist first). A null, undefined
 * or false prop or child is left out.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  let value;
  for (const [key, v] of Object.entries(props)) {
    if (v === null || v === undefined || v === false) continue;
    if (key === 'class') el.className = v;
    else if (key === 'dataset') Object.assign(el.dataset, v);
    else if (key.startsWith('on') && typeof v === 'function') el.addEventListener(key.slice(2), v);
    else if (key === 'value') value = v;
    else if (key === 'checked' || key === 'disabled' || key === 'selected') el[key] = Boolean(v);
    else el.setAttribute(key, v === true ? '' : String(v));
  }
  append(el, children);
  if (value !== undefined) el.value = value;
  return el;
}

/** append adds children (nested arrays flattened, strings as text). */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** replace puts children in place of everything el holds. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

let nextId = 0;

/** uid makes a document-unique id for label and description links. */
export function uid(prefix) {
  nextId += 1;
  return `${prefix}-${nextId}`;
}

/**
 * webURL is url when it is an absolute http(s) address, else ''. Links the
 * page follows come from sellers and providers; no other scheme (such as
 * javascript:) may become a link.
 */
export function webURL(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : '';
  } catch {
    return '';
  }
}
