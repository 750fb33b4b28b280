import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { apiCalls } from '~/api/index.server'
import { closed, openParts } from '~/api/closed-schema.server'
import { inputIssues } from '~/api/registry.server'

/**
 * Every /client/v1 call's input is closed (issue #29): no object takes unknown keys, no field is
 * unknown, any or a record of anything, so openapi.json tells a client exactly what to send.
 * Where openness is the point, the call and path are listed here with the reason.
 */
const allowedOpen: Record<string, string> = {}

describe('API input schemas', () => {
  it('are closed for every call, at every level', () => {
    const open = Object.entries(apiCalls).flatMap(([name, call]) =>
      openParts(call.input)
        .map((part) => `${name} ${part}`)
        .filter((part) => !(part in allowedOpen))
    )
    expect(open).toEqual([])
    expect(Object.keys(apiCalls).length).toBeGreaterThan(100)
  })

  it('finds open parts, so the check above is not vacuous', () => {
    const schema = z
      .object({
        a: z.object({}).passthrough(),
        b: z.unknown(),
        c: z.record(z.string()),
        d: z.array(z.object({ e: z.any() }).strict()),
      })
      .strict()
    expect(openParts(schema)).toEqual(['(body).a: object takes unknown keys (passthrough)', '(body).b: unknown', '(body).c: record', '(body).d[].e: any'])
    expect(openParts(z.object({ x: z.string() }))).toEqual(['(body): object takes unknown keys (strip)'])
  })

  it('names an unknown field, at the top and nested, in a union and behind effects', () => {
    const schema = closed(
      z.object({
        id: z.string(),
        doc: z.object({ name: z.string() }).optional(),
        window: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') }), z.object({ kind: z.literal('b'), n: z.number() })]).transform((w) => w),
      })
    )
    const problems = (body: object) => {
      const parsed = schema.safeParse(body)
      return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    }
    expect(problems({ id: 'x', window: { kind: 'a' } })).toEqual([])
    expect(problems({ id: 'x', naem: 'y', window: { kind: 'a' } })).toEqual([": Unrecognized key(s) in object: 'naem'"])
    expect(
      problems({
        id: 'x',
        doc: { name: 'n', colour: 1 },
        window: { kind: 'a' },
      })
    ).toEqual(["doc: Unrecognized key(s) in object: 'colour'"])
    expect(problems({ id: 'x', window: { kind: 'b', n: 1, m: 2 } })).toEqual(["window: Unrecognized key(s) in object: 'm'"])
  })

  it('answers an unknown field of a real call with a 400 naming it, and reports payload issues as the domain did', () => {
    const create = apiCalls['project/windowCreate']
    const body = {
      organizationId: 'o',
      projectId: 'p',
      window: {
        kind: 'maintenance',
        recurrence: 'weekly',
        weekdays: [1],
        startTime: '25:00',
        endTime: '06:00',
        timeZone: 'UTC',
      },
    }
    const bad = create.input.safeParse(body)
    expect(bad.success).toBe(false)
    expect(inputIssues(create, bad.error!.issues).map((i) => i.path.join('.'))).toEqual(['startTime'])
    const unknown = create.input.safeParse({
      ...body,
      window: { ...body.window, startTime: '05:00' },
      colour: 'red',
    })
    expect(unknown.error?.issues.map((i: z.ZodIssue) => i.message)).toEqual(["Unrecognized key(s) in object: 'colour'"])
    const profile = apiCalls['user/updateProfile'].input.safeParse({
      locale: 'de',
      timezone: 'Europe/Berlin',
    })
    expect(profile.error?.issues.map((i: z.ZodIssue) => i.message)).toEqual(["Unrecognized key(s) in object: 'timezone'"])
  })
})
