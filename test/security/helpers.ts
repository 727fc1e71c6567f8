/**
 * Raw-socket helpers (the security and reliability suites, and tests of connection handling): write HTTP/1.1 by hand (invalid bytes, lying lengths,
 * trickled bytes) and parse what comes back strictly enough to tell a well-formed response from garbage.
 */
import net from 'node:net'

export interface RawResponse {
  status: number
  reason: string
  headers: Record<string, string>
  body: Buffer
}

export interface RawResult {
  /** Every complete response parsed from the bytes received. */
  responses: RawResponse[]
  /** Everything received, for error messages. */
  raw: Buffer
  /** Why the exchange ended: the server closed ('end'), reset ('error'), or we gave up ('timeout'). */
  ended: 'end' | 'error' | 'timeout'
  /** Bytes after the last complete response (a truncated or malformed response). */
  rest: Buffer
  elapsedMs: number
}

/**
 * Parses consecutive HTTP/1.1 responses; throws on anything malformed. Unfinished trailing bytes go to `rest`.
 * `headRequest`: the first response answers a HEAD request (no body, whatever its Content-Length says); the ones
 * after it answer whatever bytes followed that request (a 400 for garbage, say) and are framed by their own headers.
 */
export function parseResponses (data: Buffer, headRequest = false): { responses: RawResponse[], rest: Buffer } {
  const responses: RawResponse[] = []
  let offset = 0
  while (offset < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', offset)
    if (headEnd === -1) break
    const head = data.subarray(offset, headEnd).toString('latin1')
    const lines = head.split('\r\n')
    const statusLine = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(lines[0])
    if (statusLine === null) throw new Error(`malformed status line: ${JSON.stringify(lines[0])}`)
    const headers: Record<string, string> = {}
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':')
      if (colon <= 0) throw new Error(`malformed header line: ${JSON.stringify(line)}`)
      const name = line.slice(0, colon).toLowerCase()
      if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) throw new Error(`invalid header name: ${JSON.stringify(name)}`)
      const value = line.slice(colon + 1).trim()
      headers[name] = headers[name] === undefined ? value : headers[name] + ', ' + value
    }
    const status = Number(statusLine[1])
    let bodyStart = headEnd + 4
    let body: Buffer
    const noBody = (headRequest && responses.length === 0) || status === 204 || status === 304 || status < 200
    if (noBody) {
      body = Buffer.alloc(0)
    } else if (headers['transfer-encoding'] !== undefined && /chunked/i.test(headers['transfer-encoding'])) {
      const parts: Buffer[] = []
      let complete = false
      while (true) {
        const lineEnd = data.indexOf('\r\n', bodyStart)
        if (lineEnd === -1) break
        const size = parseInt(data.subarray(bodyStart, lineEnd).toString('latin1'), 16)
        if (Number.isNaN(size)) throw new Error('malformed chunk size')
        if (size === 0) {
          const trailerEnd = data.indexOf('\r\n', lineEnd + 2)
          if (trailerEnd === -1) break
          bodyStart = trailerEnd + 2
          complete = true
          break
        }
        if (data.length < lineEnd + 2 + size + 2) break
        parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size))
        bodyStart = lineEnd + 2 + size + 2
      }
      if (!complete) break
      body = Buffer.concat(parts)
      offset = bodyStart
      responses.push({ status, reason: statusLine[2], headers, body })
      continue
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length'])
      if (!Number.isInteger(length) || length < 0) throw new Error(`invalid content-length ${headers['content-length']}`)
      if (data.length < bodyStart + length) break
      body = data.subarray(bodyStart, bodyStart + length)
      bodyStart += length
    } else {
      // delimited by the close
      body = data.subarray(bodyStart)
      bodyStart = data.length
    }
    responses.push({ status, reason: statusLine[2], headers, body })
    offset = bodyStart
  }
  return { responses, rest: data.subarray(offset) }
}

