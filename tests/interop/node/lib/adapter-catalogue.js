'use strict'
/*
 * Which tests of @feathersjs/adapter-tests can run against a remote service, and why the
 * others cannot.
 *
 * WIRE_TESTS only make calls through the service's methods, so they run unchanged with a
 * rest-client service. LOCAL_ONLY tests (with the reason) inspect or reconfigure the adapter
 * object living in the same process, which a remote service does not have.
 */

const WIRE_TESTS = [
  // methods
  '.get',
  '.get + $select',
  '.get + id + query',
  '.get + NotFound',
  '.get + NotFound (integer)',
  '.get + id + query id',
  '.find',
  '.remove',
  '.remove + $select',
  '.remove + id + query',
  '.remove + NotFound',
  '.remove + NotFound (integer)',
  '.remove + id + query id',
  '.update',
  '.update + $select',
  '.update + id + query',
  '.update + NotFound',
  '.update + NotFound (integer)',
  '.update + query + NotFound',
  '.update + id + query id',
  '.patch',
  '.patch + $select',
  '.patch + id + query',
  '.patch multi query same',
  '.patch multi query changed',
  '.patch + NotFound',
  '.patch + NotFound (integer)',
  '.patch + query + NotFound',
  '.patch + id + query id',
  '.create',
  '.create ignores query',
  '.create + $select',
  // syntax
  '.find + equal',
  '.find + equal multiple',
  '.find + $sort',
  '.find + $sort + string',
  '.find + $limit',
  '.find + $limit 0',
  '.find + $skip',
  '.find + $select',
  '.find + $or',
  '.find + $in',
  '.find + $nin',
  '.find + $lt',
  '.find + $lte',
  '.find + $gt',
  '.find + $gte',
  '.find + $ne',
  '.find + $gt + $lt + $sort',
  '.find + $or nested + $sort',
  '.find + $and',
  '.find + $and + $or'
]

const IN_PROCESS_OBJECT = 'inspects the adapter object in the test process (a property or a raw `_method`)'
const INTERNAL_CALLS = 'checks that the adapter calls its own raw methods internally, in the same process'
const TOGGLES_MULTI =
  'expects 405 with multi off, then turns multi on by mutating service.options; a server\'s options cannot change from a client'
const SERVER_PARAMS = 'passes params.paginate or params.adapter, which exist on the server only (not sent over REST)'
const TOGGLES_PAGINATE =
  'sets service.options.paginate to {default: 1, max: 2} on the object; a server\'s pagination cannot change from a client'

const LOCAL_ONLY = {
  '.id': IN_PROCESS_OBJECT,
  '.options': IN_PROCESS_OBJECT,
  '.events': IN_PROCESS_OBJECT,
  '._get': IN_PROCESS_OBJECT,
  '._find': IN_PROCESS_OBJECT,
  '._create': IN_PROCESS_OBJECT,
  '._update': IN_PROCESS_OBJECT,
  '._patch': IN_PROCESS_OBJECT,
  '._remove': IN_PROCESS_OBJECT,
  'internal .find': INTERNAL_CALLS,
  'internal .get': INTERNAL_CALLS,
  'internal .create': INTERNAL_CALLS,
  'internal .update': INTERNAL_CALLS,
  'internal .patch': INTERNAL_CALLS,
  'internal .remove': INTERNAL_CALLS,
  '.remove + multi': TOGGLES_MULTI,
  '.patch multiple': TOGGLES_MULTI,
  '.create multi': TOGGLES_MULTI,
  '.remove + multi no pagination': SERVER_PARAMS,
  '.patch multiple no pagination': SERVER_PARAMS,
  'params.adapter + paginate': SERVER_PARAMS,
  'params.adapter + multi': SERVER_PARAMS,
  '.find + paginate': TOGGLES_PAGINATE,
  '.find + paginate + query': TOGGLES_PAGINATE,
  '.find + paginate + $limit + $skip': TOGGLES_PAGINATE,
  '.find + paginate + $limit 0': TOGGLES_PAGINATE,
  '.find + paginate + params': TOGGLES_PAGINATE
}

// The services of the conformance set the suite runs on, with their id property.
const SERVICES = [
  ['people', 'id'],
  ['people-customid', 'customid']
]

// `.id` is declared with a plain `it` (never skipped) and reads `service.id`, which only a
// local adapter has: run.js leaves it out with this pattern (mocha's grep, inverted).
const EXCLUDED = / Basic Functionality \.id$/

module.exports = { EXCLUDED, LOCAL_ONLY, SERVICES, WIRE_TESTS }
