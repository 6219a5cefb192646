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
import { io } from 'socket.io-client'

import { latencies, now, runClients } from './client_runner.js'

const EVENT = 'people created'

const [url, countArgument] = process.argv.slice(2)

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

await runClients({
  count: Number(countArgument),
  receiver,
  close: (state) => state.socket.close()
})
