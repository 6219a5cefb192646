'use strict'
/*
 * A Feathers v5 server (Express and socket.io transports, memory adapter, local authentication)
 * exposing the same services as django-services' conformance fixture, so the same scenarios can
 * run against both.
 *
 *   node reference-server.js 3030     # 0 picks a free port
 *   -> "Feathers reference server listening on http://127.0.0.1:<port>"
 *
 * With REFERENCE_SEED_USER=<email>:<password> in the environment, that user is created (as the
 * first user, id 0) before the server listens: a restarted server knows it again.
 *
 * Query values arrive as strings over REST. A generated Feathers app converts them with its
 * query schema; here a small hook does the same from each service's field types, so that
 * `?age[$gt]=30` compares numbers, as in the conformance fixture.
 */
const crypto = require('crypto')
const http = require('http')
const { feathers } = require('@feathersjs/feathers')
const express = require('@feathersjs/express')
const socketio = require('@feathersjs/socketio')
const errors = require('@feathersjs/errors')
const { MemoryService } = require('@feathersjs/memory')
const { AuthenticationService, JWTStrategy, authenticate } = require('@feathersjs/authentication')
const { LocalStrategy, hooks: localHooks } = require('@feathersjs/authentication-local')

const PAGINATE = { default: 10, max: 50 }
const STANDARD_METHODS = ['find', 'get', 'create', 'update', 'patch', 'remove']
const ERROR_CODES = [
  400, 401, 402, 403, 404, 405, 406, 408, 409, 410, 411, 422, 429, 500, 501, 502, 503
]

// Field types of each service, the id included; `nullable` fields default to null.
const PERSON = {
  fields: { id: 'integer', name: 'string', age: 'integer', created: 'boolean' },
  defaults: { age: null, created: false }
}
const PERSON_CUSTOMID = {
  fields: { customid: 'string', name: 'string', age: 'integer', created: 'boolean' },
  defaults: { age: null, created: false }
}
const MESSAGE = {
  fields: { id: 'integer', text: 'string', userId: 'integer', read: 'boolean' },
  defaults: { read: false }
}
const TODO = {
  fields: { id: 'integer', text: 'string', complete: 'boolean' },
  defaults: { complete: false }
}
const NOTE = { fields: { id: 'integer', text: 'string', userId: 'integer' }, defaults: {} }
const USER = { fields: { id: 'integer', email: 'string', password: 'string' }, defaults: {} }

const FILTERS = new Set(['$limit', '$skip', '$sort', '$select'])

function convertValue (field, type, value) {
  if (typeof value !== 'string') {
    return value
  }
  if (type === 'integer') {
    if (value === '') {
      return null
    }
    if (!/^-?\d+$/.test(value)) {
      throw new errors.BadRequest(`Invalid value '${value}' for field '${field}': not an integer`)
    }
    return parseInt(value, 10)
  }
  if (type === 'boolean') {
    if (value === 'true' || value === '1') {
      return true
    }
    if (value === 'false' || value === '0') {
      return false
    }
    throw new errors.BadRequest(`Invalid value '${value}' for field '${field}': not a boolean`)
  }
  return value
}

function convertCondition (field, type, condition) {
  if (condition === null || typeof condition !== 'object' || Array.isArray(condition)) {
    return convertValue(field, type, condition)
  }
  const converted = {}
  for (const [operator, operand] of Object.entries(condition)) {
    converted[operator] = Array.isArray(operand)
      ? operand.map((value) => convertValue(field, type, value))
      : convertValue(field, type, operand)
  }
  return converted
}

function convertQuery (fields, query) {
  const converted = {}
  for (const [key, value] of Object.entries(query)) {
    if ((key === '$or' || key === '$and') && Array.isArray(value)) {
      converted[key] = value.map((part) => convertQuery(fields, part || {}))
    } else if (!FILTERS.has(key) && fields[key]) {
      converted[key] = convertCondition(key, fields[key], value)
    } else {
      converted[key] = value
    }
  }
  return converted
}

// Query strings become typed queries, as a generated app's query validator does.
const coerceQuery = (shape) => async (context) => {
  context.params.query = convertQuery(shape.fields, context.params.query || {})
}

// Bodies keep the service's fields only and get their defaults, as a serializer does.
function shapeRecord (shape, data, { fill }) {
  const record = {}
  for (const field of Object.keys(shape.fields)) {
    if (data[field] !== undefined) {
      record[field] = data[field]
    } else if (fill && field in shape.defaults) {
      record[field] = shape.defaults[field]
    }
  }
  return record
}

const shapeData = (shape) => async (context) => {
  const fill = context.method !== 'patch'
  const shapeOne = (data) => shapeRecord(shape, data || {}, { fill })
  context.data = Array.isArray(context.data) ? context.data.map(shapeOne) : shapeOne(context.data)
}

const generateCustomId = async (context) => {
  const give = (data) => ({ ...data, customid: data.customid || crypto.randomUUID().replace(/-/g, '') })
  context.data = Array.isArray(context.data) ? context.data.map(give) : give(context.data)
}

function memory (options) {
  return new MemoryService({ startId: 1, ...options })
}

class TodoService extends MemoryService {
  async markAllComplete (_data, params) {
    const open = await this._find({ ...params, query: { complete: false }, paginate: false })
    for (const todo of open) {
      await this._patch(todo.id, { complete: true })
    }
    const result = { updated: open.length }
    this.emit('markedAllComplete', result)
    return result
  }
}

