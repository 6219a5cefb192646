// The `feathers` global of @feathersjs/client's browser bundle, which the page loads before
// app.js, typed with the Feathers packages it bundles.
import type { Application } from '@feathersjs/feathers'
import type authenticationClient from '@feathersjs/authentication-client'
import type restClient from '@feathersjs/rest-client'

declare global {
  const feathers: {
    <Services = any>(): Application<Services>
    rest: typeof restClient
    authentication: typeof authenticationClient
  }
}

export {}
