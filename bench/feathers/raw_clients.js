// The light client process of the socket benchmark (`bench.sockets --clients raw`): many
// websockets speaking just enough of engine.io v4 / socket.io v5 to receive events, on Node's
// `net` sockets with no websocket or socket.io library (the `ws` package's framing and events
// cost about as much again per event, socket.io-client's twice). It speaks the JSON lines of
// socket_clients.js, so the runner measures it the same way:
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
// same CLOCK_MONOTONIC as process.hrtime here), which is all the runner needs. Websocket
// frames are read by hand (RFC 6455: the server's are unmasked, text, unfragmented); the
// server's websocket pings are answered. Frames and packets this client has no use for are
// counted in `other_packets`, so a run that met them shows it.
import net from 'node:net'
import { randomBytes } from 'node:crypto'

import { latencies, now, runClients } from './client_runner.js'

const EVENT_PREFIX = '42["people created",'
const NAME_FIELD = '"name":"'
// How long a socket may take to connect, on a loaded machine.
const CONNECT_TIMEOUT_MS = 60000
const TEXT = 0x1
const CLOSE = 0x8
const PING = 0x9
const PONG_FRAME = 0xa

const [url, countArgument] = process.argv.slice(2)
const target = new URL(url)
let otherPackets = 0

// A client's frame (payload under 126 bytes) must be masked: a zero mask leaves it as it is.
const frame = (opcode, payload) =>
  Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length, 0, 0, 0, 0]), payload])
const PONG = frame(TEXT, Buffer.from('3')) // engine.io's pong, in a text frame
const JOIN = frame(TEXT, Buffer.from('40'))
const GOODBYE = frame(CLOSE, Buffer.alloc(0))
const READ_BUFFER = Buffer.alloc(65536)
const handshake = () =>
  'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n' +
  `Host: ${target.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`

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

// One socket.io packet, the payload of one text frame.
function onPacket (state, text, arrived) {
  if (text.startsWith(EVENT_PREFIX)) onEvent(state, text, arrived)
  else if (text === '2') state.socket.write(PONG)
  else if (text.startsWith('0{')) state.socket.write(JOIN)
  else if (text.startsWith('40')) state.settle(true)
  else if (text.startsWith('44')) state.settle(false)
  else if (text.startsWith('41')) state.reason = 'io server disconnect'
  else otherPackets += 1
}

// The frames in `chunk` (after what an earlier chunk left unfinished); returns what is left.
function onFrames (state, chunk, arrived) {
  let offset = 0
  while (offset + 2 <= chunk.length) {
    const opcode = chunk[offset] & 0x0f
    let length = chunk[offset + 1] & 0x7f
    let head = 2
    if (length === 126) {
      if (offset + 4 > chunk.length) break
      length = chunk.readUInt16BE(offset + 2)
      head = 4
    } else if (length === 127) {
      if (offset + 10 > chunk.length) break
      length = Number(chunk.readBigUInt64BE(offset + 2))
      head = 10
    }
    const start = offset + head
    if (start + length > chunk.length) break
    if (opcode === TEXT) onPacket(state, chunk.latin1Slice(start, start + length), arrived)
    else if (opcode === PING) {
      state.socket.write(frame(PONG_FRAME, chunk.subarray(start, start + length)))
    }
    else if (opcode === CLOSE) state.socket.end(GOODBYE)
    else otherPackets += 1
    offset = start + length
  }
  return offset < chunk.length ? chunk.subarray(offset) : null
}

function receiver () {
  const state = { seen: new Set(), received: 0, reason: null, connectedAt: 0, after: 0 }
  state.connect = () =>
    new Promise((resolve) => {
      let settled = false
      let upgraded = false
      let pending = null
      state.settle = (ok) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        if (ok) state.connectedAt = now()
        else socket.destroy()
        resolve(ok)
      }
      const timer = setTimeout(() => state.settle(false), CONNECT_TIMEOUT_MS)
      // Every socket reads into one buffer, processed before the next read: no allocation
      // and no stream machinery per read (what is left unfinished is copied out).
      const socket = net.connect({
        host: target.hostname,
        port: Number(target.port || 80),
        onread: { buffer: READ_BUFFER, callback: onRead }
      })
      state.socket = socket
      socket.setNoDelay(true)
      socket.on('connect', () => socket.write(handshake()))
      function onRead (length, buffer) {
        const arrived = now()
        const data = buffer.subarray(0, length)
        let chunk = pending === null ? data : Buffer.concat([pending, data])
        if (!upgraded) {
          const end = chunk.indexOf('\r\n\r\n')
          if (end < 0) {
            pending = Buffer.from(chunk)
            return
          }
          if (!chunk.latin1Slice(0, end).startsWith('HTTP/1.1 101')) return state.settle(false)
          upgraded = true
          chunk = chunk.subarray(end + 4)
        }
        const rest = onFrames(state, chunk, arrived)
        pending = rest === null ? null : Buffer.from(rest)
      }
      socket.on('error', () => state.settle(false))
      socket.on('close', () => {
        if (!settled) return state.settle(false)
        if (state.reason === null) state.reason = 'transport close'
        state.after = now() - state.connectedAt
      })
    })
  return state
}

await runClients({
  count: Number(countArgument),
  receiver,
  report: () => ({ other_packets: otherPackets }),
  close: (state, connected) => {
    if (connected) state.socket.end(GOODBYE)
  }
})
