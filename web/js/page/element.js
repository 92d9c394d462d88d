// The one small DOM builder the page's widgets share: an element with its class and, when given, its text
// (set with textContent, never as HTML).

/** A new `tag` element with `className` (none when empty) and `text` as its textContent (none when undefined). */
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