class ErrorService {
  async get (id) {
    const code = Number(id)
    if (ERROR_CODES.includes(code)) {
      throw new errors.errors[code](`boom ${code}`, { reason: 'test' })
    }
    throw new Error(`boom ${id}`)
  }
}

class SecretService {
  constructor () {
    this.lastId = 0
  }

  async find () {
    return [{ id: 1, secret: '42' }]
  }

  async create (data) {
    this.lastId += 1
    return { id: this.lastId, secret: data && data.secret }
  }
}

// Every method works on the notes of the user named in the route only.
const scopeToRouteUser = async (context) => {
  const userId = convertValue('userId', 'integer', String(context.params.route.userId))
  context.params.query = { ...context.params.query, userId }
  if (context.method === 'create' || context.method === 'update') {
    context.data = { ...context.data, userId }
  } else if (context.method === 'patch') {
    const { userId: _ignored, ...rest } = context.data || {}
    context.data = rest
  }
}

function createApp () {
  const app = express(feathers())

  app.set('authentication', {
    secret: 'feathers-reference-server-secret-for-the-interop-tests',
    entity: 'user',
    service: 'users',
    authStrategies: ['jwt', 'local'],
    jwtOptions: {
      header: { typ: 'access' },
      audience: 'https://yourdomain.com',
      issuer: 'feathers',
      algorithm: 'HS256',
      expiresIn: '1d'
    },
    local: { usernameField: 'email', passwordField: 'password' }
  })

  app.use(express.json())
  app.use(express.urlencoded({ extended: true }))
  app.configure(express.rest())
  app.configure(socketio())

  const stores = []
  const serve = (path, service, { shape, options, hooks = {} }) => {
    if (options) {
      app.use(path, service, options)
    } else {
      app.use(path, service)
    }
    stores.push(service)
    const before = hooks.before || {}
    app.service(path).hooks({
      before: {
        ...before,
        all: [coerceQuery(shape), ...(before.all || [])],
        create: [...(before.create || []), shapeData(shape)],
        update: [...(before.update || []), shapeData(shape)],
        patch: [...(before.patch || []), shapeData(shape)]
      },
      after: hooks.after || {}
    })
  }

  serve('people', memory({ multi: true }), { shape: PERSON })
  serve('people-paginated', memory({ multi: true, paginate: PAGINATE }), { shape: PERSON })
  serve('people-customid', memory({ id: 'customid', multi: true }), {
    shape: PERSON_CUSTOMID,
    hooks: { before: { create: [generateCustomId] } }
  })
  serve('api/v1/messages', memory({ paginate: PAGINATE }), { shape: MESSAGE })
  serve('todos', new TodoService({ startId: 1 }), {
    shape: TODO,
    options: { methods: [...STANDARD_METHODS, 'markAllComplete'], events: ['markedAllComplete'] }
  })
  serve('users', memory(), {
    shape: USER,
    hooks: {
      before: {
        find: [authenticate('jwt')],
        get: [authenticate('jwt')],
        create: [localHooks.hashPassword('password')],
        update: [authenticate('jwt'), localHooks.hashPassword('password')],
        patch: [authenticate('jwt'), localHooks.hashPassword('password')],
        remove: [authenticate('jwt')]
      },
      after: { all: [localHooks.protect('password')] }
    }
  })
  serve('users/:userId/notes', memory(), {
    shape: NOTE,
    hooks: { before: { all: [scopeToRouteUser] } }
  })

  app.use('errors', new ErrorService())
  app.use('secrets', new SecretService())
  app.service('secrets').hooks({
    before: { find: [authenticate('jwt')], create: [authenticate('jwt')] }
  })

  const authentication = new AuthenticationService(app)
  authentication.register('jwt', new JWTStrategy())
  authentication.register('local', new LocalStrategy())
  app.use('authentication', authentication)

  // The fixture's channel policy (CONTRACT-SOCKETS.md §7), on the generated app's pattern.
  app.on('connection', (connection) => app.channel('anonymous').join(connection))
  app.on('login', (authResult, { connection }) => {
    if (connection) {
      app.channel(app.channels).leave(connection)
      app.channel('authenticated').join(connection)
      app.channel(`users/${authResult.user.id}`).join(connection)
    }
  })
  app.publish(() => app.channel('authenticated'))
  app.service('api/v1/messages').publish((message) => app.channel(`users/${message.userId}`))
  app.service('users').publish((user) => [
    app.channel('authenticated'),
    app.channel(`users/${user.id}`)
  ])
  app.service('secrets').publish(() => null)

  app.post('/__reset', (_req, res) => {
    for (const service of stores) {
      service.store = {}
    }
    res.status(204).end()
  })

  app.use(express.notFound())
  app.use(express.errorHandler({ logger: false }))
  return app
}

async function main () {
  const port = Number(process.argv[2] || 0)
  const app = createApp()
  // What `app.listen()` does, with the seed user created before the port accepts a connection:
  // a client reconnecting to a restarted server logs in again as soon as it can connect.
  const server = http.createServer(app)
  await app.setup(server)
  const seed = process.env.REFERENCE_SEED_USER
  if (seed) {
    const separator = seed.indexOf(':')
    await app.service('users').create({
      email: seed.slice(0, separator),
      password: seed.slice(separator + 1)
    })
  }
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  const address = server.address()
  console.log(`Feathers reference server listening on http://127.0.0.1:${address.port}`)
  const stop = () => {
    server.close(() => process.exit(0))
    server.closeAllConnections()
    app.io.close()
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
