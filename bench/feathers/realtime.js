// The FeathersJS v5 real-time reference of the socket benchmark: @feathersjs/koa (REST) and
// @feathersjs/socketio over the benchmark's SQLite file, in one process like the one uvicorn
// process it is compared with, with a channel that sends every `people` event to every
// connection.
//
//   node realtime.js ../.data/people-1k.sqlite3 8031
//
//   POST /people {"name": "Ada", "age": 36, "created": "2024-01-01T00:00:00Z"}
//   socket.io at /socket.io/: `people created` for every create
//   GET  /ready
import { feathers } from '@feathersjs/feathers'
import { koa, rest, bodyParser, errorHandler } from '@feathersjs/koa'
import socketio from '@feathersjs/socketio'
import { KnexService } from '@feathersjs/knex'
import knex from 'knex'

const [filename, port] = process.argv.slice(2)

const db = knex({
  client: 'better-sqlite3',
  connection: { filename },
  useNullAsDefault: true
})
const app = koa(feathers())
app.use(errorHandler())
app.use(async (ctx, next) => {
  if (ctx.path === '/ready') {
    ctx.body = 'ok'
    return
  }
  await next()
})
app.use(bodyParser())
app.configure(rest())
app.configure(socketio())
app.use(
  'people',
  new KnexService({ Model: db, name: 'people', id: 'id', paginate: { default: 10, max: 50 } })
)
app.on('connection', (connection) => app.channel('everyone').join(connection))
app.publish(() => app.channel('everyone'))
process.on('SIGTERM', () => process.exit(0))
await app.listen(Number(port))
