'use strict'
/*
 * @feathersjs/socketio-client (websocket, then long-polling) with conditional requests,
 * against the conformance fixture under uvicorn only (a Feathers server has none): the
 * reserved query key `$ifMatch` survives the client, and a write from a stale copy is
 * rejected with the 412 error in the ack.
 */
const assert = require('assert')
const { baseUrl, reset } = require('../lib/connect')
const { SOCKET_TRANSPORTS, connectSocket } = require('../lib/socket')

async function etagOf (path) {
  const response = await fetch(`${baseUrl()}/${path}`)
  assert.strictEqual(response.status, 200)
  return response.headers.get('etag')
}

for (const transport of SOCKET_TRANSPORTS) {
  describe(`conditional requests over socketio-client (${transport})`, function () {
    let app, socket

    beforeEach(async function () {
      await reset()
      ;({ app, socket } = connectSocket(transport))
    })
    afterEach(function () {
      socket.close()
    })

    it('$ifMatch with the ETag read writes; the same stale tag again is 412', async function () {
      const todos = app.service('todos')
      const todo = await todos.create({ text: 'milk' })
      const etag = await etagOf(`todos/${todo.id}`)

      const patched = await todos.patch(todo.id, { text: 'bread' }, { query: { $ifMatch: etag } })
      assert.strictEqual(patched.text, 'bread')
      let rejected = null
      try {
        await todos.patch(todo.id, { complete: true }, { query: { $ifMatch: etag } })
      } catch (error) {
        rejected = error
      }
      assert.ok(rejected, 'the stale patch succeeded')
      assert.strictEqual(rejected.name, 'PreconditionFailed')
      assert.strictEqual(rejected.code, 412)
      assert.strictEqual(rejected.className, 'precondition-failed')
      assert.deepStrictEqual(rejected.data, { etag: await etagOf(`todos/${todo.id}`) })
      assert.deepStrictEqual(await todos.get(todo.id), { id: todo.id, text: 'bread', complete: false })
    })
  })
}
