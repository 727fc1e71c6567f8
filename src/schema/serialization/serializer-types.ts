/** The serializer contract: what a serializer compiler receives and the function it returns. */
import type { JsonSchema } from '../../core/types'

/** Turns a payload into the response body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a user's serializer declares the data it takes
export type SerializerFn = (data: any) => string

/** What a serializer compiler receives, once per route, status key and (content form only) media type. */
export interface SerializerCompilerInput {
  schema: JsonSchema
  method: string | string[]
  url: string
  /** The response key as written in the route schema: '200', '2xx', 'default'… */
  httpStatus: string
  /** Only for the `{ content: { [mediaType]: { schema } } }` form. */
  contentType?: string
}
export type SerializerCompiler = (input: SerializerCompilerInput) => SerializerFn
/** `schemaController.compilersFactory.buildSerializer`. */
export type SerializerCompilerFactory = (externalSchemas: Record<string, unknown>, serializerOpts: unknown) => SerializerCompiler
