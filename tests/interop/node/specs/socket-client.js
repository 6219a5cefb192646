'use strict'
/*
 * @feathersjs/socketio-client and @feathersjs/authentication-client over socket.io (websocket,
 * then long-polling): calls and their typed values, acks and error objects on a raw socket,
 * login, logout and re-authentication per connection, and the handshake's Authorization.
 */
const assert = require('assert')
const errors = require('@feathersjs/errors')
const { MemoryStorage } = require('@feathersjs/authentication-client')
const { reset } = require('../lib/connect')
const { SOCKET_TRANSPORTS, connectSocket, nextEvent, rawCall } = require('../lib/socket')

const EMAIL = 'ada@example.com'
const PASSWORD = 'correct horse battery staple'
const LOCAL = { strategy: 'local', email: EMAIL, password: PASSWORD }

async function rejection (promise) {
  try {
    await promise
  } catch (error) {
    return error
  }
  assert.fail('the call succeeded where an error was expected')
}

for (const transport of SOCKET_TRANSPORTS) {
  describe(`socketio-client (${transport})`, function () {
    const sockets = []
    const open = (options) => {
      const client = connectSocket(transport, options)
      sockets.push(client.socket)
      return client
    }

    beforeEach(reset)
    afterEach(function () {
      for (const socket of sockets.splice(0)) {
        socket.close()
      }
    })

    describe('calls', function () {
      it('answers every standard method', async function () {
        const people = open().app.service('people')
        const ada = await people.create({ name: 'Ada', age: 36 })
        assert.deepStrictEqual(await people.get(ada.id), ada)
        const [bob] = await people.create([{ name: 'Bob', age: 20 }])
        assert.deepStrictEqual(
          (await people.find({ query: { $sort: { age: -1 } } })).map((person) => person.name),
          ['Ada', 'Bob']
        )
        assert.strictEqual((await people.patch(bob.id, { age: 21 })).age, 21)
        assert.strictEqual((await people.update(ada.id, { name: 'Ada L.' })).age, null)
        assert.strictEqual((await people.remove(ada.id)).name, 'Ada L.')
        assert.deepStrictEqual(await people.find({ query: { name: 'Ada L.' } }), [])
      })

      it('keeps the JSON types of ids and query values', async function () {
        const people = open().app.service('people')
        const ada = await people.create({ name: 'Ada', age: null })
        await people.create({ name: 'Bob', age: 20 })
        assert.deepStrictEqual(await people.get(ada.id), ada)
        assert.deepStrictEqual(await people.get(String(ada.id)), ada)
        assert.deepStrictEqual(await people.find({ query: { name: { $in: [] } } }), [])
        assert.deepStrictEqual(
          (await people.find({ query: { age: null } })).map((person) => person.name),
          ['Ada']
        )
        assert.deepStrictEqual(
          (await people.find({ query: { $limit: 1, $skip: 1 } })).map((person) => person.name),
          ['Bob']
        )
        const missing = await rejection(people.get(424242))
        assert.ok(missing instanceof errors.NotFound)
        assert.strictEqual(missing.message, "No record found for id '424242'")
      })

      it('reaches custom methods and route services', async function () {
        const { app } = open()
        await app.service('todos').create([{ text: 'a' }].map((todo) => todo)[0])
        assert.deepStrictEqual(await app.service('todos').markAllComplete({}), { updated: 1 })
        const user = await app.service('users').create({ email: EMAIL, password: PASSWORD })
        const notes = app.service('users/:userId/notes')
        const note = await notes.create({ text: 'n' }, { route: { userId: user.id } })
        assert.strictEqual(note.text, 'n')
        assert.deepStrictEqual(await notes.find({ route: { userId: user.id } }), [note])
      })

      it('rebuilds error classes with their data', async function () {
        const error = await rejection(open().app.service('errors').get(409))
        assert.ok(error instanceof errors.Conflict, error.name)
        assert.strictEqual(error.message, 'boom 409')
        assert.deepStrictEqual(error.data, { reason: 'test' })
      })
    })

    describe('raw socket', function () {
      it('acks a success with exactly [null, result]', async function () {
        const { socket } = open()
        assert.deepStrictEqual(await rawCall(socket, 'find', 'people', {}), [null, []])
      })

      it('acks an error with exactly one error object', async function () {
        const { socket } = open()
        const answer = await rawCall(socket, 'get', 'people', 424242, {})
        assert.deepStrictEqual(answer, [{
          name: 'NotFound',
          message: "No record found for id '424242'",
          code: 404,
          className: 'not-found'
        }])
      })

      it('answers the errors of the socket transport', async function () {
        const { socket } = open()
        const [unknown] = await rawCall(socket, 'find', 'nowhere', {})
        assert.deepStrictEqual([unknown.name, unknown.message], ['NotFound', "Service 'nowhere' not found"])
        const [notAllowed] = await rawCall(socket, 'markAllComplete', 'people', {}, {})
        assert.deepStrictEqual(
          [notAllowed.code, notAllowed.message],
          [405, "Method 'markAllComplete' not allowed on service 'people'"]
        )
        const [tooMany] = await rawCall(socket, 'find', 'people', {}, {})
        assert.deepStrictEqual(
          [tooMany.code, tooMany.message],
          [400, "Too many arguments for 'find' method"]
        )
      })
    })

    describe('authentication', function () {
      let app, socket, storage

      beforeEach(async function () {
        storage = new MemoryStorage()
        ;({ app, socket } = open({ storage }))
        await app.service('users').create({ email: EMAIL, password: PASSWORD })
      })

      it('a login authenticates the connection for later calls', async function () {
        assert.strictEqual((await rejection(app.service('secrets').find())).code, 401)
        const login = await app.authenticate(LOCAL)
        assert.strictEqual(login.user.email, EMAIL)
        assert.deepStrictEqual(await app.service('secrets').find(), [{ id: 1, secret: '42' }])
        assert.deepStrictEqual(await rawCall(socket, 'find', 'secrets', {}), [
          null,
          [{ id: 1, secret: '42' }]
        ])
      })

      it('logout ends the login of that connection only', async function () {
        const { accessToken } = await app.authenticate(LOCAL)
        const other = open({ storage: new MemoryStorage() })
        await other.app.authenticate({ strategy: 'jwt', accessToken })

        const logout = await app.logout()
        assert.strictEqual(logout.accessToken, accessToken)
        const refused = await rejection(app.service('secrets').find())
        assert.ok(refused instanceof errors.NotAuthenticated)
        assert.strictEqual(refused.message, 'Not authenticated')
        assert.deepStrictEqual(await other.app.service('secrets').find(), [{ id: 1, secret: '42' }])
      })

      it('a new socket is logged in again by reAuthenticate', async function () {
        await app.authenticate(LOCAL)
        const again = open({ storage })
        await again.app.reAuthenticate()
        assert.deepStrictEqual(await again.app.service('secrets').find(), [{ id: 1, secret: '42' }])
      })

      it('the client re-authenticates by itself after a reconnect', async function () {
        await app.authenticate(LOCAL)
        const reconnected = nextEvent(socket, 'connect', 10000)
        socket.io.engine.close()
        await reconnected
        assert.deepStrictEqual(await app.service('secrets').find(), [{ id: 1, secret: '42' }])
      })

      it('the handshake Authorization header logs the connection in', async function () {
        const { accessToken } = await app.authenticate(LOCAL)
        const headed = open({ socketOptions: { extraHeaders: { Authorization: `Bearer ${accessToken}` } } })
        assert.deepStrictEqual(await rawCall(headed.socket, 'find', 'secrets', {}), [
          null,
          [{ id: 1, secret: '42' }]
        ])
      })

      it('a bad handshake token refuses the connection', async function () {
        const refused = open({
          socketOptions: { extraHeaders: { Authorization: 'Bearer not-a-token' }, reconnection: false }
        })
        const error = await nextEvent(refused.socket, 'connect_error')
        assert.strictEqual(error.message, 'jwt malformed')
        assert.strictEqual(error.data.name, 'JsonWebTokenError')
      })

      it('a wrong password is refused and the connection stays anonymous', async function () {
        const error = await rejection(app.authenticate({ ...LOCAL, password: 'nope' }))
        assert.ok(error instanceof errors.NotAuthenticated)
        assert.strictEqual(error.message, 'Invalid login')
        assert.strictEqual((await rejection(app.service('secrets').find())).code, 401)
      })
    })
  })
}
