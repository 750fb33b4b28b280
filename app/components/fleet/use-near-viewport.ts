import { useEffect, useRef, useState } from 'react'

/**
 * True once the element comes within `margin` of the viewport (and from then on). Heavy parts
 * below the fold (recharts, the Leaflet map with its land outlines) load their chunks only then,
 * so a phone's first load does not parse and run them (Lighthouse: total blocking time). The
 * element keeps its size meanwhile, so nothing shifts when they arrive.
 */
export function useNearViewport<T extends Element>(margin = '600px') {
  const ref = useRef<T>(null)
  const [near, setNear] = useState(false)
  useEffect(() => {
    const element = ref.current
    if (near || !element) return
    if (typeof IntersectionObserver === 'undefined') return setNear(true)
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setNear(true)
    }, { rootMargin: `${margin} 0px` })
    observer.observe(element)
    return () => observer.disconnect()
  }, [near, margin])
  return [ref, near] as const
}
