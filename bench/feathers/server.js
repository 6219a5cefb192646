// The FeathersJS v5 reference: @feathersjs/koa + @feathersjs/knex over the benchmark's SQLite
// file, as a Feathers app declares the service, in 2 processes (node:cluster) like gunicorn's
// 2 workers.
//
//   node server.js ../.data/people-100k.sqlite3 8030
//
//   GET  /people?age[$gt]=30&$sort[age]=-1&$limit=10
//   GET  /people/42
//   POST /people {"name": "Ada", "age": 36, "created": "2024-01-01T00:00:00Z"}
//   GET  /ready
import cluster from 'node:cluster'
import { feathers } from '@feathersjs/feathers'
import { koa, rest, bodyParser, errorHandler } from '@feathersjs/koa'
import { KnexService } from '@feathersjs/knex'
import knex from 'knex'

const [filename, port] = process.argv.slice(2)
const WORKERS = 2

if (cluster.isPrimary) {
  for (let index = 0; index < WORKERS; index++) cluster.fork()
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers)) worker.kill('SIGTERM')
    process.exit(0)
  })
} else {
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
  app.use(
    'people',
    new KnexService({ Model: db, name: 'people', id: 'id', paginate: { default: 10, max: 50 } })
  )
  await app.listen(Number(port))
}
