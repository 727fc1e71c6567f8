/**
 * The serializers of response schemas inside Enclave's subset that a start has no compiled code for, in two tiers
 * (as validators are, ../validation/tiered-validator.ts): a route's serializer starts on the interpreter
 * (serializer-interpreter.ts), which needs nothing built, and changes to the generator's code (serializer-compiler.ts),
 * compiled then, after `TIER_UP_CALLS` responses (../tier-up.ts). Both write fast-json-stringify's text (the corpus
 * test holds them to it), so the change is invisible but for speed.
 */
import type { JsonSchema } from '../../core/types'
import { TIER_UP_CALLS } from '../tier-up'
import { compiledSerializer } from './serializer-compiler'
import { interpretSerializer } from './serializer-interpreter'
import type { Rounding } from './serializer-runtime'
import type { SerializerFn } from './serializer-types'

/** The serializer of `schema`, the JSON copy of a schema inside the subset, whose generated source is `source`. */
export function tieredSerializer (schema: JsonSchema, rounding: Rounding, source: string): SerializerFn {
  let calls = 0
  let current = interpretSerializer(schema, rounding)
  return function serializeTiered (data: unknown): string {
    if (++calls === TIER_UP_CALLS) {
      current = compiledSerializer(source, rounding)
    }
    return current(data)
  }
}
