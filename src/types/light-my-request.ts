/**
 * `inject()`'s types (light-my-request), under the names Fastify exports them.
 */
export type {
  Chain as LightMyRequestChain, InjectOptions, Response as LightMyRequestResponse, CallbackFunc as LightMyRequestCallback
} from 'light-my-request'
