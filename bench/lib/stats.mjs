/** Small statistics helpers for the benchmark results, and the order servers take turns in. */

export function median (values) {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return null
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

export function ratio (numerator, denominator) {
  return numerator === null || denominator === null || denominator === 0 ? null : numerator / denominator
}

export function range (values) {
  const finite = values.filter((v) => typeof v === 'number' && Number.isFinite(v))
  return finite.length === 0 ? null : [Math.min(...finite), Math.max(...finite)]
}

export function round (value, digits = 0) {
  if (value === null || value === undefined) return null
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}

/** `items` in a different order each round, so slow drift on a shared machine is spread over all of them. */
export function rotate (items, round) {
  const shift = items.length === 0 ? 0 : round % items.length
  return [...items.slice(shift), ...items.slice(0, shift)]
}
