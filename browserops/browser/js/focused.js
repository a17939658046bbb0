// The element that has the keyboard focus (through open shadow roots), or null when nothing does.
// args: {}
function main(args) {
  const a = deepActiveElement();
  return a && a !== document.body && a !== document.documentElement ? a : null;
}
