'use strict'
/*
 * The official @feathersjs/adapter-tests suite over @feathersjs/socketio-client, on both
 * socket.io transports: the same wire tests as over REST (lib/adapter-catalogue.js).
 */
const errors = require('@feathersjs/errors')
const adapterTests = require('@feathersjs/adapter-tests')
const { reset } = require('../lib/connect')
const { SERVICES, WIRE_TESTS } = require('../lib/adapter-catalogue')
const { SOCKET_TRANSPORTS, connectSocket } = require('../lib/socket')

for (const transport of SOCKET_TRANSPORTS) {
  describe(`adapter-tests over socketio-client (${transport})`, function () {
    const { socket, app } = connectSocket(transport)

    before(reset)
    after(() => socket.close())

    for (const [serviceName, idProp] of SERVICES) {
      // Two wire tests save and restore `service.options.multi` of the client object: a
      // rest-client service has an options object of its own, a socket client service none.
      const service = app.service(serviceName)
      service.options = service.options || {}
      adapterTests(WIRE_TESTS)(app, errors, serviceName, idProp)
    }
  })
}
