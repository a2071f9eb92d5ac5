/**
 * What the editor's actions say, in the person's language (the editor speaks English and
 * German): about the drafts made for a deletion or an upload, and the refusals of the editor's
 * own actions. The refusals of the service's parts below the editor (the workflow, git, the
 * build) are in the table of `../errors.ts`; those of requests no editor sends (a malformed
 * path, an unknown action) are the protocol's and stay English, under a German sentence where
 * an editor might still see one.
 */
import type { EditorLanguage } from '../people/roles'

/** What the editor says about drafts and refuses, in each language. */
export const TEXTS = {
  en: {
    whichFiles: 'Which files? Expected the paths of one entry or one image.',
    oneEntry: 'One entry or one image at a time, please: each deletion is a draft of its own.',
    settingsStay: 'The settings are not deleted: change them instead.',
    refused: 'the change was refused',
    notLive: (path: string) => `${path} is not on the live site, so there is nothing to delete.`,
    notAnImage: (path: string) =>
      `${path} is no image the site takes (SVG, PNG, JPEG, WebP or AVIF in public/images).`,
    draftExists: (id: string) =>
      `There is a draft of ${id} already: publish or discard it first (Workflow, or the page of changes).`,
    deletionComment: (paths: string[]) =>
      `Asks for deletion: this draft removes ${paths.join(', ')} from the site.`,
    deletionWaits: (id: string) =>
      `Not deleted yet: every change goes through review. The deletion of ${id} is a draft now, in review on the Workflow board; it goes live when a reviewer has approved it and a publisher publishes it (at once or at a set time).`,
    uploadWaits: (path: string) =>
      `Uploaded as a draft: every change goes through review. ${path} is in your media library now, and in review on the page of changes (/changes); it goes live when a reviewer has approved it and a publisher publishes it.`,
    liveNameTaken: (path: string) =>
      `${path} exists on the live site already: give the new image a name of its own`,
    workflowOnly:
      'Every change goes through review here: save it as a draft (the editorial workflow).',
    entryFiles: 'expected the entry’s files',
    notOwnFile: (path: string, id: string) =>
      `${path} is not a file of ${id}: a draft changes its own entry only`,
    commentsKept: 'Comments stay as they were written: they are part of the record. Add another.',
  },
  de: {
    whichFiles: 'Welche Dateien? Erwartet: die Pfade eines Eintrags oder eines Bildes.',
    oneEntry:
      'Bitte einen Eintrag oder ein Bild nach dem anderen: Jede Löschung ist ein eigener Entwurf.',
    settingsStay: 'Die Einstellungen werden nicht gelöscht: Ändern Sie sie stattdessen.',
    refused: 'die Änderung wurde abgelehnt',
    notLive: (path: string) =>
      `${path} ist nicht auf der veröffentlichten Website, es gibt nichts zu löschen.`,
    notAnImage: (path: string) =>
      `${path} ist kein Bild, das die Website nimmt (SVG, PNG, JPEG, WebP oder AVIF in public/images).`,
    draftExists: (id: string) =>
      `Es gibt schon einen Entwurf von ${id}: Veröffentlichen oder verwerfen Sie ihn zuerst (Arbeitsablauf oder Seite der Änderungen).`,
    deletionComment: (paths: string[]) =>
      `Bittet um Löschung: Dieser Entwurf entfernt ${paths.join(', ')} von der Website.`,
    deletionWaits: (id: string) =>
      `Noch nicht gelöscht: Jede Änderung wird geprüft. Die Löschung von ${id} ist jetzt ein Entwurf, zur Prüfung im Arbeitsablauf; sie wird wirksam, wenn sie geprüft, freigegeben und veröffentlicht ist (sofort oder zu einem festen Zeitpunkt).`,
    uploadWaits: (path: string) =>
      `Als Entwurf hochgeladen: Jede Änderung wird geprüft. ${path} ist jetzt in Ihrer Mediathek und zur Prüfung auf der Seite der Änderungen (/changes); es wird wirksam, wenn es geprüft, freigegeben und veröffentlicht ist.`,
    liveNameTaken: (path: string) =>
      `${path} gibt es schon auf der veröffentlichten Website: Geben Sie dem neuen Bild einen eigenen Namen.`,
    workflowOnly:
      'Jede Änderung wird hier geprüft: Speichern Sie sie als Entwurf (redaktioneller Arbeitsablauf).',
    entryFiles: 'Die Dateien des Eintrags fehlen in der Anfrage.',
    notOwnFile: (path: string, id: string) =>
      `${path} gehört nicht zu ${id}: Ein Entwurf ändert nur seinen eigenen Eintrag.`,
    commentsKept:
      'Kommentare bleiben, wie sie geschrieben wurden: Sie gehören zum Prüfpfad. Fügen Sie einen weiteren hinzu.',
  },
} as const satisfies Record<EditorLanguage, unknown>

export type EditorTexts = (typeof TEXTS)[EditorLanguage]
