'use strict'
/*
 * Runs spec files of this folder with mocha against a Feathers REST server.
 *
 *   node run.js --url http://127.0.0.1:3030 adapter rest-client authentication
 *   node run.js --url http://127.0.0.1:8000 --results results.json adapter
 *
 * Each name is a file of specs/. The results file (JSON) lists every passed, failed and
 * pending test by full title, with the failures' messages: the Python tests read it.
 */
const fs = require('fs')
const path = require('path')
const Mocha = require('mocha')

const USAGE = 'usage: node run.js --url <base URL> [--results <file>] [--timeout <ms>] <spec>...'

function parseArguments (argv) {
  const options = { specs: [], results: null, url: null, timeout: 10000 }
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]
    if (argument === '--url' || argument === '--results' || argument === '--timeout') {
      const value = argv[++index]
      if (value === undefined) {
        throw new Error(`${argument} needs a value\n${USAGE}`)
      }
      options[argument.slice(2)] = argument === '--timeout' ? Number(value) : value
    } else {
      options.specs.push(argument)
    }
  }
  if (!options.url || options.specs.length === 0) {
    throw new Error(USAGE)
  }
  return options
}

function specFile (name) {
  const file = path.join(__dirname, 'specs', `${name}.js`)
  if (!fs.existsSync(file)) {
    const known = fs.readdirSync(path.join(__dirname, 'specs')).map((entry) => path.basename(entry, '.js'))
    throw new Error(`No spec named ${name}: one of ${known.join(', ')}`)
  }
  return file
}

function main () {
  const options = parseArguments(process.argv.slice(2))
  process.env.FEATHERS_URL = options.url

  const { EXCLUDED } = require('./lib/adapter-catalogue')
  const mocha = new Mocha({ reporter: 'spec', timeout: options.timeout })
  mocha.grep(EXCLUDED).invert()
  for (const name of options.specs) {
    mocha.addFile(specFile(name))
  }

  const results = { url: options.url, specs: options.specs, passed: [], failed: [], pending: [] }
  const runner = mocha.run((failures) => {
    if (options.results) {
      fs.writeFileSync(options.results, JSON.stringify(results, null, 2))
    }
    process.exitCode = failures ? 1 : 0
  })
  runner.on('pass', (test) => results.passed.push(test.fullTitle()))
  runner.on('pending', (test) => results.pending.push(test.fullTitle()))
  runner.on('fail', (test, error) => {
    results.failed.push({ title: test.fullTitle(), message: String(error && error.message) })
  })
}

try {
  main()
} catch (error) {
  console.error(error.message)
  process.exitCode = 2
}
