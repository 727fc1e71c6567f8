/**
 * Small shared types: HTTP methods, the defaults of the generic parameters, status-code keys and header names.
 */
import type * as http from 'node:http'
import type { AtLevel } from './level'

type MethodName =
  | 'DELETE' | 'GET' | 'HEAD' | 'PATCH' | 'POST' | 'PUT' | 'OPTIONS' | 'PROPFIND' | 'PROPPATCH' | 'MKCOL' | 'COPY'
  | 'MOVE' | 'LOCK' | 'UNLOCK' | 'TRACE' | 'SEARCH' | 'REPORT' | 'MKCALENDAR' | 'QUERY'

/**
 * The HTTP methods a route can answer, in upper or lower case. At the Fastify 5 level, as in Fastify 5, any other
 * name too (a method added with `addHttpMethod()`), the known ones still offered by editors' completion.
 */
// one union written here (not an AtLevel of two), so that messages name it `HTTPMethods`, as Fastify's do
export type HTTPMethods = MethodName | Lowercase<MethodName> | AtLevel<never, string & Record<never, never>>

/** A request part without a type from a generic or a schema is `unknown`: it must be narrowed before use. */
export type RequestBodyDefault = unknown
export type RequestQuerystringDefault = unknown
export type RequestParamsDefault = unknown
export type RequestHeadersDefault = unknown
/** The route `config` type when a route declares none. */
export type ContextConfigDefault = unknown
export type ReplyDefault = unknown

/** The first digit of an HTTP status code. */
export type CodeClasses = 1 | 2 | 3 | 4 | 5

/**
 * Every HTTP status code (100 to 599) by class, spelled out in ascending order. TypeScript lists a union's numbers in
 * the order their literal types were first created; these are created when the declaration files are checked, before
 * the program's own numbers, so a message about a status code lists the codes in order (`'100 | 101 | ... | 300'`,
 * as Fastify's does). Built from digits in a template instead, they would come in the order the digits happened to be
 * created (`100 | 105 | 101 | …`).
 */
interface CodesByClass {
  1:
    | 100 | 101 | 102 | 103 | 104 | 105 | 106 | 107 | 108 | 109
    | 110 | 111 | 112 | 113 | 114 | 115 | 116 | 117 | 118 | 119
    | 120 | 121 | 122 | 123 | 124 | 125 | 126 | 127 | 128 | 129
    | 130 | 131 | 132 | 133 | 134 | 135 | 136 | 137 | 138 | 139
    | 140 | 141 | 142 | 143 | 144 | 145 | 146 | 147 | 148 | 149
    | 150 | 151 | 152 | 153 | 154 | 155 | 156 | 157 | 158 | 159
    | 160 | 161 | 162 | 163 | 164 | 165 | 166 | 167 | 168 | 169
    | 170 | 171 | 172 | 173 | 174 | 175 | 176 | 177 | 178 | 179
    | 180 | 181 | 182 | 183 | 184 | 185 | 186 | 187 | 188 | 189
    | 190 | 191 | 192 | 193 | 194 | 195 | 196 | 197 | 198 | 199
  2:
    | 200 | 201 | 202 | 203 | 204 | 205 | 206 | 207 | 208 | 209
    | 210 | 211 | 212 | 213 | 214 | 215 | 216 | 217 | 218 | 219
    | 220 | 221 | 222 | 223 | 224 | 225 | 226 | 227 | 228 | 229
    | 230 | 231 | 232 | 233 | 234 | 235 | 236 | 237 | 238 | 239
    | 240 | 241 | 242 | 243 | 244 | 245 | 246 | 247 | 248 | 249
    | 250 | 251 | 252 | 253 | 254 | 255 | 256 | 257 | 258 | 259
    | 260 | 261 | 262 | 263 | 264 | 265 | 266 | 267 | 268 | 269
    | 270 | 271 | 272 | 273 | 274 | 275 | 276 | 277 | 278 | 279
    | 280 | 281 | 282 | 283 | 284 | 285 | 286 | 287 | 288 | 289
    | 290 | 291 | 292 | 293 | 294 | 295 | 296 | 297 | 298 | 299
  3:
    | 300 | 301 | 302 | 303 | 304 | 305 | 306 | 307 | 308 | 309
    | 310 | 311 | 312 | 313 | 314 | 315 | 316 | 317 | 318 | 319
    | 320 | 321 | 322 | 323 | 324 | 325 | 326 | 327 | 328 | 329
    | 330 | 331 | 332 | 333 | 334 | 335 | 336 | 337 | 338 | 339
    | 340 | 341 | 342 | 343 | 344 | 345 | 346 | 347 | 348 | 349
    | 350 | 351 | 352 | 353 | 354 | 355 | 356 | 357 | 358 | 359
    | 360 | 361 | 362 | 363 | 364 | 365 | 366 | 367 | 368 | 369
    | 370 | 371 | 372 | 373 | 374 | 375 | 376 | 377 | 378 | 379
    | 380 | 381 | 382 | 383 | 384 | 385 | 386 | 387 | 388 | 389
    | 390 | 391 | 392 | 393 | 394 | 395 | 396 | 397 | 398 | 399
  4:
    | 400 | 401 | 402 | 403 | 404 | 405 | 406 | 407 | 408 | 409
    | 410 | 411 | 412 | 413 | 414 | 415 | 416 | 417 | 418 | 419
    | 420 | 421 | 422 | 423 | 424 | 425 | 426 | 427 | 428 | 429
    | 430 | 431 | 432 | 433 | 434 | 435 | 436 | 437 | 438 | 439
    | 440 | 441 | 442 | 443 | 444 | 445 | 446 | 447 | 448 | 449
    | 450 | 451 | 452 | 453 | 454 | 455 | 456 | 457 | 458 | 459
    | 460 | 461 | 462 | 463 | 464 | 465 | 466 | 467 | 468 | 469
    | 470 | 471 | 472 | 473 | 474 | 475 | 476 | 477 | 478 | 479
    | 480 | 481 | 482 | 483 | 484 | 485 | 486 | 487 | 488 | 489
    | 490 | 491 | 492 | 493 | 494 | 495 | 496 | 497 | 498 | 499
  5:
    | 500 | 501 | 502 | 503 | 504 | 505 | 506 | 507 | 508 | 509
    | 510 | 511 | 512 | 513 | 514 | 515 | 516 | 517 | 518 | 519
    | 520 | 521 | 522 | 523 | 524 | 525 | 526 | 527 | 528 | 529
    | 530 | 531 | 532 | 533 | 534 | 535 | 536 | 537 | 538 | 539
    | 540 | 541 | 542 | 543 | 544 | 545 | 546 | 547 | 548 | 549
    | 550 | 551 | 552 | 553 | 554 | 555 | 556 | 557 | 558 | 559
    | 560 | 561 | 562 | 563 | 564 | 565 | 566 | 567 | 568 | 569
    | 570 | 571 | 572 | 573 | 574 | 575 | 576 | 577 | 578 | 579
    | 580 | 581 | 582 | 583 | 584 | 585 | 586 | 587 | 588 | 589
    | 590 | 591 | 592 | 593 | 594 | 595 | 596 | 597 | 598 | 599
}

