// The globals of the browser bundles the page loads before app.js: `feathers` of
// @feathersjs/client, typed with the Feathers packages it bundles, and `io` of
// socket.io-client.
import type { Application } from '@feathersjs/feathers'
import type authenticationClient from '@feathersjs/authentication-client'
import type restClient from '@feathersjs/rest-client'
import type socketioClient from '@feathersjs/socketio-client'

/** socket.io-client's `Socket`, as @feathersjs/socketio-client takes it. */
type Socket = Parameters<typeof socketioClient>[0]

declare global {
  const feathers: {
    <Services = any>(): Application<Services>
    rest: typeof restClient
    socketio: typeof socketioClient
    authentication: typeof authenticationClient
  }
  const io: (uri: string, options?: Record<string, unknown>) => Socket
}

export {}
