'use strict'
/*
 * @feathersjs/rest-client (fetch and axios) with conditional requests, against the
 * conformance fixture only (a Feathers server has none): `params.headers` carries `If-Match`,
 * and a write from a stale copy is rejected with the 412 error.
 */
const assert = require('assert')
const { TRANSPORTS, baseUrl, connect, reset } = require('../lib/connect')

async function etagOf (path) {
  const response = await fetch(`${baseUrl()}/${path}`)
  assert.strictEqual(response.status, 200)
  return response.headers.get('etag')
}

for (const transport of TRANSPORTS) {
  describe(`conditional requests (${transport})`, function () {
    let todos

    beforeEach(async function () {
      await reset()
      todos = connect(transport).app.service('todos')
    })

    it('a patch with the ETag read writes; one from the same stale copy is 412', async function () {
      const todo = await todos.create({ text: 'milk' })
      const etag = await etagOf(`todos/${todo.id}`)

      const patched = await todos.patch(todo.id, { text: 'bread' }, { headers: { 'If-Match': etag } })
      assert.strictEqual(patched.text, 'bread')
      let rejected = null
      try {
        await todos.patch(todo.id, { complete: true }, { headers: { 'If-Match': etag } })
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
