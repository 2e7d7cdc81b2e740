// Building the page: elements and text nodes only. Nothing here (or anywhere on the page) writes HTML:
// every text from a chat or the game becomes a text node, and the page's Trusted Types policy forbids the rest.

/** An element: `h('p', { class: 'muted' }, 'text', child)`. `on: { click }` adds listeners. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'on') for (const [event, fn] of Object.entries(value)) el.addEventListener(event, fn);
    else if (key === 'class') el.className = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A time of day, `14:05`. */
export function clock(at) {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** `oak_log` → `oak log`. */
export function itemName(item) {
  return item.replace(/_/g, ' ');
}

/** The pill's class for a state. */
export function pill(row) {
  return h('span', { class: `pill ${row.state}` }, row.status);
}
