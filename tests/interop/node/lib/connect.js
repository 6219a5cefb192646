'use strict'
/*
 * Feathers client apps on the real @feathersjs/rest-client (fetch or axios) and
 * @feathersjs/authentication-client, pointed at the server under test.
 *
 *   const { app, requests } = connect('fetch')
 *   await app.service('people').find()
 *   requests[0]   // { method: 'GET', url: 'http://127.0.0.1:8000/people', headers: {...} }
 *
 * The server's base URL comes from FEATHERS_URL (run.js sets it from its --url argument).
 */
const axios = require('axios')
const { feathers } = require('@feathersjs/feathers')
const rest = require('@feathersjs/rest-client')
const authentication = require('@feathersjs/authentication-client')

const TRANSPORTS = ['fetch', 'axios']
const STANDARD_METHODS = ['find', 'get', 'create', 'update', 'patch', 'remove']

function baseUrl () {
  const url = process.env.FEATHERS_URL
  if (!url) {
    throw new Error('FEATHERS_URL is not set: run the specs through run.js --url <base URL>')
  }
  return url.replace(/\/+$/, '')
}

function lowerCaseHeaders (headers) {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers || {})
  return Object.fromEntries(entries.map(([name, value]) => [name.toLowerCase(), String(value)]))
}

// The HTTP library of `transport`, recording every request it sends into `requests`.
function recordingConnection (transport, requests) {
  if (transport === 'fetch') {
    return (url, init = {}) => {
      requests.push({ method: init.method || 'GET', url, headers: lowerCaseHeaders(init.headers) })
      return fetch(url, init)
    }
  }
  const instance = axios.create()
  instance.interceptors.request.use((config) => {
    requests.push({
      method: config.method.toUpperCase(),
      url: config.url,
      headers: lowerCaseHeaders(config.headers.toJSON ? config.headers.toJSON() : config.headers)
    })
    return config
  })
  return instance
}

/*
 * A client app on `transport` ('fetch' or 'axios'), with the authentication client (on
 * `storage`, a fresh in-memory one by default) and the custom method of `todos` declared.
 */
function connect (transport, { storage } = {}) {
  if (!TRANSPORTS.includes(transport)) {
    throw new Error(`Unknown transport ${transport}: one of ${TRANSPORTS.join(', ')}`)
  }
  const requests = []
  const app = feathers()
  const connection = rest(baseUrl())[transport](recordingConnection(transport, requests), {})
  app.configure(connection)
  app.configure(authentication({ storage: storage || new authentication.MemoryStorage() }))
  app.use('todos', connection.service('todos'), {
    methods: [...STANDARD_METHODS, 'markAllComplete']
  })
  return { app, connection, requests }
}

// Empties every table of the server under test.
async function reset () {
  const response = await fetch(`${baseUrl()}/__reset`, { method: 'POST' })
  if (!response.ok) {
    throw new Error(`POST /__reset answered ${response.status}`)
  }
}

module.exports = { STANDARD_METHODS, TRANSPORTS, baseUrl, connect, reset }
