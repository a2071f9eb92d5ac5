/** One web manifest per language (docs/routes.md, "Web manifests"). */

import { BACKGROUND_COLOR, BRAND_MARK, ICON_PATH, THEME_COLOR } from '../../shared/constants'
import { DEFAULT_LANGUAGE, type Language } from '../../shared/languages'
import type { SiteSettings } from '../../shared/types'

export function webManifest(language: Language, settings: SiteSettings) {
  return {
    name: settings.brandName,
    short_name: settings.shortName,
    lang: language,
    start_url: language === DEFAULT_LANGUAGE ? '/' : `/${language}/`,
    scope: '/',
    display: 'minimal-ui',
    background_color: BACKGROUND_COLOR,
    theme_color: THEME_COLOR,
    icons: [{ src: ICON_PATH, sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
  }
}

/** The icon, drawn in the brand colour so manifest, icon and design share one constant. */
export function iconSvg(): string {
  const { size, radius, letter, dot } = BRAND_MARK
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}"><rect width="${size}" height="${size}" rx="${radius}" fill="${THEME_COLOR}"/><path d="${letter}" fill="#fff"/><circle cx="${dot.cx}" cy="${dot.cy}" r="${dot.r}" fill="#fff"/></svg>\n`
}
