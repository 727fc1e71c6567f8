/**
 * Whether Enclave writes its own log lines about a request (incoming, completed, not found, errors answered, streams
 * cut short): logging on, and `disableRequestLogging` not `true` nor, as Fastify 5 also takes it (both levels), a
 * function returning true for this request. The function is asked at each line, as Fastify 5 asks it.
 */
import type { AppState } from '../encapsulation/app-state'
import type { RequestState } from './request'

export function logsRequest (app: AppState, request: RequestState): boolean {
  return app.requestLogging && (app.requestLogFilter === null || !app.requestLogFilter(request))
}
