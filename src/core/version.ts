/** Enclave's own version, and the Fastify API level it implements (what plugins' declared `fastify` ranges are checked against). */
import { version } from '../../package.json'

export const enclaveVersion: string = version

export const FASTIFY_API_VERSION = '4.29.1'
