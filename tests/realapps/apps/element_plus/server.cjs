// The deployer's server: json-server serving the built admin (dist/) and its REST API under /api on one port, the
// JSON database file given as the first argument. The admin routes in the browser's history (/suppliers,
// /suppliers/2/edit), so any other GET that is not a file of dist/ answers the admin's index.html.
// One log line per request: "REQ <method> <path> <status>". POST /__corpus__/reload re-reads the database file
// after the test suite copied a fresh seed over it; it is handled before the logger, so a task's log holds only
// the requests the admin itself sent.
const path = require('path');
const jsonServer = require('json-server');

const [dbFile, port] = process.argv.slice(2);
const server = jsonServer.create();
const router = jsonServer.router(dbFile);
const dist = path.join(__dirname, 'dist');

server.post('/__corpus__/reload', (req, res) => {
  router.db.read();
  res.json({ reloaded: true });
});
server.use((req, res, next) => {
  res.on('finish', () => console.log(`REQ ${req.method} ${req.originalUrl} ${res.statusCode}`));
  next();
});
server.use(jsonServer.defaults({ static: dist, logger: false, noCors: true }));
server.use('/api', router);
server.get('*', (req, res) => res.sendFile(path.join(dist, 'index.html')));
server.listen(Number(port), '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
