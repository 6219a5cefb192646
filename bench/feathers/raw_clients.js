// The light client process of the socket benchmark (`bench.sockets --clients raw`): many
// websockets speaking just enough of engine.io v4 / socket.io v5 to receive events, with the
// `ws` package and no socket.io-client. It speaks the JSON lines of socket_clients.js, so the
// runner measures it the same way:
//
//   node raw_clients.js http://127.0.0.1:8000 250
//
// prints {"connected": n, "failed": k, ...} once its sockets are connected, then reads
// {"expect": writes, "timeout": seconds} from stdin, waits until every socket has received
// that many distinct events (or the timeout), prints the latencies and counts, and disconnects.
//
// The protocol, over `/socket.io/?EIO=4&transport=websocket`: the server opens with `0{...}`,
// the client joins the default namespace with `40` and is answered `40{...}` (`44{...}`
// refuses it), the server's pings `2` are answered `3`, and an event arrives as
// `42["people created",{...}]`. An event is not parsed as JSON: its sequence and send time
// are read from its `name` field ("<sequence> <send time>", the writer's time.monotonic(), the
// same CLOCK_MONOTONIC as process.hrtime here), which is all the runner needs. Packets this
// client has no use for (acknowledgements, binary events, other events) are counted, not read.
import { createInterface } from 'node:readline'
import WebSocket from 'ws'

const EVENT_PREFIX = '42["people created",'
const NAME_FIELD = '"name":"'
// Sockets connecting at once: a handshake storm would time out on a loaded 2-core machine.
const CONNECT_CONCURRENCY = 20
const CONNECT_TIMEOUT_MS = 60000

const [url, countArgument] = process.argv.slice(2)
const count = Number(countArgument)
const endpoint = url.replace(/^http/, 'ws').replace(/\/$/, '') + '/socket.io/?EIO=4&transport=websocket'
const latencies = []
let otherPackets = 0
const now = () => Number(process.hrtime.bigint()) / 1e9
// Resolves once written: a pipe is written asynchronously, and process.exit would cut it.
const say = (message) =>
  new Promise((resolve) => process.stdout.write(JSON.stringify(message) + '\n', resolve))
const rssKb = () => Math.round(process.memoryUsage().rss / 1024)
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}

// One event: its sequence and its latency, read from the name without parsing the packet.
function onEvent (state, text, arrived) {
  const start = text.indexOf(NAME_FIELD, EVENT_PREFIX.length)
  if (start < 0) {
    otherPackets += 1
    return
  }
  const from = start + NAME_FIELD.length
  const space = text.indexOf(' ', from)
  const end = text.indexOf('"', space)
  latencies.push((arrived - Number(text.slice(space + 1, end))) * 1000)
  state.seen.add(Number(text.slice(from, space)))
  state.received += 1
}

function receiver () {
  const state = { seen: new Set(), received: 0, reason: null, connectedAt: 0, after: 0 }
  state.connect = () =>
    new Promise((resolve) => {
      let settled = false
      const settle = (ok) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        if (!ok) socket.terminate()
        resolve(ok)
      }
      const timer = setTimeout(() => settle(false), CONNECT_TIMEOUT_MS)
      // Events are small JSON: no compression, and no UTF-8 check of frames only sliced.
      const socket = new WebSocket(endpoint, { perMessageDeflate: false, skipUTF8Validation: true })
      state.socket = socket
      socket.on('message', (data) => {
        const arrived = now()
        const text = data.toString('latin1')
        if (text.startsWith(EVENT_PREFIX)) onEvent(state, text, arrived)
        else if (text === '2') socket.send('3')
        else if (text.startsWith('0{')) socket.send('40')
        else if (text.startsWith('40')) {
          state.connectedAt = now()
          settle(true)
        } else if (text.startsWith('44')) settle(false)
        else if (text.startsWith('41')) state.reason = 'io server disconnect'
        else otherPackets += 1
      })
      socket.on('error', () => settle(false))
      socket.on('close', () => {
        if (!settled) return settle(false)
        if (state.reason === null) state.reason = 'transport close'
        state.after = now() - state.connectedAt
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
    other_packets: otherPackets,
    cpu_seconds: cpuSeconds() - cpuConnected,
    rss_kb: rssKb()
  })
}
for (const state of receivers) state.socket.close()
process.exit(0)
