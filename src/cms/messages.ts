/**
 * What the CMS's backend (./backend.ts) says when it refuses a change, in the editor's
 * language: an image it does not take, and a change that would break the content, with each
 * problem's file and field. English is what `npm run dev`'s editor and the build say; German
 * is for the publishing service's editor, for a person whose language is German.
 *
 * The content's problems come from the build's validation, in English. In German each names
 * its field by the German labels (./field-labels.ts) and, for the messages the schemas' field
 * types give (an empty text, a text too long, a link to nothing …), says what is wrong in
 * German with the field's German description (./german-hints.ts); any other problem is said in
 * a German sentence with the validation's English words quoted.
 */
import { type ContentProblem, formatProblem } from '../content/errors'
import { hintOf } from '../content/schema/editor'
import { fieldLabel, type LabelLanguage } from './field-labels'
import { germanDescription } from './german'
import { CMS_CONTENT_ROOT } from './paths'

/** One of the schemas' messages about a field described by `what`, and its German. */
type FieldForm = [RegExp, (what: string, match: RegExpExecArray) => string]

/** The schemas' field types' messages (../content/schema/fields.ts), longest forms first. */
const FIELD_FORMS: FieldForm[] = [
  [/^expected (.+), found an empty text$/s, (what) => `${what} fehlt: Das Feld ist leer.`],
  [
    /^expected (.+) of at most (\d+) characters$/s,
    (what, match) => `${what} darf höchstens ${match[2]} Zeichen lang sein.`,
  ],
  [/^expected (.+) as Markdown text$/s, (what) => `${what} fehlt oder ist kein Text in Markdown.`],
  [
    /^expected (.+) as a date \(YYYY-MM-DD\)$/s,
    (what) => `${what} fehlt oder ist kein Datum der Form JJJJ-MM-TT.`,
  ],
  [/^expected (.+) to be a real date$/s, (what) => `${what} muss ein gültiges Datum sein.`],
  [
    /^expected (.+) in lowercase letters, digits and hyphens$/s,
    (what) => `${what} darf nur Kleinbuchstaben, Ziffern und Bindestriche enthalten.`,
  ],
  // A field left out is "not text" too: the schema's message is the same for both.
  [/^expected (.+) as text$/s, (what) => `${what} fehlt oder ist kein Text.`],
]

/** Messages of the content's checks that name no field's description, and their German. */
const FIXED_FORMS: [RegExp, (match: RegExpExecArray) => string][] = [
  [
    /^expected a link to an existing page; nothing is published at (.+)$/s,
    (match) => `Der Link führt zu keiner Seite: Unter ${match[1]} ist nichts veröffentlicht.`,
  ],
  [
    /^expected a link to an existing document; nothing is published at (.+)$/s,
    (match) => `Der Link führt zu keinem Dokument: Unter ${match[1]} ist nichts veröffentlicht.`,
  ],
  [
    /^expected an existing image; there is no (.+)$/s,
    (match) => `Das Bild ${match[1]} gibt es nicht.`,
  ],
  [
    /^expected an existing \S+ entry; there is no "(.+)"$/s,
    (match) => `Den Eintrag „${match[1]}“ gibt es nicht.`,
  ],
  [
    /^expected a unique address; (.+) already publishes (.+)$/s,
    (match) => `Die Adresse ${match[2]} ist schon vergeben: ${match[1]} veröffentlicht dort.`,
  ],
  [
    /^expected a link starting with "\/", "https:\/\/", "mailto:" or "tel:"$/,
    () => 'Ein Link beginnt mit „/“, „https://“, „mailto:“ oder „tel:“.',
  ],
  [
    /^expected an image under \/images\/ \(svg, png, jpg, webp or avif\)$/,
    () => 'Erwartet wird ein Bild unter /images/ (SVG, PNG, JPG, WebP oder AVIF).',
  ],
  [/^expected an e-mail address$/, () => 'Erwartet wird eine E-Mail-Adresse.'],
  [
    /^unknown fields? (.+): expected only the fields of this content type$/s,
    (match) => `Unbekannte Angabe ${match[1]}: Erlaubt sind nur die Felder dieses Inhaltstyps.`,
  ],
  [
    /^expected valid YAML(?: \(line (\d+)\))?: (.*)$/s,
    (match) =>
      `Die Datei ist kein gültiges YAML${match[1] ? ` (Zeile ${match[1]})` : ''}: ${match[2]}`,
  ],
  [/^expected this file; it is missing$/, () => 'Diese Datei fehlt.'],
]

/** A problem's message in German, or undefined for one of no known form. */
export function germanProblemMessage(message: string): string | undefined {
  for (const [pattern, german] of FIELD_FORMS) {
    const match = pattern.exec(message)
    const what = match ? germanDescription(hintOf(match[1] ?? '')) : undefined
    if (match && what) return german(what, match)
  }
  for (const [pattern, german] of FIXED_FORMS) {
    const match = pattern.exec(message)
    if (match) return german(match)
  }
  return undefined
}

/** A field's dotted path by its German labels: `sections.2.heading` → "Abschnitte › Nr. 3 › Überschrift". */
export function germanFieldPath(field: string): string {
  return field
    .split('.')
    .map((segment) =>
      /^\d+$/.test(segment) ? `Nr. ${Number(segment) + 1}` : fieldLabel(segment, 'de'),
    )
    .join(' › ')
}

