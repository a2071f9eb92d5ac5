/**
 * The bank's mark as inline SVG, for the services' own pages (the publishing service's screens,
 * the forms service's pages): drawn from the figures the site's icon and logo share, so all of
 * them stay one mark. Its square takes the brand colour from the page's stylesheet
 * (`.mark-square`), the letter and dot are white; it is decoration beside the bank's name.
 */
import { BRAND_MARK } from './constants'

export function Mark() {
  const { size, radius, letter, dot } = BRAND_MARK
  return (
    <svg className="mark" viewBox={`0 0 ${size} ${size}`} aria-hidden="true" focusable="false">
      <rect width={size} height={size} rx={radius} className="mark-square" />
      <path d={letter} fill="#fff" />
      <circle cx={dot.cx} cy={dot.cy} r={dot.r} fill="#fff" />
    </svg>
  )
}
