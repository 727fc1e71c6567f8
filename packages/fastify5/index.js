'use strict'
// The Fastify 5 level of the enclave-http release this package pins: the factory with Fastify 5's export shape.
// A plain re-export, so that ES modules' named imports (`import { fastify } from 'fastify'`) see its names too.
module.exports = require('enclave-http/fastify5')
