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
let firstSent = 0;
let lastAnswered = 0;
const instance = autocannon({
  url,
  connections: Number(connections),
  amount: bodies.length,
  method: 'POST',
  requests: [
    {
      setupRequest: (request) => {
        if (next === 0) firstSent = performance.now();
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
// autocannon ends a fixed count of requests on its next one-second tick, so its own duration
// is rounded to whole seconds: the time from the first request to the last answer is kept here.
instance.on('response', () => {
  lastAnswered = performance.now();
});
const result = await new Promise((resolve, reject) =>
  instance.on('done', resolve).on('error', reject),
);
const seconds = (lastAnswered - firstSent) / 1000;
process.stdout.write(
  JSON.stringify({
    sent: next,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds,
    rps: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
  }),
);
