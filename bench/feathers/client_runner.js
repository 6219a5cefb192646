// What the socket benchmark's Node client processes share (socket_clients.js, raw_clients.js):
// the clock, the latencies, and the conversation with the runner in JSON lines.
//
// `runClients({ count, receiver, report, close })` makes `count` receivers (each a state with
// `connect()` resolving to whether it connected, `seen`, a set of event sequences, `received`,
// `reason`, why it disconnected, or null, and `after`, seconds from connecting to that), connects
// them a few at a time, prints {"connected": n, "failed": k, ...}, then reads
// {"expect": writes, "timeout": seconds} from stdin, waits until every connected socket has
// received that many distinct events (or the timeout), prints the latencies and counts (with
// `report()`'s own figures), closes each receiver with `close(state, connected)` and exits.
import { createInterface } from 'node:readline'

// Sockets connecting at once: a handshake storm would time out on a loaded 2-core machine.
const CONNECT_CONCURRENCY = 20

// The writer names each write "<sequence> <send time>", its time.monotonic(): the same
// CLOCK_MONOTONIC as process.hrtime here, so a delivery's latency is arrival minus send time.
export const now = () => Number(process.hrtime.bigint()) / 1e9
// Every delivery's latency in milliseconds, pushed by the receivers.
export const latencies = []

// Resolves once written: a pipe is written asynchronously, and process.exit would cut it.
const say = (message) =>
  new Promise((resolve) => process.stdout.write(JSON.stringify(message) + '\n', resolve))
const rssKb = () => Math.round(process.memoryUsage().rss / 1024)
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}

async function connectAll (receivers) {
  const outcomes = new Array(receivers.length)
  let next = 0
  async function worker () {
    while (next < receivers.length) {
      const index = next++
      outcomes[index] = await receivers[index].connect()
    }
  }
  await Promise.all(Array.from({ length: CONNECT_CONCURRENCY }, worker))
  return outcomes
}

export async function runClients ({ count, receiver, report = () => ({}), close }) {
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
  const receivers = Array.from({ length: count }, receiver)
  const started = now()
  const outcomes = await connectAll(receivers)
  const connected = receivers.filter((_, index) => outcomes[index])
  await say({
    connected: connected.length,
    failed: count - connected.length,
    connect_seconds: now() - started,
    rss_kb: rssKb()
  })
  const cpuConnected = cpuSeconds()
  const line = await lines.next()
  if (!line.done) {
    const order = JSON.parse(line.value)
    const deadline = now() + order.timeout
    while (now() < deadline && !connected.every((state) => state.seen.size >= order.expect)) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const reasons = {}
    for (const state of connected) {
      if (state.reason !== null) reasons[state.reason] = (reasons[state.reason] || 0) + 1
    }
    await say({
      latencies_ms: latencies.map((value) => Math.round(value * 1000) / 1000),
      received: connected.reduce((sum, state) => sum + state.received, 0),
      unique: connected.reduce((sum, state) => sum + state.seen.size, 0),
      short_sockets: connected.filter((state) => state.seen.size < order.expect).length,
      disconnected: reasons,
      disconnected_after: connected
        .filter((state) => state.reason !== null)
        .map((state) => Math.round(state.after * 10) / 10)
        .sort((a, b) => a - b),
      ...report(),
      cpu_seconds: cpuSeconds() - cpuConnected,
      rss_kb: rssKb()
    })
  }
  receivers.forEach((state, index) => close(state, outcomes[index]))
  process.exit(0)
}
