/** `POST /api/consent`: a choice made in the cookie banner, kept as proof (no address). */
import type { FastifyContextConfig, FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { FieldError } from '../shared/forms/messages'
import type { FormResponse } from '../shared/forms/validate'
import { LANGUAGES } from '../shared/languages'
import type { FormsStore } from './store'

const consentRecord = z.strictObject({
  id: z.uuid(),
  categories: z.strictObject({ analytics: z.boolean(), conversion: z.boolean() }),
  trackers: z.strictObject({
    googleanalytics: z.boolean(),
    adwords: z.boolean(),
    twitter: z.boolean(),
    linkedin: z.boolean(),
  }),
  revision: z.string().regex(/^[\w.-]{1,40}$/),
  language: z.enum(LANGUAGES),
})

/** The consent route; `config` carries its rate limit. */
export function consentRoute(
  app: FastifyInstance,
  store: FormsStore,
  config: FastifyContextConfig,
): void {
  app.post('/api/consent', { bodyLimit: 2048, config }, async (request, reply) => {
    const parsed = consentRecord.safeParse(request.body)
    if (!parsed.success) {
      const errors: FieldError[] = parsed.error.issues.map((issue) => ({
        field: issue.path.map(String).join('.'),
        code: issue.code === 'unrecognized_keys' ? 'unknown' : 'invalid',
      }))
      return reply.code(422).send({ ok: false, errors } satisfies FormResponse)
    }
    const { id, ...record } = parsed.data
    await store.saveConsent({ consentId: id, ...record })
    return reply.code(204).send()
  })
}