export interface RawOptions {
  /** Give up after this many ms (default 5000). */
  timeout?: number
  /** Delay between chunks, in ms (default 0: one write). */
  interval?: number
  /** Destroy the socket after writing every chunk (no response awaited). */
  destroyAfterWrite?: boolean
  /** Resolve as soon as this many responses were parsed (default: wait for the close). */
  expectResponses?: number
  /** The request written first is a HEAD request (see `parseResponses`). */
  headRequest?: boolean
  /** Write each chunk once every earlier one is answered, as a keep-alive client does (instead of `interval`). */
  afterEachAnswer?: boolean
}

/** Writes the chunks (with `interval` ms between them) and collects the response bytes until close or timeout. */
export function rawRequest (port: number, chunks: Array<string | Buffer> | string | Buffer, opts: RawOptions = {}): Promise<RawResult> {
  const list = Array.isArray(chunks) ? chunks : [chunks]
  const timeout = opts.timeout ?? 5000
  const started = Date.now()
  return new Promise((resolve) => {
    const received: Buffer[] = []
    let done = false
    let writer: NodeJS.Timeout | undefined
    const socket = net.connect(port, '127.0.0.1')
    const finish = (ended: RawResult['ended']): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      clearTimeout(writer)
      socket.destroy()
      const raw = Buffer.concat(received)
      let parsed: { responses: RawResponse[], rest: Buffer }
      try {
        parsed = parseResponses(raw, opts.headRequest)
      } catch {
        parsed = { responses: [], rest: raw }
      }
      resolve({ ...parsed, raw, ended, elapsedMs: Date.now() - started })
    }
    const timer = setTimeout(() => finish('timeout'), timeout)
    let index = 0
    socket.on('data', (chunk) => {
      received.push(chunk)
      if (opts.expectResponses === undefined && opts.afterEachAnswer !== true) return
      let answered: number
      try {
        answered = parseResponses(Buffer.concat(received), opts.headRequest).responses.length
      } catch {
        return // keep reading: the close decides
      }
      if (opts.expectResponses !== undefined && answered >= opts.expectResponses) finish('end')
      else if (opts.afterEachAnswer === true && answered === index && index < list.length) socket.write(list[index++])
    })
    socket.on('end', () => finish('end'))
    socket.on('close', () => finish('end'))
    socket.on('error', () => finish('error'))
    socket.on('connect', () => {
      if (opts.afterEachAnswer === true) {
        socket.write(list[index++])
        return
      }
      const writeNext = (): void => {
        if (done || socket.destroyed) return
        if (index === list.length) {
          if (opts.destroyAfterWrite) finish('end')
          return
        }
        socket.write(list[index++])
        if (opts.interval === undefined || opts.interval === 0) writeNext()
        else writer = setTimeout(writeNext, opts.interval)
      }
      writeNext()
    })
  })
}

/** A GET over a fresh socket with `Connection: close`; resolves the single parsed response. */
export async function rawGet (port: number, path: string): Promise<RawResponse> {
  const result = await rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
  if (result.responses.length !== 1) throw new Error(`expected one response, got ${result.raw.toString('latin1').slice(0, 300)}`)
  return result.responses[0]
}

/** A request with a body, `Content-Length` computed unless given in `headers`. */
export function buildRequest (method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Buffer {
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body)
  const all: Record<string, string> = { host: 'x', connection: 'close', ...headers }
  if (body !== undefined && all['content-length'] === undefined && all['transfer-encoding'] === undefined) {
    all['content-length'] = String(payload.length)
  }
  const head = `${method} ${path} HTTP/1.1\r\n` + Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join('') + '\r\n'
  return Buffer.concat([Buffer.from(head, 'latin1'), payload])
}

/** Records `unhandledRejection` / `uncaughtException` while `fn` runs (and one turn after), then detaches. */
export async function withProcessErrorWatch (fn: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = []
  const onRejection = (reason: unknown): void => { seen.push(['unhandledRejection', reason]) }
  const onException = (err: unknown): void => { seen.push(['uncaughtException', err]) }
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  try {
    await fn()
    await new Promise((resolve) => setTimeout(resolve, 50))
  } finally {
    process.off('unhandledRejection', onRejection)
    process.off('uncaughtException', onException)
  }
  return seen
}

export function sleep (ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
