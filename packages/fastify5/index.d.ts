// The types of enclave-http's Fastify 5 entry, under this package's name (an `export =` module re-exported whole).
import fastify = require('enclave-http/fastify5')
export = fastify
