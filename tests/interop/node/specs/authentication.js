'use strict'
/*
 * @feathersjs/authentication-client over the rest-client (fetch and axios): local login, the
 * token and its claims, protected services, re-authentication, logout and failures.
 */
const assert = require('assert')
const errors = require('@feathersjs/errors')
const { MemoryStorage } = require('@feathersjs/authentication-client')
const { TRANSPORTS, connect, reset } = require('../lib/connect')

const EMAIL = 'ada@example.com'
const PASSWORD = 'correct horse battery staple'
const STORAGE_KEY = 'feathers-jwt'
const LOCAL = { strategy: 'local', email: EMAIL, password: PASSWORD }

async function rejection (promise) {
  try {
    await promise
  } catch (error) {
    return error
  }
  assert.fail('the call succeeded where an error was expected')
}

function decodeSegment (segment) {
  return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'))
}

function assertNotAuthenticated (error, message) {
  assert.ok(error instanceof errors.NotAuthenticated, `${error.name}: ${error.message}`)
  assert.strictEqual(error.code, 401)
  assert.strictEqual(error.className, 'not-authenticated')
  if (message !== undefined) {
    assert.strictEqual(error.message, message)
  }
}

for (const transport of TRANSPORTS) {
  describe(`authentication-client (${transport})`, function () {
    let app, requests, storage, user

    beforeEach(async function () {
      await reset()
      storage = new MemoryStorage()
      ;({ app, requests } = connect(transport, { storage }))
      user = await app.service('users').create({ email: EMAIL, password: PASSWORD })
      requests.length = 0
    })

    it('creating a user is public and never returns the password', async function () {
      assert.deepStrictEqual(Object.keys(user).sort(), ['email', 'id'])
      assert.strictEqual(user.email, EMAIL)
    })

    it('protected services refuse calls without a token', async function () {
      assertNotAuthenticated(await rejection(app.service('secrets').find()), 'Not authenticated')
      assertNotAuthenticated(await rejection(app.service('users').find()))
      assertNotAuthenticated(await rejection(app.service('users').get(user.id)))
      assert.strictEqual(requests[0].headers.authorization, undefined)
    })

    it('a local login returns the token, the strategy, its claims and the user', async function () {
      const result = await app.authenticate(LOCAL)
      assert.deepStrictEqual(Object.keys(result), ['accessToken', 'authentication', 'user'])
      assert.deepStrictEqual(result.user, user)
      assert.strictEqual(result.authentication.strategy, 'local')

      const [header, payload] = result.accessToken.split('.').slice(0, 2).map(decodeSegment)
      assert.deepStrictEqual(header, { alg: 'HS256', typ: 'access' })
      assert.deepStrictEqual(result.authentication.payload, payload)
      assert.strictEqual(payload.aud, 'https://yourdomain.com')
      assert.strictEqual(payload.iss, 'feathers')
      assert.strictEqual(payload.sub, String(user.id))
      assert.strictEqual(payload.exp - payload.iat, 86400)
      assert.match(payload.jti, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)

      assert.strictEqual(await storage.getItem(STORAGE_KEY), result.accessToken)
      const [login] = requests
      assert.strictEqual(login.method, 'POST')
      assert.ok(login.url.endsWith('/authentication'))
      assert.strictEqual(login.headers.authorization, undefined)
    })

    it('once logged in, calls carry the token and protected services answer', async function () {
      const { accessToken } = await app.authenticate(LOCAL)
      assert.deepStrictEqual(await app.service('secrets').find(), [{ id: 1, secret: '42' }])
      assert.deepStrictEqual(await app.service('users').find(), [user])
      assert.deepStrictEqual(await app.service('users').get(user.id), user)
      assert.deepStrictEqual(await app.service('users').patch(user.id, { password: 'changed it' }), user)
      const last = requests[requests.length - 1]
      assert.strictEqual(last.headers.authorization, `Bearer ${accessToken}`)
    })

    it('reAuthenticate reuses the login; forced, it posts the stored token as jwt', async function () {
      const login = await app.authenticate(LOCAL)
      const sent = requests.length
      assert.deepStrictEqual(await app.reAuthenticate(), login)
      assert.strictEqual(requests.length, sent, 'no request without force')

      const again = await app.reAuthenticate(true)
      assert.strictEqual(again.accessToken, login.accessToken)
      assert.strictEqual(again.authentication.strategy, 'jwt')
      assert.strictEqual(again.authentication.accessToken, login.accessToken)
      assert.deepStrictEqual(again.user, user)
      assert.strictEqual(requests.length, sent + 1)
    })

    it('a new app with the stored token logs in again without the password', async function () {
      await app.authenticate(LOCAL)
      const other = connect(transport, { storage })
      const result = await other.app.reAuthenticate()
      assert.strictEqual(result.authentication.strategy, 'jwt')
      assert.deepStrictEqual(await other.app.service('secrets').find(), [{ id: 1, secret: '42' }])
    })

    it('logout answers with the token details and forgets the token', async function () {
      const login = await app.authenticate(LOCAL)
      const result = await app.logout()
      assert.strictEqual(result.accessToken, login.accessToken)
      assert.deepStrictEqual(result.user, user)
      const [, logout] = requests
      assert.strictEqual(logout.method, 'DELETE')
      assert.strictEqual(logout.headers.authorization, `Bearer ${login.accessToken}`)
      assert.strictEqual(await storage.getItem(STORAGE_KEY), undefined)
      assertNotAuthenticated(await rejection(app.service('secrets').find()), 'Not authenticated')
      assert.strictEqual(await app.logout(), null)
    })

    it('a wrong password and an unknown user get the same Invalid login', async function () {
      for (const data of [{ ...LOCAL, password: 'wrong' }, { ...LOCAL, email: 'nobody@example.com' }]) {
        assertNotAuthenticated(await rejection(app.authenticate(data)), 'Invalid login')
        assert.strictEqual(await storage.getItem(STORAGE_KEY), undefined)
      }
    })

    it('a login without a strategy, or with an unknown one, is refused', async function () {
      assertNotAuthenticated(
        await rejection(app.authenticate({ email: EMAIL, password: PASSWORD })),
        'Invalid authentication information (no `strategy` set)'
      )
      assertNotAuthenticated(
        await rejection(app.authenticate({ ...LOCAL, strategy: 'magic' })),
        'Invalid authentication information (strategy not allowed in authStrategies)'
      )
    })

    it('a stored token that does not verify is refused and removed', async function () {
      const { accessToken } = await app.authenticate(LOCAL)
      const [header, payload] = accessToken.split('.')
      await storage.setItem(STORAGE_KEY, `${header}.${payload}.${'A'.repeat(43)}`)
      const other = connect(transport, { storage })
      const error = await rejection(other.app.reAuthenticate())
      assertNotAuthenticated(error)
      assert.strictEqual(error.data.name, 'JsonWebTokenError')
      assert.strictEqual(await storage.getItem(STORAGE_KEY), undefined)
    })

    it('reAuthenticate without a stored token fails before any request', async function () {
      assertNotAuthenticated(await rejection(app.reAuthenticate()), 'No accessToken found in storage')
      assert.strictEqual(requests.length, 0)
    })
  })
}
