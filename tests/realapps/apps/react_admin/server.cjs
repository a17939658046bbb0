// The deployer's server: json-server serving the built admin (dist/) and its REST API on one port, the JSON
// database file given as the first argument. One log line per request: "REQ <method> <path> <status>".
// POST /__corpus__/reload re-reads the database file after the test suite copied a fresh seed over it; it is
// handled before the logger, so a task's log holds only the requests the admin itself sent.
// POST /__corpus__/hold {"paths": ["/segments"], "ms": 1500} makes the API answer GETs of those paths that much
// later (a slow backend, so a test can make a single-page app's late data deterministic); a reload ends it.
const path = require('path');
const jsonServer = require('json-server');

const [dbFile, port] = process.argv.slice(2);
const server = jsonServer.create();
const router = jsonServer.router(dbFile);

let held = { paths: [], ms: 0 };

server.post('/__corpus__/reload', (req, res) => {
  router.db.read();
  held = { paths: [], ms: 0 };
  res.json({ reloaded: true });
});
server.post('/__corpus__/hold', jsonServer.bodyParser, (req, res) => {
  held = { paths: req.body.paths || [], ms: Number(req.body.ms) || 0 };
  res.json({ held });
});
server.use((req, res, next) => {
  const slow = req.method === 'GET' && held.paths.some((p) => req.path === p || req.path.startsWith(p + '/'));
  if (slow) setTimeout(next, held.ms); else next();
});
server.use((req, res, next) => {
  res.on('finish', () => console.log(`REQ ${req.method} ${req.originalUrl} ${res.statusCode}`));
  next();
});
server.use(jsonServer.defaults({ static: path.join(__dirname, 'dist'), logger: false, noCors: true }));
server.use(router);
server.listen(Number(port), '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
