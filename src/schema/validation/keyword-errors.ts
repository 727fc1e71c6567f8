/**
 * The error a keyword reports when data fails it, worded as Ajv 8 words it: the keyword, its params and the message.
 * Enclave's generated validators (validator-generator.ts) and interpreted ones (validator-interpreter.ts) both take
 * their errors from here, so the two cannot word one differently.
 */
export type KeywordError = [keyword: string, params: Record<string, unknown>, message: string]

/** A property name as a JSON Pointer token (`instancePath`), and as one in a URI fragment (`schemaPath`). */
export const escapePointer = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1')
export const escapeFragment = (name: string): string => encodeURIComponent(escapePointer(name))

/** What a limit keyword requires of the value: Ajv's `comparison` param. */
export const comparisons: Record<string, '<=' | '>=' | '<' | '>'> = {
  maximum: '<=',
  minimum: '>=',
  exclusiveMaximum: '<',
  exclusiveMinimum: '>'
}

const count = (keyword: string, words: string, noun: string) => (limit: number): KeywordError =>
  [keyword, { limit }, `must NOT have ${words} than ${limit} ${noun}`]

/** The errors whose params and message depend on the schema alone (what a generated validator numbers). */
export const keywordErrors = {
  type: (type: string): KeywordError => ['type', { type }, `must be ${type}`],
  limit: (keyword: string, limit: number): KeywordError =>
    [keyword, { comparison: comparisons[keyword], limit }, `must be ${comparisons[keyword]} ${limit}`],
  multipleOf: (divisor: number): KeywordError => ['multipleOf', { multipleOf: divisor }, `must be multiple of ${divisor}`],
  maxLength: count('maxLength', 'more', 'characters'),
  minLength: count('minLength', 'fewer', 'characters'),
  pattern: (pattern: string): KeywordError => ['pattern', { pattern }, `must match pattern "${pattern}"`],
  format: (name: string): KeywordError => ['format', { format: name }, `must match format "${name}"`],
  maxItems: count('maxItems', 'more', 'items'),
  minItems: count('minItems', 'fewer', 'items'),
  maxProperties: count('maxProperties', 'more', 'properties'),
  minProperties: count('minProperties', 'fewer', 'properties'),
  required: (name: string): KeywordError => ['required', { missingProperty: name }, `must have required property '${name}'`]
}

/** The messages of the errors whose params hold schema values (`const`, `enum`) or vary (`uniqueItems`). */
export const constMessage = 'must be equal to constant'
export const enumMessage = 'must be equal to one of the allowed values'
export const duplicateItemsMessage = (i: number, j: number): string => `must NOT have duplicate items (items ## ${j} and ${i} are identical)`
