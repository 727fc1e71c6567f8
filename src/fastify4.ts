/** `enclave-http/fastify4`: the Fastify 4 level, the same module as the package's main entry (src/index.ts). */
import main = require('./index')

export = main
