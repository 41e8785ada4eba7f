// The load generator of bench/webhook.ts, in a process of its own so it does not share the
// server's event loop: autocannon posts pre-signed notification bodies (each once, in order)
// and prints its result as JSON.
//
//   node bench/lib/webhook-load.mjs <url> <bodies.json> <from> <count> <connections> [authorization]
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const [url, file, from, count, connections, authorization] = process.argv.slice(2);
const bodies = JSON.parse(readFileSync(file, 'utf8')).slice(
  Number(from),
  Number(from) + Number(count),
);
let next = 0;
const result = await autocannon({
  url,
  connections: Number(connections),
  amount: bodies.length,
  method: 'POST',
  requests: [
    {
      setupRequest: (request) => {
        const item = bodies[next++ % bodies.length];
        return {
          ...request,
          method: 'POST',
          body: item.body,
          headers: {
            'content-type': 'application/json',
            ...(authorization ? { authorization } : {}),
            'google-health-api-signature': item.signature,
          },
        };
      },
    },
  ],
});
process.stdout.write(
  JSON.stringify({
    sent: next,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
    // Per-second samples are coarse for a fixed count of requests: the count over the time.
    rps: result.requests.total / result.duration,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
  }),
);
