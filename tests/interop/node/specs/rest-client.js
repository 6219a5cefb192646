'use strict'
/*
 * @feathersjs/rest-client (fetch and axios) against the conformance service set: every method,
 * the query language, pagination, multi, a custom method, route placeholders and errors.
 */
const assert = require('assert')
const errors = require('@feathersjs/errors')
const { TRANSPORTS, connect, reset } = require('../lib/connect')

const ERROR_CODES = [
  400, 401, 402, 403, 404, 405, 406, 408, 409, 410, 411, 422, 429, 500, 501, 502, 503
]

// Resolves to the error `promise` rejects with; fails when it resolves.
async function rejection (promise) {
  try {
    await promise
  } catch (error) {
    return error
  }
  assert.fail('the call succeeded where an error was expected')
}

function assertError (error, { name, code, className, message, data }) {
  assert.strictEqual(error.name, name)
  assert.strictEqual(error.code, code)
  assert.strictEqual(error.className, className)
  if (message !== undefined) {
    assert.strictEqual(error.message, message)
  }
  if (data !== undefined) {
    assert.deepStrictEqual(error.data, data)
  }
}

const names = (records) => records.map((record) => record.name)

for (const transport of TRANSPORTS) {
  describe(`rest-client (${transport})`, function () {
    let app, connection, requests

    beforeEach(async function () {
      await reset()
      ;({ app, connection, requests } = connect(transport))
    })

    describe('people: every method', function () {
      let people

      beforeEach(function () {
        people = app.service('people')
      })

      it('create fills the defaults and returns the record with its id', async function () {
        const doug = await people.create({ name: 'Doug', age: 32 })
        assert.strictEqual(typeof doug.id, 'number')
        assert.deepStrictEqual(doug, { id: doug.id, name: 'Doug', age: 32, created: false })
      })

      it('create of an array creates every record, in order', async function () {
        const created = await people.create([{ name: 'A', age: 1 }, { name: 'B', age: null, created: true }])
        assert.deepStrictEqual(names(created), ['A', 'B'])
        assert.strictEqual(created[1].age, null)
        assert.strictEqual(created[1].created, true)
        assert.notStrictEqual(created[0].id, created[1].id)
      })

      it('get returns the record, $select narrows it to the fields and the id', async function () {
        const doug = await people.create({ name: 'Doug', age: 32 })
        assert.deepStrictEqual(await people.get(doug.id), doug)
        assert.deepStrictEqual(await people.get(doug.id, { query: { $select: ['name'] } }), {
          id: doug.id,
          name: 'Doug'
        })
      })

      it('find returns a plain array', async function () {
        await people.create([{ name: 'A', age: 1 }, { name: 'B', age: 2 }])
        const found = await people.find({ query: { $sort: { name: 1 } } })
        assert.ok(Array.isArray(found))
        assert.deepStrictEqual(names(found), ['A', 'B'])
      })

      it('update replaces the record: fields left out get their defaults', async function () {
        const doug = await people.create({ name: 'Doug', age: 32, created: true })
        const updated = await people.update(doug.id, { name: 'Douglas' })
        assert.deepStrictEqual(updated, { id: doug.id, name: 'Douglas', age: null, created: false })
        assert.deepStrictEqual(await people.get(doug.id), updated)
      })

      it('patch merges into the record; an id in the body is ignored', async function () {
        const doug = await people.create({ name: 'Doug', age: 32 })
        const patched = await people.patch(doug.id, { id: doug.id + 1000, age: 33 })
        assert.deepStrictEqual(patched, { ...doug, age: 33 })
      })

      it('patch with a null id patches every match and returns them', async function () {
        await people.create([
          { name: 'A', age: 1 },
          { name: 'B', age: 2 },
          { name: 'C', age: 30 }
        ])
        const patched = await people.patch(null, { created: true }, { query: { age: { $lt: 10 } } })
        assert.deepStrictEqual(names(patched).sort(), ['A', 'B'])
        assert.ok(patched.every((person) => person.created === true))
        const untouched = await people.find({ query: { created: false } })
        assert.deepStrictEqual(names(untouched), ['C'])
      })

      it('remove returns the removed record, which is then gone', async function () {
        const doug = await people.create({ name: 'Doug', age: 32 })
        assert.deepStrictEqual(await people.remove(doug.id), doug)
        const error = await rejection(people.get(doug.id))
        assertError(error, {
          name: 'NotFound',
          code: 404,
          className: 'not-found',
          message: `No record found for id '${doug.id}'`
        })
      })

      it('remove with a null id removes every match and returns them', async function () {
        await people.create([
          { name: 'A', age: 1, created: true },
          { name: 'B', age: 2, created: true },
          { name: 'C', age: 3 }
        ])
        const removed = await people.remove(null, { query: { created: true } })
        assert.deepStrictEqual(names(removed).sort(), ['A', 'B'])
        assert.deepStrictEqual(names(await people.find()), ['C'])
      })

      it('sends Accept and Content-Type JSON', async function () {
        await people.create({ name: 'Doug' })
        const [request] = requests
        assert.strictEqual(request.method, 'POST')
        assert.strictEqual(request.headers.accept, 'application/json')
        assert.match(request.headers['content-type'], /^application\/json/)
      })
    })

    describe('people: the query language', function () {
      let people

      beforeEach(async function () {
        people = app.service('people')
        await people.create([
          { name: 'Alice', age: 19, created: true },
          { name: 'Bob', age: 25 },
          { name: 'Doug', age: 32, created: true },
          { name: 'Eve', age: null }
        ])
      })

      const cases = [
        ['equality', { name: 'Bob' }, ['Bob']],
        ['several fields (and)', { name: 'Doug', age: 32 }, ['Doug']],
        ['a boolean', { created: true }, ['Alice', 'Doug']],
        ['null', { age: null }, ['Eve']],
        ['$in', { name: { $in: ['Alice', 'Eve'] } }, ['Alice', 'Eve']],
        ['$nin', { name: { $nin: ['Alice', 'Eve'] } }, ['Bob', 'Doug']],
        ['$lt', { age: { $lt: 25 } }, ['Alice']],
        ['$lte', { age: { $lte: 25 } }, ['Alice', 'Bob']],
        ['$gt', { age: { $gt: 25 } }, ['Doug']],
        ['$gte', { age: { $gte: 25 } }, ['Bob', 'Doug']],
        ['$ne', { name: { $ne: 'Bob' } }, ['Alice', 'Doug', 'Eve']],
        ['$gt and $lt', { age: { $gt: 18, $lt: 30 } }, ['Alice', 'Bob']],
        ['$or', { $or: [{ name: 'Alice' }, { age: { $gte: 30 } }] }, ['Alice', 'Doug']],
        ['$and with $or', { $and: [{ $or: [{ name: 'Bob' }, { name: 'Doug' }] }, { created: true }] }, ['Doug']]
      ]
      for (const [title, query, expected] of cases) {
        it(title, async function () {
          const found = await people.find({ query: { ...query, $sort: { name: 1 } } })
          assert.deepStrictEqual(names(found), expected)
        })
      }

      it('$sort on several keys, descending', async function () {
        const found = await people.find({ query: { $sort: { created: -1, name: -1 } } })
        assert.deepStrictEqual(names(found), ['Doug', 'Alice', 'Eve', 'Bob'])
      })

      it('$limit and $skip', async function () {
        const found = await people.find({ query: { $sort: { name: 1 }, $skip: 1, $limit: 2 } })
        assert.deepStrictEqual(names(found), ['Bob', 'Doug'])
      })

      it('$limit 0 finds nothing', async function () {
        assert.deepStrictEqual(await people.find({ query: { $limit: 0 } }), [])
      })

      it('$select keeps the fields asked for and the id', async function () {
        const found = await people.find({ query: { name: 'Bob', $select: ['age'] } })
        assert.deepStrictEqual(found, [{ id: found[0].id, age: 25 }])
      })

      it('get, patch and remove with an id apply the query too', async function () {
        const [bob] = await people.find({ query: { name: 'Bob' } })
        for (const call of [
          () => people.get(bob.id, { query: { name: 'Alice' } }),
          () => people.patch(bob.id, { age: 1 }, { query: { age: { $gt: 30 } } }),
          () => people.remove(bob.id, { query: { created: true } })
        ]) {
          assertError(await rejection(call()), { name: 'NotFound', code: 404, className: 'not-found' })
        }
        assert.deepStrictEqual(await people.get(bob.id), bob)
      })

      it('an unknown operator is a BadRequest naming it, with the field object as data', async function () {
        const error = await rejection(people.find({ query: { name: { $regex: 'B.*' } } }))
        assertError(error, {
          name: 'BadRequest',
          code: 400,
          className: 'bad-request',
          message: 'Invalid query parameter $regex',
          data: { $regex: 'B.*' }
        })
        assert.ok(error instanceof errors.BadRequest)
      })

      it('an unknown filter is a BadRequest naming it', async function () {
        const error = await rejection(people.find({ query: { $populate: 'x' } }))
        assertError(error, {
          name: 'BadRequest',
          code: 400,
          className: 'bad-request',
          message: 'Invalid filter value $populate'
        })
      })

      it('a value that is not of the field\'s type is a BadRequest', async function () {
        const error = await rejection(people.find({ query: { age: 'old' } }))
        assertError(error, { name: 'BadRequest', code: 400, className: 'bad-request' })
      })
    })

    describe('people-paginated: pages', function () {
      let people

      beforeEach(async function () {
        people = app.service('people-paginated')
        await people.create(Array.from({ length: 60 }, (_, index) => ({ name: `p${index}`, age: index })))
      })

      it('a page holds total, limit, skip and data, in that order, with the default limit', async function () {
        const page = await people.find({ query: { $sort: { age: 1 } } })
        assert.deepStrictEqual(Object.keys(page), ['total', 'limit', 'skip', 'data'])
        assert.strictEqual(page.total, 60)
        assert.strictEqual(page.limit, 10)
        assert.strictEqual(page.skip, 0)
        assert.deepStrictEqual(page.data.map((person) => person.age), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
      })

      it('$limit above max is capped, $skip moves the page', async function () {
        const page = await people.find({ query: { $limit: 100, $skip: 55, $sort: { age: 1 } } })
        assert.strictEqual(page.limit, 50)
        assert.strictEqual(page.skip, 55)
        assert.deepStrictEqual(page.data.map((person) => person.age), [55, 56, 57, 58, 59])
      })

      it('$limit 0 returns the total only', async function () {
        const page = await people.find({ query: { $limit: 0, age: { $lt: 20 } } })
        assert.deepStrictEqual(page, { total: 20, limit: 0, skip: 0, data: [] })
      })
    })

    describe('people-customid: a custom id field', function () {
      it('the record is found, patched and removed by its customid', async function () {
        const people = app.service('people-customid')
        const created = await people.create({ customid: 'doug-1', name: 'Doug', age: 32 })
        assert.deepStrictEqual(created, { customid: 'doug-1', name: 'Doug', age: 32, created: false })
        assert.deepStrictEqual(await people.get('doug-1'), created)
        assert.strictEqual((await people.patch('doug-1', { age: 33 })).age, 33)
        assert.deepStrictEqual(await people.find({ query: { customid: 'doug-1', $select: ['name'] } }), [
          { customid: 'doug-1', name: 'Doug' }
        ])
        assert.strictEqual((await people.remove('doug-1')).customid, 'doug-1')
        assertError(await rejection(people.get('doug-1')), { name: 'NotFound', code: 404, className: 'not-found' })
      })

      it('a record created without a customid is given one', async function () {
        const created = await app.service('people-customid').create({ name: 'Eve' })
        assert.strictEqual(typeof created.customid, 'string')
        assert.ok(created.customid.length > 0)
      })
    })

    describe('api/v1/messages: a nested path, paginated, multi off', function () {
      let messages

      beforeEach(function () {
        messages = app.service('api/v1/messages')
      })

      it('every method works on the nested path', async function () {
        const first = await messages.create({ text: 'hello', userId: 7 })
        assert.deepStrictEqual(first, { id: first.id, text: 'hello', userId: 7, read: false })
        await messages.create({ text: 'other', userId: 8, read: true })
        const page = await messages.find({ query: { userId: 7, read: false } })
        assert.deepStrictEqual(page, { total: 1, limit: 10, skip: 0, data: [first] })
        assert.deepStrictEqual(await messages.patch(first.id, { read: true }), { ...first, read: true })
        const replaced = await messages.update(first.id, { text: 'replaced', userId: 9 })
        assert.deepStrictEqual(replaced, { id: first.id, text: 'replaced', userId: 9, read: false })
        assert.deepStrictEqual(await messages.get(first.id), replaced)
        assert.deepStrictEqual(await messages.remove(first.id), replaced)
        assert.ok(requests[0].url.endsWith('/api/v1/messages'))
      })

      const refusals = [
        ['create of an array', (service) => service.create([{ text: 'a', userId: 1 }]), 'Can not create multiple entries'],
        ['create of an empty array', (service) => service.create([]), 'Can not create multiple entries'],
        ['patch with a null id', (service) => service.patch(null, { read: true }), 'Can not patch multiple entries'],
        ['remove with a null id', (service) => service.remove(null), 'Can not remove multiple entries']
      ]
      for (const [title, call, message] of refusals) {
        it(`${title} is 405 MethodNotAllowed`, async function () {
          const error = await rejection(call(messages))
          assertError(error, { name: 'MethodNotAllowed', code: 405, className: 'method-not-allowed', message })
          assert.ok(error instanceof errors.MethodNotAllowed)
        })
      }
    })

    describe('todos: a custom method', function () {
      it('markAllComplete completes the open todos and counts them', async function () {
        const todos = app.service('todos')
        await todos.create({ text: 'a' })
        await todos.create({ text: 'b', complete: true })
        await todos.create({ text: 'c' })
        assert.deepStrictEqual(await todos.markAllComplete({}), { updated: 2 })
        const last = requests[requests.length - 1]
        assert.strictEqual(last.method, 'POST')
        assert.strictEqual(last.headers['x-service-method'], 'markAllComplete')
        assert.deepStrictEqual(await todos.find({ query: { complete: false } }), [])
        assert.deepStrictEqual(await todos.markAllComplete({}), { updated: 0 })
      })

      it('a custom method the server does not expose is 405', async function () {
        // Declared on the client only: the request goes out, and the server refuses it.
        app.use('todos-with-archive', connection.service('todos'), { methods: ['find', 'archiveAll'] })
        const error = await rejection(app.service('todos-with-archive').archiveAll({}))
        assertError(error, {
          name: 'MethodNotAllowed',
          code: 405,
          className: 'method-not-allowed',
          message: 'Method `archiveAll` is not supported by this endpoint.'
        })
      })
    })

    describe('users/:userId/notes: route placeholders', function () {
      const notes = () => app.service('users/:userId/notes')
      const of = (userId) => ({ route: { userId } })

      it('create takes userId from the route, ignoring the body', async function () {
        const note = await notes().create({ text: 'mine', userId: 99 }, of(1))
        assert.deepStrictEqual(note, { id: note.id, text: 'mine', userId: 1 })
        assert.ok(requests[0].url.endsWith('/users/1/notes'))
      })

      it('every method sees the route\'s user\'s notes only', async function () {
        const mine = await notes().create({ text: 'mine' }, of(1))
        const theirs = await notes().create({ text: 'theirs' }, of(2))
        assert.deepStrictEqual(await notes().find(of(1)), [mine])
        assert.deepStrictEqual(await notes().find(of(2)), [theirs])
        assert.deepStrictEqual(await notes().get(mine.id, of(1)), mine)
        for (const call of [
          () => notes().get(mine.id, of(2)),
          () => notes().patch(mine.id, { text: 'x' }, of(2)),
          () => notes().update(mine.id, { text: 'x' }, of(2)),
          () => notes().remove(mine.id, of(2))
        ]) {
          assertError(await rejection(call()), { name: 'NotFound', code: 404, className: 'not-found' })
        }
        assert.deepStrictEqual(await notes().patch(mine.id, { text: 'edited' }, of(1)), { ...mine, text: 'edited' })
        assert.deepStrictEqual(await notes().remove(mine.id, of(1)), { ...mine, text: 'edited' })
        assert.deepStrictEqual(await notes().find(of(1)), [])
      })
    })

    describe('errors', function () {
      for (const code of ERROR_CODES) {
        it(`get(${code}) rejects with the ${code} class, its message and data`, async function () {
          const Class = errors.errors[code]
          const expected = new Class('x')
          const error = await rejection(app.service('errors').get(code))
          assertError(error, {
            name: expected.name,
            code,
            className: expected.className,
            message: `boom ${code}`,
            data: { reason: 'test' }
          })
          // @feathersjs/errors' convert() looks classes up by name, and its map has no `Gone`
          // key: a Gone body becomes a plain Error with the same fields, whatever the server.
          assert.ok(code === 410 ? error instanceof Error : error instanceof Class)
        })
      }

      it('another exception is a 500 GeneralError', async function () {
        const error = await rejection(app.service('errors').get('unexpected'))
        assertError(error, { name: 'GeneralError', code: 500, className: 'general-error' })
        assert.ok(error instanceof errors.GeneralError)
      })

      it('an unknown path is NotFound `Page not found` with the url as data', async function () {
        const error = await rejection(app.service('no/such/service').find({ query: { a: 1 } }))
        assertError(error, {
          name: 'NotFound',
          code: 404,
          className: 'not-found',
          message: 'Page not found',
          data: { url: '/no/such/service?a=1' }
        })
      })

      it('update without an id is a BadRequest', async function () {
        const error = await rejection(app.service('people').update(null, { name: 'x' }))
        assertError(error, {
          name: 'BadRequest',
          code: 400,
          className: 'bad-request',
          message: "You can not replace multiple instances. Did you mean 'patch'?"
        })
      })
    })
  })
}
