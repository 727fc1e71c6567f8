/**
 * What Enclave's serializers (generated, serializer-compiler.ts, and interpreted, serializer-interpreter.ts) run on:
 * string quoting and the per-value conversions the common case does not need (rounding, numbers that are not
 * finite, dates, values that are not strings under a string schema), one frozen set per rounding mode.
 */

export type Rounding = 'trunc' | 'floor' | 'ceil' | 'round'
export const roundings: Record<Rounding, (n: number) => number> = { trunc: Math.trunc, floor: Math.floor, ceil: Math.ceil, round: Math.round }

/** String formats written by the runtime function of the same name. */
export const dateFormats = new Set(['date-time', 'date', 'time'])

// eslint-disable-next-line no-control-regex -- control characters are exactly what JSON must escape
const needsEscape = /[\u0000-\u001f"\\\ud800-\udfff]/

/**
 * A JSON string literal. Most strings need no escaping: scanning a short one is about twice as fast as calling
 * JSON.stringify, which handles the rest.
 */
export function quote (text: string): string {
  const length = text.length
  if (length > 64) return needsEscape.test(text) ? JSON.stringify(text) : '"' + text + '"'
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i)
    if (code < 32 || code === 34 || code === 92 || (code >= 0xd800 && code <= 0xdfff)) return JSON.stringify(text)
  }
  return '"' + text + '"'
}

/** Per-value conversions, by name: `integer`, `number`, `string` and one per date format. */
export type SerializerRuntime = Readonly<Record<string, (value: unknown) => string>>

/** Per-value conversions, shared by every generated serializer; the generated code handles the common case inline. */
function runtime (rounding: (n: number) => number): Record<string, (value: unknown) => string> {
  return {
    integer (value) {
      if (typeof value === 'bigint') return value.toString()
      const integer = rounding(value as number)
      if (!Number.isFinite(integer)) throw new Error(`The value "${value}" cannot be converted to an integer.`)
      return '' + integer
    },
    number (value) {
      const number = Number(value)
      if (Number.isNaN(number)) throw new Error(`The value "${value}" cannot be converted to a number.`)
      return Number.isFinite(number) ? '' + number : 'null'
    },
    string (value) {
      if (value === null) return '""'
      if (value instanceof Date) return '"' + value.toISOString() + '"'
      const text = value instanceof RegExp ? value.source : (value as object).toString()
      return typeof text === 'string' ? quote(text) : JSON.stringify(text)
    },
    'date-time' (value) {
      if (value instanceof Date) return '"' + value.toISOString() + '"'
      return dateString(value, 'date-time')
    },
    date (value) {
      if (value instanceof Date) return '"' + localIso(value).slice(0, 10) + '"'
      return dateString(value, 'date')
    },
    time (value) {
      if (value instanceof Date) return '"' + localIso(value).slice(11, 19) + '"'
      return dateString(value, 'time')
    }
  }
}

function localIso (date: Date): string {
  return new Date(date.getTime() - date.getTimezoneOffset() * 60000).toISOString()
}

// fast-json-stringify writes such strings unescaped; escaping them differs only where its output was not JSON
function dateString (value: unknown, format: string): string {
  if (value === null) return '""'
  if (typeof value === 'string') return quote(value)
  throw new Error(`The value "${String(value)}" cannot be converted to a ${format}.`)
}

/** One runtime per rounding mode, shared by every serializer that rounds that way (generated code only reads it). */
const runtimes: Partial<Record<Rounding, SerializerRuntime>> = {}

/** The frozen runtime of `rounding`, made on first use. */
export function sharedRuntime (rounding: Rounding): SerializerRuntime {
  return runtimes[rounding] ??= Object.freeze(runtime(roundings[rounding]))
}
