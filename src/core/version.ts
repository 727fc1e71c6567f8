/** Enclave's own version, and the Fastify API level it implements (what plugins' declared `fastify` ranges are checked against). */
import { version } from '../../package.json'

export const enclaveVersion: string = version

import { DEFAULT_LEVEL } from './api-level'

/** The Fastify version of the main entry's level. */
export const FASTIFY_API_VERSION = DEFAULT_LEVEL.fastifyVersion
