// Broker fan-out: @stomp/stompjs clients over SockJS (WebSocket transport) against the real server's in-process
// broker, each subscribed to /events of one tenant; events published through the server's publish path
// (app.realtime.publish, what the pipeline calls after persisting) → bench/results/fanout.json.
// Two measurements per subscriber count: throughput (a burst, published as fast as the broker takes it, timed until
// every subscriber has every message: messages/s published and deliveries/s) and latency (a steady 200 messages/s,
// publish → onMessage in the client, p50/p99). The clients run in this same process, on the same 2 cores: their
// parsing is part of what is measured, as a browser's would be on its own machine.
import { performance } from 'node:perf_hooks';
import SockJS from 'sockjs-client';
import { Client } from '@stomp/stompjs';
import { DESTINATIONS, SOCKJS_PREFIX } from '../contract';
import { startTestServer } from '../server/testkit';
import { publisherOf, summary, writeResult } from './lib';

const until = async (fact: () => boolean, what: string, timeoutMs = 60_000) => {
  const t = performance.now();
  while (!fact()) {
    if (performance.now() - t > timeoutMs) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
};

interface Sub { client: Client; received: number; latencies: number[] | null }

async function subscribers(url: string, token: string, n: number): Promise<Sub[]> {
  const subs: Sub[] = [];
  for (let i = 0; i < n; i++) {
    const sub: Sub = { client: undefined as unknown as Client, received: 0, latencies: null };
    let ready = false;
    sub.client = new Client({
      webSocketFactory: () => new SockJS(url, undefined, { transports: ['websocket'] }),
      connectHeaders: { Authorization: `Bearer ${token}` },
      reconnectDelay: 0, heartbeatIncoming: 0, heartbeatOutgoing: 0, debug: () => {},
      onConnect: () => {
        const receipt = `sub-${i}`;
        sub.client.watchForReceipt(receipt, () => { ready = true; });
        sub.client.subscribe(DESTINATIONS.events, (m) => {
          sub.received++;
          if (sub.latencies) sub.latencies.push(performance.now() - (JSON.parse(m.body) as { sentAt: number }).sentAt);
        }, { receipt });
      },
    });
    sub.client.activate();
    await until(() => ready, `subscriber ${i}`);
    subs.push(sub);
  }
  return subs;
}

const body = (i: number, sentAt: number) => ({
  id: i, eventCode: 1000, eventSourceId: 'reader-1', eventSourceName: 'Reader 1', eventPointId: 'door-1', eventPointName: 'Door 1',
  message: `Card swipe ${i}`, alert: false, acknowledge: false, process: false, eventPoint: [{ id: 'door-1', name: 'Door 1' }],
  time: new Date().toISOString(), priority: 100, instructions: null, sentAt,
});

export async function fanout() {
  const s = await startTestServer();
  const results: Record<string, unknown> = {};
  try {
    const token = await s.login('operator');
    const northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
    const publish = (i: number) => publisherOf(s.app).publish(northwind, DESTINATIONS.events, body(i, performance.now()));
    for (const n of [1, 10, 100]) {
      console.log(`fanout: ${n} subscriber(s)`);
      const subs = await subscribers(`${s.base}${SOCKJS_PREFIX.event}`, token, n);
      // throughput: a burst of messages, published in slices so the event loop also serves the sockets
      const burst = Math.max(1000, Math.round(20_000 / n));
      const t = performance.now();
      let sent = 0;
      while (sent < burst) {
        for (let k = 0; k < 100 && sent < burst; k++) publish(sent++);
        await new Promise((r) => setImmediate(r));
      }
      const publishedIn = performance.now() - t;
      await until(() => subs.every((x) => x.received >= burst), `every subscriber got ${burst}`);
      const seconds = (performance.now() - t) / 1000;
      // latency: a steady 200 messages/s for 2 s, each stamped when published
      for (const x of subs) x.latencies = [];
      const rate = 200, steady = 400;
      const t0 = performance.now();
      for (let i = 0; i < steady; i++) {
        const due = t0 + (i * 1000) / rate;
        while (performance.now() < due) await new Promise((r) => setTimeout(r, 1));
        publish(burst + i);
      }
      await until(() => subs.every((x) => x.received >= burst + steady), 'steady messages delivered');
      const lat = subs.flatMap((x) => x.latencies!);
      results[`${n} subscriber${n > 1 ? 's' : ''}`] = {
        burst: { messages: burst, publishMs: Math.round(publishedIn), seconds: Number(seconds.toFixed(2)), messagesPerSecond: Math.round(burst / seconds), deliveriesPerSecond: Math.round((burst * n) / seconds) },
        steady: { messagesPerSecond: rate, messages: steady, 'deliveryLatencyMs': summary(lat) },
      };
      for (const x of subs) await x.client.deactivate({ force: true } as never);
    }
    return writeResult('fanout', {
      transport: 'STOMP 1.2 over SockJS (websocket transport), in-process broker, publish via app.realtime.publish',
      results,
      target: null,
      note: 'No target was set for fan-out; these are reference numbers. Clients and server share the same 2 cores.',
    });
  } finally {
    await s.close();
  }
}
