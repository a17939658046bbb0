// What a worker may open, set before the worker's own script runs; called by name from browser/js/worker_guard.py.
// Playwright's routes do not see a WebSocket a worker opens (microsoft/playwright#37048: routeWebSocket patches the
// page's WebSocket, not a worker's), and DevTools cannot stop one: a WebSocket handshake is never paused by the
// Fetch domain. So browserops holds a new dedicated worker before its script is fetched (launch/targets.py) and,
// while it waits, puts these guards into its global scope:
//   guardWorker    -> a WebSocket (and WebSocketStream) whose address the origin rules refuse, or any in prepare's
//                     fence (which cannot see what it would send), throws a SecurityError before anything connects;
//                     a worker started from this worker is refused (its start could not be held).
//   refuseWorkers  -> (a page-world script of a cross-site frame, and SharedWorker in a page) the named worker
//                     constructors throw: nothing can hold those workers' start, so the session refuses them.
//   refusalOf      -> the origin rules' answer for one URL: origins.py OriginRules.refusal, rule for rule.
// Each refusal is told to browserops through the binding named in the call, as JSON {url, rule, what}.

const BO_ORIGINLESS = ["about", "data", "blob", "chrome-error", "chrome", "devtools", "javascript"];
const BO_WEB = ["http", "https", "ws", "wss"];
const BO_DEFAULT_PORTS = { http: 80, https: 443, ws: 80, wss: 443 };

function originMatches(p, scheme, host, port) {
  if (p.host === "*") { return true; }
  if (p.scheme === null) {
    if (!BO_WEB.includes(scheme)) { return false; }
  } else if (p.scheme !== scheme) {
    return false;
  }
  if (scheme === "file") { return true; }
  if (p.port !== null && port !== p.port) { return false; }
  if (host === p.host) { return true; }
  return p.subdomains && host.endsWith("." + p.host);
}

// The rule that refuses `raw` (resolved against `base`), or null when it may load. `rules` is OriginRules.to_json().
function originRefusal(rules, raw, base) {
  let url;
  try { url = new URL(raw, base); } catch (e) { return null; }
  let scheme = url.protocol.replace(/:$/, "").toLowerCase();
  if (!scheme || BO_ORIGINLESS.includes(scheme)) { return null; }
  const host = scheme === "file" ? "" : url.hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  const port = url.port ? Number(url.port) : (scheme in BO_DEFAULT_PORTS ? BO_DEFAULT_PORTS[scheme] : null);
  scheme = { ws: "http", wss: "https" }[scheme] || scheme;
  for (const p of rules.blocked) {
    if (originMatches(p, scheme, host, port)) { return "blocked_origins: " + p.text; }
  }
  if ((rules.allowed.length || rules.closed) && !rules.allowed.some((p) => originMatches(p, scheme, host, port))) {
    return rules.allowedBy + ": " + (rules.allowed.map((p) => p.text).join(", ") || "(none)");
  }
  return null;
}

function boTell(binding, report) {
  const tell = /** @type {any} */ (self)[binding];
  if (typeof tell === "function") {
    try { tell(JSON.stringify(report)); } catch (e) { /* the binding is gone with its session: nothing to tell */ }
  }
}

// Replace a constructor on the global with a proxy that checks each construction, and make the proxy the
// prototype's constructor too: `new WebSocket.prototype.constructor(url)` must not reach the native one.
function boGuardConstructor(name, check) {
  const Native = /** @type {any} */ (self)[name];
  if (typeof Native !== "function") { return false; }
  const Guarded = new Proxy(Native, {
    construct(target, args, newTarget) {
      check(args);
      return Reflect.construct(target, args, newTarget === Guarded ? target : newTarget);
    },
    apply() { throw new TypeError(`Failed to construct '${name}': Please use the 'new' operator.`); },
  });
  Object.defineProperty(Native.prototype, "constructor", { value: Guarded, writable: false, configurable: false });
  Object.defineProperty(self, name, { value: Guarded, writable: false, configurable: false });
  return true;
}

function boRefuse(name, why, args) {
  if (typeof self[name] !== "function") { return false; }
  const Refused = function () {
    boTell(args.binding, { url: String(arguments[0] || "").slice(0, 300), rule: args.fence ? "prepare's rehearsal"
      : "origin rules", what: `a ${name} started from a worker` });
    throw new DOMException(why, "SecurityError");
  };
  Object.defineProperty(self, name, { value: Refused, writable: false, configurable: false });
  return true;
}

function guardWorker(args) {
  const guarded = [];
  for (const name of ["WebSocket", "WebSocketStream"]) {
    const done = boGuardConstructor(name, (callArgs) => {
      const raw = String(callArgs[0]);
      const url = (() => { try { return new URL(raw, self.location.href).href; } catch (e) { return raw; } })();
      const rule = args.fence ? "prepare's rehearsal: a worker's WebSocket is not watched"
        : originRefusal(args.rules, raw, self.location.href);
      if (rule === null) { return; }
      boTell(args.binding, { url: url.slice(0, 300), rule, what: "a WebSocket connection of a worker" });
      throw new DOMException(`browserops blocked a WebSocket connection to ${url.slice(0, 200)} (${rule}); `
        + "nothing was sent there.", "SecurityError");
    });
    if (done) { guarded.push(name); }
  }
  for (const name of ["Worker", "SharedWorker"]) {
    if (boRefuse(name, "browserops refuses a worker started from a worker: it cannot watch what that one sends.",
      args)) {
      guarded.push(name);
    }
  }
  return guarded;
}

function refuseWorkers(args) {
  const refused = [];
  for (const name of args.names) {
    const why = `browserops refuses a ${name} here: it cannot watch what that worker sends.`;
    if (typeof self[name] !== "function") { continue; }
    const Refused = function () {
      boTell(args.binding, { url: String(arguments[0] || "").slice(0, 300), rule: args.rule, what: `a ${name}` });
      throw new DOMException(why, "SecurityError");
    };
    Object.defineProperty(self, name, { value: Refused, writable: false, configurable: false });
    refused.push(name);
  }
  return refused;
}

function refusalOf(args) {
  return originRefusal(args.rules, args.url, args.base);
}
