/**
 * Moments as people at the bank read them: Berlin time, with the zone named, in the language the
 * person chose for the editor. The pages and the rules' messages say times alike.
 */
import type { EditorLanguage } from '../people/roles'

const BERLIN = {
  en: new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Berlin',
    dateStyle: 'medium',
    timeStyle: 'medium',
  }),
  de: new Intl.DateTimeFormat('de-DE', {
    timeZone: 'Europe/Berlin',
    dateStyle: 'medium',
    timeStyle: 'medium',
  }),
}

/** `iso` in Berlin time, with the zone named: "29 Nov 2026, 10:02:13 (Berlin)". */
export const berlinTime = (iso: string, language: EditorLanguage) =>
  `${BERLIN[language].format(new Date(iso))} (Berlin)`
