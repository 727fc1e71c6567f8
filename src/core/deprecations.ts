/**
 * The deprecation warnings of Fastify 4, and its `FSTWRN` warnings (a missing schema, a plugin mixing the async and
 * callback styles), with their codes and texts: users and tools filter warnings on either, so Enclave emits the same
 * ones for the same calls (test/compatibility/deprecations.test.ts compares them with fastify@4's). Each is emitted
 * once per process, as Fastify does, except where noted.
 */

interface Deprecation {
  code: string
  text: (detail: string) => string
  /** Emitted on every occurrence rather than once (the detail names what is affected). */
  everyTime?: true
  /** Fastify's `FSTWRN` warnings are not deprecations: they are named `FastifyWarning`; Fastify 5 names its own `FastifyDeprecation`. */
  type?: 'FastifyWarning' | 'FastifyDeprecation' | 'FastifySecurity'
}

const removedInV5 = 'will be removed in `fastify@5`'

function requestProperty (code: string, name: string, replacement: string): Deprecation {
  return {
    code,
    text: () => `You are accessing the deprecated "request.${name}" property. Use "${replacement}" instead. Property "req.${name}" ${removedInV5}.`
  }
}

function contextProperty (code: string, object: 'request' | 'reply'): Deprecation {
  return {
    code,
    text: () => `${object}.context property access is deprecated. Please use "request.routeOptions.config" or ` +
      `"request.routeOptions.schema" instead for accessing Route settings. The "${object}.context" ${removedInV5}.`
  }
}

