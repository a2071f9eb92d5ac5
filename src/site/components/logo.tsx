import { BRAND_MARK } from '../../shared/constants'

/** The brand mark, drawn from the same figures as the site icon; the brand name beside it names it. */
export function Logo({ className }: { className?: string }) {
  const { size, radius, letter, dot } = BRAND_MARK
  return (
    <svg className={className} viewBox={`0 0 ${size} ${size}`} aria-hidden="true" focusable="false">
      <rect width={size} height={size} rx={radius} fill="var(--color-brand)" />
      <path d={letter} fill="#fff" />
      <circle cx={dot.cx} cy={dot.cy} r={dot.r} fill="#fff" />
    </svg>
  )
}
