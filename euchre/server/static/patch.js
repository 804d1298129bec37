// Drawing a part of the page again in place: the elements that stay are kept (with their
// focus, and what a screen reader was reading), only what changed is touched, new lines
// are added and gone ones removed.  An element is told apart from its siblings by its id,
// its `data-key` or its `data-card` (a hand's cards move when one is played); others by
// their place among their siblings.

/** What tells an element from its siblings across redraws, or null. */
function keyOf(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  return node.id || node.getAttribute("data-key") || node.getAttribute("data-card") || null;
}

function sameKind(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);
}

/** Make `el`'s content what `html` describes, changing only what differs. */
export function patch(el, html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  patchChildren(el, template.content);
}

function patchChildren(into, from) {
  const wanted = Array.from(from.childNodes);
  const keys = new Set(wanted.map(keyOf).filter(Boolean));
  const keyed = new Map();
  for (const child of into.childNodes) {
    const key = keyOf(child);
    if (key) keyed.set(key, child);
  }
  let cursor = into.firstChild;
  // a keyed element no longer wanted goes at once, so that those after it stay where
  // they are (a moved element loses its focus)
  const dropGone = () => {
    while (cursor && keyOf(cursor) && !keys.has(keyOf(cursor))) {
      const next = cursor.nextSibling;
      cursor.remove();
      cursor = next;
    }
  };
  for (const src of wanted) {
    dropGone();
    const key = keyOf(src);
    let node = null;
    if (key) {
      const old = keyed.get(key);
      if (old && old.nodeName === src.nodeName) node = old;
      keyed.delete(key);
    } else if (cursor && sameKind(cursor, src)) {
      node = cursor;
    }
    if (!node) {
      into.insertBefore(src, cursor);
    } else if (node === cursor) {
      cursor = cursor.nextSibling;
      patchNode(node, src);
    } else {
      into.insertBefore(node, cursor);
      patchNode(node, src);
    }
  }
  while (cursor) {
    const next = cursor.nextSibling;
    cursor.remove();
    cursor = next;
  }
}

function patchNode(node, src) {
  if (node.nodeType !== Node.ELEMENT_NODE) {
    if (node.nodeValue !== src.nodeValue) node.nodeValue = src.nodeValue;
    return;
  }
  for (const { name, value } of Array.from(src.attributes)) {
    if (node.getAttribute(name) !== value) node.setAttribute(name, value);
  }
  // the style is set through the CSSOM from `data-style` (util.applyStyles): kept unless
  // its source is gone
  for (const { name } of Array.from(node.attributes)) {
    if (name !== "style" && !src.hasAttribute(name)) node.removeAttribute(name);
  }
  if (!src.hasAttribute("data-style") && node.hasAttribute("style")) node.removeAttribute("style");
  if (node.nodeName === "INPUT") {
    if (node.type === "checkbox" || node.type === "radio") node.checked = src.hasAttribute("checked");
    else if (node !== document.activeElement && node.readOnly) node.value = src.getAttribute("value") ?? "";
  }
  patchChildren(node, src);
}