/** One problem as the editor reads it, with its file below the content root. */
function germanProblem(problem: ContentProblem): string {
  const file = `${CMS_CONTENT_ROOT}/${problem.file}`
  const said =
    germanProblemMessage(problem.message) ??
    `Die Prüfung meldet auf Englisch: „${problem.message}“.`
  return problem.field
    ? `${file}, Feld „${germanFieldPath(problem.field)}“: ${said}`
    : `${file}: ${said}`
}

/** A size as people read it, in their language: "5.0 MB", "5,0 MB". */
export const megabytes = (bytes: number, language: LabelLanguage) =>
  `${(bytes / 1024 / 1024).toLocaleString(language === 'de' ? 'de-DE' : 'en-GB', {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  })} MB`

/** Everything the backend says, in one language. */
export interface CmsTexts {
  notAnImage(name: string): string
  encoding(name: string, encoding: string): string
  noContent(name: string): string
  drawingTooLarge(name: string, size: string, max: string): string
  /** `problem` is the drawing check's rest of a sentence that begins with the name (./svg.ts). */
  badDrawing(name: string, problem: string): string
  imageTooLarge(name: string, size: string, max: string): string
  unreadable(name: string): string
  wrongFormat(name: string, format: string, extension: string): string
  generatedFolder(path: string, dir: string): string
  changeBreaks(problems: string): string
  deletionBreaks(problems: string): string
  imageDeletionBreaks(problems: string): string
  outsideFolder(reason: string): string
  storeFailed(code: string | undefined): string
  problem(problem: ContentProblem): string
}

export const CMS_TEXTS: Record<LabelLanguage, CmsTexts> = {
  en: {
    notAnImage: (name) => `${name} is not an image: expected svg, png, jpg, webp or avif`,
    encoding: (name, encoding) => `${name} is sent in the encoding ${encoding}: expected base64`,
    noContent: (name) => `${name} has no content: expected the image as a base64 text`,
    drawingTooLarge: (name, size, max) =>
      `${name} is ${size}: drawings (SVG) may be ${max} at most`,
    badDrawing: (name, problem) => `${name} ${problem}`,
    imageTooLarge: (name, size, max) => `${name} is ${size}: images may be ${max} at most`,
    unreadable: (name) => `${name} is not an image: its content is no picture sharp can read`,
    wrongFormat: (name, format, extension) =>
      `${name} holds a ${format} image: name it .${extension}`,
    generatedFolder: (path, dir) =>
      `${path} is in public${dir}/, where the build writes files of its own: choose another folder for the image`,
    changeBreaks: (problems) =>
      `This change would break the content, so nothing was saved. ${problems}`,
    deletionBreaks: (problems) =>
      `Deleting this entry would break the content, so nothing was saved. ${problems}`,
    imageDeletionBreaks: (problems) =>
      `Deleting this image would break the content, so nothing was deleted. ${problems}`,
    outsideFolder: (reason) => `Refused: ${reason}.`,
    storeFailed: (code) => `the content store could not answer${code ? ` (${code})` : ''}`,
    problem: (problem) => formatProblem(problem, CMS_CONTENT_ROOT),
  },
  de: {
    notAnImage: (name) => `${name} ist kein Bild: Erwartet wird SVG, PNG, JPG, WebP oder AVIF.`,
    encoding: (name, encoding) =>
      `${name} wurde in der Kodierung ${encoding} gesendet: Erwartet wird Base64.`,
    noContent: (name) => `${name} hat keinen Inhalt: Erwartet wird das Bild als Base64-Text.`,
    drawingTooLarge: (name, size, max) =>
      `${name} ist ${size} groß: Zeichnungen (SVG) dürfen höchstens ${max} groß sein.`,
    // The drawing check's reasons are many and technical: said in English, in a German frame.
    badDrawing: (name, problem) =>
      `${name} wurde nicht angenommen: Die Zeichnung (SVG) enthält etwas, das eine Zeichnung auf der Website nicht haben darf, oder ist zu aufwendig. Die Prüfung meldet auf Englisch: „${name} ${problem}“.`,
    imageTooLarge: (name, size, max) =>
      `${name} ist ${size} groß: Bilder dürfen höchstens ${max} groß sein.`,
    unreadable: (name) => `${name} ist kein Bild: Sein Inhalt lässt sich nicht als Bild lesen.`,
    wrongFormat: (name, format, extension) =>
      `${name} enthält ein Bild im Format ${format.toUpperCase()}: Benennen Sie die Datei mit der Endung .${extension}.`,
    generatedFolder: (path, dir) =>
      `${path} liegt in public${dir}/, wo der Build eigene Dateien ablegt: Wählen Sie für das Bild einen anderen Ordner.`,
    changeBreaks: (problems) =>
      `Diese Änderung würde Inhalte der Website beschädigen, deshalb wurde nichts gespeichert. ${problems}`,
    deletionBreaks: (problems) =>
      `Das Löschen dieses Eintrags würde Inhalte der Website beschädigen, deshalb wurde nichts gelöscht. ${problems}`,
    imageDeletionBreaks: (problems) =>
      `Das Löschen dieses Bildes würde Inhalte der Website beschädigen, deshalb wurde nichts gelöscht. ${problems}`,
    outsideFolder: (reason) => `Abgelehnt: ${reason}.`,
    storeFailed: (code) =>
      `Der Inhaltsspeicher hat nicht geantwortet${code ? ` (${code})` : ''}. Bitte versuchen Sie es erneut.`,
    problem: germanProblem,
  },
}

/** The problems a change would add, as one text: each with its file and field. */
export const problemsIn = (problems: readonly ContentProblem[], texts: CmsTexts) =>
  problems.map((problem) => texts.problem(problem)).join(' · ')