/** Every HTTP status code. (Not `CodesByClass[CodeClasses]`: that would read the classes in the order 1 to 5 were created.) */
type HttpCodes = CodesByClass[1] | CodesByClass[2] | CodesByClass[3] | CodesByClass[4] | CodesByClass[5]

/** Whether `Code` is an HTTP status code (100 to 599). */
export type IsHttpCode<Code extends number> = [Code] extends [HttpCodes] ? true : false

/**
 * The status codes `reply.code()` accepts for a reply map's keys: its codes, and every code of its ranges (`'4xx'`).
 * Any code when the route declares no reply map (or a key that is not a code).
 */
export type ReplyKeysToCodes<Key> = [Key] extends [never] ? number
  : Key extends HttpCodes ? Key
    : Key extends `${infer Class extends CodeClasses}xx` ? CodesByClass[Class]
      : number

/** The range key (`'4xx'`) of a status code. */
export type CodeToReplyKey<Code extends number> = `${Code}` extends `${infer Class extends CodeClasses}${number}` ? `${Class}xx` : never

/** Lower-cases the keys of an object type (header names, as Node parses them). */
export type RecordKeysToLowercase<Input> = Input extends Record<string, unknown>
  ? { [Key in keyof Input as Key extends string ? Lowercase<Key> : Key]: Input[Key] }
  : Input

type WithoutIndexSignature<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] }

/** A header name: one Node knows (offered by editors) or any other string. */
export type HttpHeader = keyof WithoutIndexSignature<http.OutgoingHttpHeaders> | (string & Record<never, never>)

/**
 * Fastify 5's name for what `ready()`, `after()`, `register()` and the factory return beside the instance: a
 * `PromiseLike` branded so that linters' no-floating-promise rules know the instance may be used without awaiting it.
 * The brand has no runtime value.
 */
export type SafePromiseLike<T> = PromiseLike<T> & { __linterBrands: 'SafePromiseLike' }

/** The awaitable side of an instance: Fastify 4's `PromiseLike`, or Fastify 5's `SafePromiseLike`. */
export type InstancePromiseLike<T> = AtLevel<PromiseLike<T>, SafePromiseLike<T>>

/** A copy of `T` that inference does not look into (what `NoInfer` does, for code written before TypeScript 5.4). */
export type NoInferCompat<T> = { [K in keyof T]: T[K] }
