// The deployer's server: json-server serving the built admin (dist/) and its REST API on one port, the JSON
// database file given as the first argument. One log line per request: "REQ <method> <path> <status>".
// POST /__corpus__/reload re-reads the database file after the test suite copied a fresh seed over it; it is
// handled before the logger, so a task's log holds only the requests the admin itself sent.
const path = require('path');
const jsonServer = require('json-server');

const [dbFile, port] = process.argv.slice(2);
const server = jsonServer.create();
const router = jsonServer.router(dbFile);

server.post('/__corpus__/reload', (req, res) => {
  router.db.read();
  res.json({ reloaded: true });
});
server.use((req, res, next) => {
  res.on('finish', () => console.log(`REQ ${req.method} ${req.originalUrl} ${res.statusCode}`));
  next();
});
server.use(jsonServer.defaults({ static: path.join(__dirname, 'dist'), logger: false, noCors: true }));
server.use(router);
server.listen(Number(port), '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
