// talkback (a Node recording proxy, from the npm registry) recording the same workload: its module folder is argv[3].
import { createRequire } from 'node:module';
const require = createRequire(process.argv[3] + '/');
const talkback = require('talkback');
// OVERWRITE: every request is sent upstream and its answer saved, as `conformance proxy --record` does within a
// session. NEW would save the workload's few distinct requests once and replay them from memory after that: a
// replay's throughput, not a recording's.
const server = talkback({ host: process.argv[2], record: talkback.Options.RecordMode.OVERWRITE, port: 0, path: process.argv[4], silent: true, summary: false });
await server.start();
console.log(JSON.stringify({ url: `http://127.0.0.1:${server.server.address().port}` }));
