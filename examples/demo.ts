/**
 * `npm start`: runs the spec's encapsulation demo on PORT (default 3000) and prints a curl line per route.
 * API keys come from DEMO_API_KEYS (comma-separated); the default key is printed so the demo works as is.
 */
import { buildDemoApp } from './demo-app'

const defaultKey = 'enclave-demo-key'

async function main (): Promise<void> {
  const keys = (process.env.DEMO_API_KEYS ?? defaultKey).split(',').map((k) => k.trim()).filter(Boolean)
  const port = Number(process.env.PORT ?? 3000)
  const host = process.env.HOST ?? '127.0.0.1'
  const app = buildDemoApp({ keys, logger: process.env.DEMO_LOG === '1' })
  const address: string = await app.listen({ port, host })

  console.log(`Enclave demo listening at ${address}`)
  if (process.env.DEMO_API_KEYS === undefined) console.log(`API key (default, set DEMO_API_KEYS to change): ${defaultKey}`)
  console.log('Try:')
  console.log(`  curl -H 'authorization: Bearer ${keys[0]}' ${address}/one   # {"answer":42}`)
  console.log(`  curl ${address}/one                                  # 401 without a valid key`)
  console.log(`  curl ${address}/two                                  # {"answer":42,"foo":"foo"}`)
  console.log(`  curl ${address}/three                                # {"answer":42,"foo":"foo","bar":"bar"}`)

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.log(`${signal} received: closing`)
      app.close().then(() => process.exit(0), (err: Error) => {
        console.error(err)
        process.exit(1)
      })
    })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
