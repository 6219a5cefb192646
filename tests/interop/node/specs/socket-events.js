'use strict'
/*
 * Service events over @feathersjs/socketio-client (websocket, then long-polling), against the
 * fixture's channel policy: who receives which event, once, with which data. Absence is
 * checked with a barrier: after the action, a person is created, every observer waits for its
 * `created`, then 300 ms more.
 */
const assert = require('assert')
const { MemoryStorage } = require('@feathersjs/authentication-client')
const { baseUrl, reset } = require('../lib/connect')
const { SOCKET_TRANSPORTS, connectSocket } = require('../lib/socket')

const PASSWORD = 'correct horse battery staple'

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

for (const transport of SOCKET_TRANSPORTS) {
  describe(`service events over socketio-client (${transport})`, function () {
    const sockets = []

    // A client recording every event it receives, logged in as `email` unless anonymous.
    async function observer (email) {
      const client = connectSocket(transport, { storage: new MemoryStorage() })
      sockets.push(client.socket)
      client.events = []
      client.socket.onAny((name, ...args) => {
        // With connection state recovery on (a `pid`), socket.io-client takes a trailing
        // string as the event's offset: a Feathers listener sees the data only.
        const offset = client.socket._pid && typeof args[args.length - 1] === 'string' ? args.pop() : undefined
        client.events.push({ name, args, offset })
      })
      if (email) {
        client.user = await client.app.authenticate({ strategy: 'local', email, password: PASSWORD })
          .then((result) => result.user)
      }
      return client
    }

    const received = (client, name) => client.events.filter((event) => event.name === name)

    async function barrier (writer, observers) {
      const marker = await writer.app.service('people').create({ name: 'barrier' })
      const deadline = Date.now() + 5000
      while (!observers.every((client) => received(client, 'people created')
        .some((event) => event.args[0].id === marker.id))) {
        assert.ok(Date.now() < deadline, 'the barrier event did not arrive')
        await sleep(20)
      }
      await sleep(300)
    }

    let ada, ada2, bob, anonymous

    beforeEach(async function () {
      await reset()
      const signup = connectSocket(transport)
      sockets.push(signup.socket)
      for (const email of ['ada@example.com', 'bob@example.com']) {
        await signup.app.service('users').create({ email, password: PASSWORD })
      }
      ada = await observer('ada@example.com')
      ada2 = await observer('ada@example.com')
      bob = await observer('bob@example.com')
      anonymous = await observer(null)
    })

    afterEach(function () {
      for (const socket of sockets.splice(0)) {
        socket.close()
      }
    })

    it('a write reaches every logged-in connection once, as `<path> <event>`', async function () {
      const person = await ada.app.service('people').create({ name: 'Cy' })
      const [d, e] = await ada.app.service('people').create([{ name: 'D' }, { name: 'E' }])
      await barrier(ada, [ada, ada2, bob])
      for (const client of [ada, ada2, bob]) {
        const created = received(client, 'people created').map((event) => event.args)
        assert.deepStrictEqual(created.slice(0, 3), [[person], [d], [e]])
      }
      assert.deepStrictEqual(anonymous.events, [])
    })

    it('the service listener of the client gets the event', async function () {
      const got = new Promise((resolve) => bob.app.service('todos').once('created', resolve))
      const todo = await ada.app.service('todos').create({ text: 't' })
      assert.deepStrictEqual(await got, todo)
    })

    it('a message reaches its owner\'s connections only', async function () {
      const message = await bob.app.service('api/v1/messages').create({ text: 'hi', userId: ada.user.id })
      await barrier(bob, [ada, ada2, bob])
      for (const client of [ada, ada2]) {
        assert.deepStrictEqual(received(client, 'api/v1/messages created').map((e) => e.args[0]), [message])
      }
      assert.deepStrictEqual(received(bob, 'api/v1/messages created'), [])
    })

    it('a user event reaches each connection once and never holds the password', async function () {
      await ada.app.service('users').patch(ada.user.id, { password: 'another secret' })
      await barrier(ada, [ada, ada2, bob])
      for (const client of [ada, ada2, bob]) {
        const patched = received(client, 'users patched')
        // Ada's connections hear it once; Bob's too from a Feathers app, which publishes users
        // to every logged-in connection, and never from django-feathers, where Bob cannot read
        // Ada's account.
        assert.strictEqual(patched.length, client === bob ? patched.length && 1 : 1)
        for (const event of patched) {
          assert.strictEqual(event.args[0].password, undefined)
          assert.strictEqual(event.args[0].id, ada.user.id)
        }
      }
    })

    it('secrets are published to nobody', async function () {
      await ada.app.service('secrets').create({ secret: 's' })
      await barrier(ada, [ada, bob])
      for (const client of [ada, ada2, bob, anonymous]) {
        assert.deepStrictEqual(received(client, 'secrets created'), [])
      }
    })

    it('a custom event is published like the others', async function () {
      await ada.app.service('todos').create({ text: 'open' })
      await ada.app.service('todos').markAllComplete({})
      await barrier(ada, [bob])
      assert.deepStrictEqual(received(bob, 'todos markedAllComplete').map((e) => e.args), [[{ updated: 1 }]])
      assert.deepStrictEqual(received(bob, 'todos patched'), [])
    })

    it('a write over REST reaches the sockets', async function () {
      const response = await fetch(`${baseUrl()}/people`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rest' })
      })
      const person = await response.json()
      await barrier(ada, [bob])
      assert.deepStrictEqual(received(bob, 'people created')[0].args, [person])
    })

    it('a logged-out connection receives nothing more', async function () {
      await ada2.app.logout()
      ada2.events.length = 0
      await barrier(bob, [ada, bob])
      assert.deepStrictEqual(ada2.events, [])
    })
  })
}
