/** A minimal HTTP client for the correctness checks: one request, full body, exact status and headers. */
import http from 'node:http'

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })

/**
 * @param {{ port: number, method: string, path: string, headers?: object, body?: string }} request
 * @returns {Promise<{ status: number, headers: object, body: string }>}
 */
export function sendRequest ({ port, method, path, headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => { text += chunk })
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }))
      res.on('error', reject)
    })
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout: ${method} ${path}`)))
    req.on('error', reject)
    req.end(body)
  })
}

export function closeIdleSockets () {
  agent.destroy()
}
