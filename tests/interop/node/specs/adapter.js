'use strict'
/*
 * The official @feathersjs/adapter-tests suite, with a real rest-client service on the server
 * under test as the service under test: every call crosses the wire.
 *
 * Only the tests that can cross the wire run (lib/adapter-catalogue.js says which and why); the
 * closing hook checks that its two lists together are exactly the suite's tests, so a new
 * adapter-tests release cannot slip a test past them.
 */
const assert = require('assert')
const errors = require('@feathersjs/errors')
const adapterTests = require('@feathersjs/adapter-tests')
const { TRANSPORTS, connect, reset } = require('../lib/connect')
const { LOCAL_ONLY, SERVICES, WIRE_TESTS } = require('../lib/adapter-catalogue')

function collectTests (suite, into = []) {
  for (const test of suite.tests) {
    into.push(test)
  }
  for (const child of suite.suites) {
    collectTests(child, into)
  }
  return into
}

for (const transport of TRANSPORTS) {
  describe(`adapter-tests over rest-client (${transport})`, function () {
    const { app } = connect(transport)

    before(reset)

    for (const [serviceName, idProp] of SERVICES) {
      adapterTests(WIRE_TESTS)(app, errors, serviceName, idProp)
    }

    after(function () {
      const titles = new Set(collectTests(this.test.parent).map((test) => test.title))
      titles.add('.id')
      const listed = new Set([...WIRE_TESTS, ...Object.keys(LOCAL_ONLY)])
      assert.deepStrictEqual(
        [...titles].filter((title) => !listed.has(title)),
        [],
        'adapter-tests has tests that are neither in WIRE_TESTS nor in LOCAL_ONLY'
      )
      assert.deepStrictEqual(
        [...listed].filter((title) => !titles.has(title)),
        [],
        'WIRE_TESTS or LOCAL_ONLY name tests that adapter-tests does not have'
      )
    })
  })
}
