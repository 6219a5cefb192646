// One client process of the socket benchmark in Node (`bench.sockets` starts a few): many
// socket.io-client sockets over websocket, recording when each `people created` event arrives.
// It speaks the JSON lines of bench/socket_clients.py, so either server is measured by the
// same clients:
//
//   node socket_clients.js http://127.0.0.1:8000 250
//
// prints {"connected": n, "failed": k, ...} once its sockets are connected, then reads
// {"expect": writes, "timeout": seconds} from stdin, waits until every socket has received
// that many distinct events (or the timeout), prints the latencies and counts, and disconnects.
//
// A write names itself "<sequence> <send time>", the writer's time.monotonic(): the same
// CLOCK_MONOTONIC as process.hrtime here, so a delivery's latency is arrival minus send time.
import { createInterface } from 'node:readline'
import { io } from 'socket.io-client'

const EVENT = 'people created'
// Sockets connecting at once: a handshake storm would time out on a loaded 2-core machine.
const CONNECT_CONCURRENCY = 20

const [url, countArgument] = process.argv.slice(2)
const count = Number(countArgument)
const latencies = []
const now = () => Number(process.hrtime.bigint()) / 1e9
// Resolves once written: a pipe is written asynchronously, and process.exit would cut it.
const say = (message) =>
  new Promise((resolve) => process.stdout.write(JSON.stringify(message) + '\n', resolve))
const rssKb = () => Math.round(process.memoryUsage().rss / 1024)
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}

function receiver () {
  const state = { seen: new Set(), received: 0, reason: null, connectedAt: 0, after: 0 }
  state.connect = () =>
    new Promise((resolve) => {
      const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true, timeout: 60000 })
      state.socket = socket
      socket.on(EVENT, (person) => {
        const arrived = now()
        const [sequence, sent] = person.name.split(' ')
        latencies.push((arrived - Number(sent)) * 1000)
        state.seen.add(Number(sequence))
        state.received += 1
      })
      socket.once('connect', () => {
        state.connectedAt = now()
        socket.on('disconnect', (reason) => {
          state.reason = String(reason)
          state.after = now() - state.connectedAt
        })
        resolve(true)
      })
      socket.once('connect_error', () => {
        socket.close()
        resolve(false)
      })
    })
  return state
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
    cpu_seconds: cpuSeconds() - cpuConnected,
    rss_kb: rssKb()
  })
}
for (const state of receivers) state.socket.close()
process.exit(0)
