// ---- Changes: what counts as the page changing (browser/js/watch.js and the kept walk of list.js) ----
// With the old values: a page that writes an attribute or a text again with the value it already holds (Wagtail's
// editor re-sets a data attribute "false" on every input event and on a timer, a ticker re-writes the same time)
// has not changed, and must not keep a settle waiting or throw away a kept walk.
const OBSERVED = { subtree: true, childList: true, attributes: true, characterData: true, attributeOldValue: true,
  characterDataOldValue: true };

// A mutation of the page's own that changed something; our id stamps and badges never count.
function relevantMutation(m) {
  if (m.type === "attributes") {
    if (m.attributeName === ID_ATTR || m.attributeName === ICONS_ATTR) { return false; }
    // Compared with the value now: A -> B -> A in one batch still has the record whose old value is B.
    if (m.oldValue === m.target.getAttributeNS(m.attributeNamespace, m.attributeName)) { return false; }
  } else if (m.type === "characterData" && m.oldValue === m.target.data) {
    return false;
  }
  for (let n = m.target; n; n = n.parentNode || n.host) {
    if (n.localName === OVERLAY_TAG) { return false; }
  }
  if (m.type === "childList") {
    const ours = (n) => n.nodeType === 1 && n.localName === OVERLAY_TAG;
    if ((m.addedNodes.length || m.removedNodes.length) && Array.from(m.addedNodes).every(ours) &&
        Array.from(m.removedNodes).every(ours)) { return false; }
  }
  return true;
}
