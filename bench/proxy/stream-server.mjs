// An upstream that answers a streamed chat completion with N chunks, as fast as the reader takes them. The first
// chunk carries the moment it was written (epoch ms, sub-millisecond), so a client on the same machine can tell how
// long the proxy held it.
import http from 'node:http';
const N = Number(process.argv[2] ?? 1_000_000);
const server = http.createServer((req, res) => {
  // A warm-up asks for fewer chunks.
  const n = Number(req.headers['x-chunks'] ?? N);
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const at = performance.timeOrigin + performance.now();
    res.write(`data: {"id":"c","object":"chat.completion.chunk","created":1679000000,"model":"gpt-3.5-turbo","sent_at":${at},"choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}\n\n`);
    const chunk = 'data: {"id":"c","object":"chat.completion.chunk","created":1679000000,"model":"gpt-3.5-turbo","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}]}\n\n';
    let i = 1;
    const pump = () => {
      while (i < n) {
        i++;
        if (!res.write(chunk)) return res.once('drain', pump);
      }
      res.end('data: [DONE]\n\n');
    };
    setTimeout(pump, 20);
  });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })));