const deprecations = {
  requestConnection: { code: 'FSTDEP005', text: () => 'You are accessing the deprecated "request.connection" property. Use "request.socket" instead.' },
  referenceDecorator: {
    code: 'FSTDEP006',
    text: (property: string) => 'You are decorating Request/Reply with a reference type. This reference is shared amongst all ' +
      `requests. Use onRequest hook instead. Property: ${property}`,
    everyTime: true
  },
  routeVersionOption: {
    code: 'FSTDEP008',
    text: () => 'You are using route constraints via the route { version: "..." } option, use { constraints: { version: "..." } } option instead.'
  },
  versioningOption: {
    code: 'FSTDEP009',
    text: () => 'You are using a custom route versioning strategy via the server { versioning: "..." } option, ' +
      'use { constraints: { version: "..." } } option instead.'
  },
  replySentAssignment: { code: 'FSTDEP010', text: () => 'Modifying the "reply.sent" property is deprecated. Use the "reply.hijack()" method instead.' },
  variadicListen: {
    code: 'FSTDEP011',
    text: () => 'Variadic listen method is deprecated. Please use ".listen(optionsObject)" instead. The variadic signature will be removed in `fastify@5`.'
  },
  requestContext: contextProperty('FSTDEP012', 'request'),
  trailerDirectReturn: {
    code: 'FSTDEP013',
    text: () => 'Direct return of "trailers" function is deprecated. Please use "callback" or "async-await" for return value. ' +
      'The support of direct return will removed in `fastify@5`.'
  },
  defaultRoute: {
    code: 'FSTDEP014',
    text: () => 'You are trying to set/access the default route. This property is deprecated. Please, use setNotFoundHandler if ' +
      'you want to custom a 404 handler or the wildcard (*) to match all routes.'
  },
  routeSchema: requestProperty('FSTDEP015', 'routeSchema', 'request.routeOptions.schema'),
  routeConfig: requestProperty('FSTDEP016', 'routeConfig', 'request.routeOptions.config'),
  routerPath: requestProperty('FSTDEP017', 'routerPath', 'request.routeOptions.url'),
  routerMethod: requestProperty('FSTDEP018', 'routerMethod', 'request.routeOptions.method'),
  replyContext: contextProperty('FSTDEP019', 'reply'),
  getResponseTime: {
    code: 'FSTDEP020',
    text: () => `You are using the deprecated "reply.getResponseTime()" method. Use the "reply.elapsedTime" property instead. Method "reply.getResponseTime()" ${removedInV5}.`
  },
  // Fastify gives these two the same code
  redirectCodeFirst: {
    code: 'FSTDEP021',
    text: () => 'The `reply.redirect()` method has a new signature: `reply.redirect(url: string, code?: number)`. It will be enforced in `fastify@v5`'
  },
  jsonShorthand: {
    code: 'FSTDEP021',
    text: (url: string) => `You are using the deprecated json shorthand schema on route ${url}. Specify full object schema instead. It will be removed in \`fastify@v5\``
  },
  // a route schema key given as `undefined` (`schema: { body: undefined }`): usually a schema import that failed
  missingSchema: {
    code: 'FSTWRN001',
    type: 'FastifyWarning',
    everyTime: true,
    text: (part: string) => `The ${part} is missing. This may indicate the schema is not well specified.`
  },
  pluginMixesStyles: {
    code: 'FSTWRN002',
    type: 'FastifyWarning',
    everyTime: true,
    text: (name: string) => `The ${name} plugin being registered mixes async and callback styles, which will result in an error in \`fastify@5\``
  },
  // Fastify 5's security warnings for a headers schema whose names Enclave cannot lower-case (header-schema.ts)
  headerSchemaExternalRef: {
    code: 'FSTSEC002',
    type: 'FastifySecurity',
    everyTime: true,
    text: (detail: string) => `The headers schema for ${detail} that is not case-normalized. Header names in the referenced ` +
      'schema keep their original case and will not match the lowercased request headers, so case-insensitive assertions ' +
      'such as required and dependencies may not apply. Inline the header schema instead of referencing it with an external $ref.'
  },
  headerSchemaPropertyNamesRef: {
    code: 'FSTSEC003',
    type: 'FastifySecurity',
    everyTime: true,
    text: (detail: string) => `The headers schema for ${detail} that is not case-normalized. Header names held in the ` +
      'referenced schema keep their original case and will not match the lowercased request headers, so a case-insensitive ' +
      'deny-list or allow-list on header names may not apply. Inline the propertyNames constraint instead of referencing it with a $ref.'
  },
  // Fastify 5's: FSTDEP022 at the Fastify 5 level only (src/core/api-level.ts), FSTDEP025 at both
  topLevelRouterOptions: {
    code: 'FSTDEP022',
    type: 'FastifyWarning',
    everyTime: true,
    text: (names: string) => `The router options for ${names} property access is deprecated. Please use "options.routerOptions" instead ` +
      'for accessing router options. The router options will be removed in `fastify@6`.'
  },
  existingHttpMethod: {
    code: 'FSTDEP025',
    type: 'FastifyDeprecation',
    everyTime: true,
    text: (method: string) => `Calling addHttpMethod for existing method "${method}" without { overrideExisting: true } is deprecated. ` +
      'In Fastify v6, this will throw an error.'
  },
  // Fastify 5's, at the Fastify 5 level only (src/core/api-level.ts: errorHandlerOverrideWarns)
  errorHandlerOverride: {
    code: 'FSTWRN004',
    type: 'FastifyWarning',
    everyTime: true,
    text: () => 'It seems that you are overriding an errorHandler in the same scope, which can lead to subtle bugs. To disable this ' +
      "behavior, set 'allowErrorHandlerOverride' to false. For more information, visit: " +
      'https://fastify.dev/docs/latest/Reference/Server/#allowerrorhandleroverride'
  }
} satisfies Record<string, Deprecation>

export type DeprecationName = keyof typeof deprecations

const emitted = new Set<DeprecationName>()

/** Emits Fastify 4's warning for a deprecated use; `detail` fills the text where it names a property or route. */
export function warnDeprecated (name: DeprecationName, detail = ''): void {
  const deprecation: Deprecation = deprecations[name]
  if (deprecation.everyTime !== true) {
    if (emitted.has(name)) return
    emitted.add(name)
  }
  process.emitWarning(deprecation.text(detail), { type: deprecation.type ?? 'DeprecationWarning', code: deprecation.code })
}
