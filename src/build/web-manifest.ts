/** One web manifest per language (spec section 2). */
import type { SiteSettings } from '../content/schema/entries'
import { BACKGROUND_COLOR, THEME_COLOR } from '../shared/constants'
import { DEFAULT_LANGUAGE, type Language } from '../shared/languages'

export const ICON_PATH = '/icon.svg'

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
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" rx="96" fill="${THEME_COLOR}"/><path d="M176 128h56v200h120v56H176z" fill="#fff"/><circle cx="352" cy="176" r="40" fill="#fff"/></svg>\n`
}
