// The glue every call through browser/scripts.py goes through (loaded after the shared helpers lib_*.js, before the script).
// A result (or what a returned promise resolves to) goes back as JSON text, undefined as null: one string crosses
// to Python instead of Playwright's value-by-value serialisation.
function __boAsJson(r) {
  const json = (v) => JSON.stringify(v === undefined ? null : v);
  return (r && typeof r.then === "function") ? r.then(json) : json(r);
}

// fn(el, args) on the element with blind id args.id, found in the same round trip: {found: false}, or
// {found: true, r: result}.
function __boOnFound(fn, args) {
  const el = byBlindId(args.id);
  if (!el) { return { found: false }; }
  const r = fn(el, args);
  return (r && typeof r.then === "function") ? r.then((v) => ({ found: true, r: v })) : { found: true, r };
}
