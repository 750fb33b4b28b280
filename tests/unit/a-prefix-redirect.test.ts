import { describe, expect, it } from 'vitest'
import { loader } from '~/routes/a.$'

const target = (path: string) => {
  const response = loader({ request: new Request(`http://portal.test${path}`), params: {}, context: {} }) as Response
  return { status: response.status, location: response.headers.get('Location') }
}

describe('/a prefix (spec 01 section 2)', () => {
  it('bare /a and /a/ behave as / instead of redirecting to themselves', () => {
    expect(target('/a')).toEqual({ status: 301, location: '/' })
    expect(target('/a/')).toEqual({ status: 301, location: '/' })
    expect(target('/a?x=1')).toEqual({ status: 301, location: '/?x=1' })
  })

  it('strips the prefix from deeper paths and never leaves the site', () => {
    expect(target('/a/organization/list?sort=name')).toEqual({ status: 301, location: '/organization/list?sort=name' })
    // a protocol-relative remainder is refused by safeRedirect and goes home
    expect(target('/a//evil.example/x').location).toBe('/')
  })
})
