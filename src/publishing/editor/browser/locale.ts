/**
 * Decap's own words in the editor, as the service's screens say them. Decap ships a German
 * locale, but it lacks the notes panel (English there), calls an entry a "Beitrag" (a post),
 * calls Ready "Abgeschlossen" where the page of changes says "freigegeben" and has spelling
 * mistakes; and in both languages it puts "Failed to persist entry:" before the service's own
 * sentence. Here are the phrases that differ from Decap's, merged over its locale of the same
 * language before the CMS starts (`CMS.registerLocale` replaces a locale whole; Decap fills
 * what a locale lacks from English, so German gets every key it shows).
 *
 * The workflow's names are those of the page of changes (`../../pages/texts.ts`,
 * `MANAGE_TEXTS.de.statuses`), as a column's or a menu's name begins: with a capital. The
 * notes are the draft's comments there. A failed action is said as what did not happen
 * ("Nicht gespeichert: …") before the service's sentence, which says why.
 */
import { startWordFixes } from './word-fixes'

/** A locale's phrases: Decap's keys, nested, each a text with `%{…}` for values. */
export interface Phrases {
  [key: string]: string | Phrases
}

/** The workflow's three statuses as the page of changes names them, per language. */
export const WORKFLOW_WORDS = {
  en: { draft: 'Draft', inReview: 'In review', ready: 'Ready' },
  de: { draft: 'Entwurf', inReview: 'In Prüfung', ready: 'Freigegeben, bereit' },
} as const

const DE_WORKFLOW = WORKFLOW_WORDS.de

/** What a failed action did not do, before the service's sentence saying why. */
const DE_TOASTS: Phrases = {
  onFailToLoadEntries: 'Eintrag nicht geladen: %{details}',
  onFailToLoadDeployPreview: 'Vorschau nicht geladen: %{details}',
  onFailToPersist: 'Nicht gespeichert: %{details}',
  onFailToDelete: 'Nicht gelöscht: %{details}',
  onFailToUpdateStatus: 'Status nicht geändert: %{details}',
  missingRequiredField: 'Ein Pflichtfeld ist noch leer. Bitte füllen Sie es vor dem Speichern aus.',
  entrySaved: 'Eintrag gespeichert',
  entryPublished: 'Eintrag veröffentlicht',
  entryUnpublished: 'Veröffentlichung zurückgezogen',
  onFailToPublishEntry: 'Nicht veröffentlicht: %{details}',
  onFailToUnpublishEntry: 'Veröffentlichung nicht zurückgezogen: %{details}',
  entryUpdated: 'Status geändert',
  onDeleteUnpublishedChanges: 'Unveröffentlichte Änderungen verworfen',
  noteAdded: 'Kommentar hinzugefügt',
  onFailToAddNote: 'Kommentar nicht hinzugefügt: %{details}',
  noteUpdated: 'Kommentar geändert',
  onFailToUpdateNote: 'Kommentar nicht geändert: %{details}',
  noteDeleted: 'Kommentar gelöscht',
  onFailToDeleteNote: 'Kommentar nicht gelöscht: %{details}',
  noteResolved: 'Kommentar als erledigt markiert',
  noteReopened: 'Kommentar wieder geöffnet',
  onFailToToggleNote: 'Kommentar nicht geändert: %{details}',
  onLoggedOut:
    'Sie wurden abgemeldet. Bitte sichern Sie Ihre Eingaben und melden Sie sich erneut an.',
  onBackendDown: 'Der Redaktionsdienst ist gerade nicht erreichbar. Mehr dazu: %{details}',
}

/** The editor's toolbar: saving, the status menu, publishing, deleting. */
const DE_TOOLBAR: Phrases = {
  publishing: 'Wird veröffentlicht …',
  publish: 'Veröffentlichen',
  published: 'Veröffentlicht',
  unpublish: 'Veröffentlichung zurückziehen',
  duplicate: 'Duplizieren',
  unpublishing: 'Veröffentlichung wird zurückgezogen …',
  publishAndCreateNew: 'Veröffentlichen und neuen Eintrag anlegen',
  publishAndDuplicate: 'Veröffentlichen und duplizieren',
  deleteUnpublishedChanges: 'Unveröffentlichte Änderungen verwerfen',
  deleteUnpublishedEntry: 'Unveröffentlichten Eintrag verwerfen',
  deletePublishedEntry: 'Veröffentlichten Eintrag löschen',
  deleteEntry: 'Eintrag löschen',
  saving: 'Wird gespeichert …',
  save: 'Speichern',
  statusInfoTooltipDraft: `Dieser Eintrag ist ein Entwurf. Wenn er fertig ist, setzen Sie den Status auf „${DE_WORKFLOW.inReview}“.`,
  statusInfoTooltipInReview: `Dieser Eintrag ist in Prüfung; Sie müssen nichts weiter tun. Eine gespeicherte Änderung setzt ihn auf „${DE_WORKFLOW.draft}“ zurück.`,
  deleting: 'Wird gelöscht …',
  updating: 'Wird geändert …',
  status: 'Status: %{status}',
  backCollection: 'Zurück zur Übersicht: %{collectionLabel}',
  unsavedChanges: 'Ungespeicherte Änderungen',
  changesSaved: 'Änderungen gespeichert',
  draft: DE_WORKFLOW.draft,
  inReview: DE_WORKFLOW.inReview,
  ready: DE_WORKFLOW.ready,
  publishNow: 'Jetzt veröffentlichen',
  deployPreviewPendingButtonLabel: 'Vorschau prüfen',
  deployPreviewButtonLabel: 'Vorschau ansehen',
  deployButtonLabel: 'Auf der Website ansehen',
}

/** The widgets' words: Markdown, images, files, dates, lists and groups of fields. */
const DE_WIDGETS: Phrases = {
  markdown: {
    bold: 'Fett',
    italic: 'Kursiv',
    strikethrough: 'Durchgestrichen',
    code: 'Code',
    link: 'Link',
    linkPrompt: 'Adresse des Links eingeben',
    headings: 'Überschriften',
    quote: 'Zitat',
    bulletedList: 'Aufzählung',
    numberedList: 'Nummerierte Liste',
    addComponent: 'Element einfügen',
    richText: 'Formatierter Text',
    markdown: 'Markdown',
    toggleMode: { rich: 'Zum formatierten Text wechseln', markdown: 'Zu Markdown wechseln' },
  },
  image: {
    choose: 'Bild wählen',
    chooseMultiple: 'Bilder wählen',
    chooseUrl: 'Von einer Adresse einfügen',
    replaceUrl: 'Durch eine Adresse ersetzen',
    promptUrl: 'Adresse des Bildes eingeben',
    chooseDifferent: 'Anderes Bild wählen',
    addMore: 'Weitere Bilder hinzufügen',
    remove: 'Bild entfernen',
    removeAll: 'Alle Bilder entfernen',
  },
  file: {
    choose: 'Datei wählen',
    chooseUrl: 'Von einer Adresse einfügen',
    chooseMultiple: 'Dateien wählen',
    replaceUrl: 'Durch eine Adresse ersetzen',
    promptUrl: 'Adresse der Datei eingeben',
    chooseDifferent: 'Andere Datei wählen',
    addMore: 'Weitere Dateien hinzufügen',
    remove: 'Datei entfernen',
    removeAll: 'Alle Dateien entfernen',
  },
  unknownControl: { noControl: 'Kein Eingabefeld für das Widget „%{widget}“.' },
  unknownPreview: { noPreview: 'Keine Vorschau für das Widget „%{widget}“.' },
  datetime: { now: 'Jetzt', clear: 'Leeren', setToNow: '%{fieldLabel} auf jetzt setzen' },
  // Decap writes the item's label in lower case; ./word-fixes.ts gives German nouns back
  // their capital ("Abschnitt hinzufügen").
  list: { add: '%{item} hinzufügen', addType: '%{item} hinzufügen' },
  object: { expand: 'Aufklappen', collapse: 'Zuklappen' },
}

/** The editor of one entry: its fields' checks, its languages, its panes, its comments. */
const DE_EDITOR: Phrases = {
  editorControl: { field: { optional: 'optional', widgetLabel: 'Feld %{widgetLabel}' } },
  editorControlPane: {
    widget: {
      required: '%{fieldLabel} ist ein Pflichtfeld.',
      // The pattern's message says what is expected ("Höchstens 120 Zeichen").
      regexPattern: '%{fieldLabel}: %{pattern}.',
      processing: '%{fieldLabel} wird verarbeitet.',
      range: '%{fieldLabel} muss zwischen %{minValue} und %{maxValue} liegen.',
      min: '%{fieldLabel} muss mindestens %{minValue} sein.',
      max: '%{fieldLabel} darf höchstens %{maxValue} sein.',
      rangeCount: '%{fieldLabel} muss %{minCount} bis %{maxCount} Einträge haben.',
      rangeCountExact: '%{fieldLabel} muss genau %{count} Einträge haben.',
      rangeMin: '%{fieldLabel} muss mindestens %{minCount} Einträge haben.',
      rangeMax: '%{fieldLabel} darf höchstens %{maxCount} Einträge haben.',
      invalidPath: '„%{path}“ ist kein gültiger Pfad',
      pathExists: 'Den Pfad „%{path}“ gibt es schon',
    },
    i18n: {
      writingInLocale: 'Sprache: %{locale}',
      copyFromLocale: 'Aus einer anderen Sprache übernehmen',
      copyFromLocaleConfirm:
        'Die Inhalte der Sprache %{locale} übernehmen?\nAlles, was hier steht, wird überschrieben.',
    },
  },
  editor: {
    onLeavePage: 'Möchten Sie diese Seite wirklich verlassen?',
    onUpdatingWithUnsavedChanges:
      'Sie haben ungespeicherte Änderungen. Bitte speichern Sie, bevor Sie den Status ändern.',
    onPublishingNotReady: `Bitte setzen Sie den Status vor dem Veröffentlichen auf „${DE_WORKFLOW.ready}“.`,
    onPublishingWithUnsavedChanges:
      'Sie haben ungespeicherte Änderungen. Bitte speichern Sie vor dem Veröffentlichen.',
    onPublishing: 'Möchten Sie diesen Eintrag veröffentlichen?',
    onUnpublishing: 'Möchten Sie die Veröffentlichung dieses Eintrags zurückziehen?',
    onDeleteWithUnsavedChanges:
      'Möchten Sie diesen veröffentlichten Eintrag löschen und Ihre ungespeicherten Änderungen verwerfen?',
    onDeletePublishedEntry: 'Möchten Sie diesen veröffentlichten Eintrag löschen?',
    onDeleteUnpublishedChangesWithUnsavedChanges:
      'Damit verwerfen Sie alle unveröffentlichten Änderungen dieses Eintrags und Ihre ungespeicherten Änderungen. Trotzdem verwerfen?',
    onDeleteUnpublishedChanges:
      'Alle unveröffentlichten Änderungen dieses Eintrags werden verworfen. Trotzdem verwerfen?',
    loadingEntry: 'Eintrag wird geladen …',
    confirmLoadBackup:
      'Für diesen Eintrag gibt es eine lokale Sicherung. Möchten Sie sie verwenden?',
  },
  editorInterface: {
    toggleI18n: 'Übersetzungen',
    togglePreview: 'Vorschau',
    toggleScrollSync: 'Synchron scrollen',
    toggleNotes: 'Kommentare',
  },
  // Decap's notes are the draft's comments: a reviewer's word to the authors, kept on record.
  editorNotesPane: {
    title: 'Kommentare',
    emptyState: 'Noch keine Kommentare. Schreiben Sie unten den ersten.',
    addNote: 'Kommentar hinzufügen',
    addPlaceholder: 'Kommentar schreiben …',
    editPlaceholder: 'Kommentar bearbeiten …',
    save: 'Speichern',
    cancel: 'Abbrechen',
    edit: 'Bearbeiten',
    delete: 'Löschen',
    resolve: 'Als erledigt markieren',
    unresolve: 'Wieder öffnen',
    confirmDelete: 'Möchten Sie diesen Kommentar löschen?',
    shortcut: 'Tipp: Mit Strg+Enter fügen Sie den Kommentar hinzu.',
  },
  editorToolbar: DE_TOOLBAR,
  editorWidgets: DE_WIDGETS,
}

/** The German phrases that differ from Decap's German (or that Decap's German lacks). */
export const DE_PHRASES: Phrases = {
  auth: { login: 'Anmelden', loggingIn: 'Anmeldung läuft …' },
  app: {
    header: { content: 'Inhalt', workflow: 'Arbeitsablauf', media: 'Medien', quickAdd: 'Neu' },
    app: {
      errorHeader: 'Die Einstellungen des Editors konnten nicht geladen werden',
      configErrors: 'Fehler in den Einstellungen',
      checkConfigYml: 'Bitte melden Sie das der Administration.',
      loadingConfig: 'Einstellungen werden geladen …',
      waitingBackend: 'Warten auf den Redaktionsdienst …',
    },
    notFoundPage: { header: 'Nicht gefunden' },
  },
  collection: {
    sidebar: {
      collections: 'Inhaltstypen',
      allCollections: 'Alle Inhaltstypen',
      searchAll: 'Alles durchsuchen',
      searchIn: 'Suchen in',
    },
    collectionTop: {
      sortBy: 'Sortieren nach',
      viewAs: 'Anzeigen als',
      viewAsList: 'Als Liste anzeigen',
      viewAsGrid: 'Als Raster anzeigen',
      newButton: '＋ %{collectionLabel}',
      newButtonAriaLabel: 'Neu anlegen: %{collectionLabel}',
      ascending: 'Aufsteigend',
      descending: 'Absteigend',
      searchResults: 'Suchergebnisse für „%{searchTerm}“',
      searchResultsInCollection: 'Suchergebnisse für „%{searchTerm}“ in %{collection}',
      filterBy: 'Filtern nach',
      groupBy: 'Gruppieren nach',
    },
    entries: {
      loadingEntries: 'Einträge werden geladen …',
      cachingEntries: 'Einträge werden zwischengespeichert …',
      longerLoading: 'Das kann einige Minuten dauern.',
      noEntries: 'Keine Einträge',
      unpublishedHeader: 'Unveröffentlichte Einträge',
    },
    groups: { other: 'Andere', negateLabel: 'Nicht %{label}' },
    defaultFields: { author: { label: 'Geschrieben von' }, updatedOn: { label: 'Geändert am' } },
  },
  editor: DE_EDITOR,
  mediaLibrary: {
    mediaLibraryCard: {
      draft: 'Entwurf',
      copy: 'Kopieren',
      copyUrl: 'Adresse kopieren',
      copyPath: 'Pfad kopieren',
      copyName: 'Namen kopieren',
      copied: 'Kopiert',
    },
    mediaLibrary: {
      onDelete: 'Möchten Sie die ausgewählten Medien löschen?',
      fileTooLarge: 'Die Datei ist zu groß.\nErlaubt sind Dateien bis %{size} kB.',
    },
    mediaLibraryModal: {
      loading: 'Wird geladen …',
      close: 'Schließen',
      noResults: 'Keine Ergebnisse.',
      noAssetsFound: 'Keine Medien gefunden.',
      noImagesFound: 'Keine Bilder gefunden.',
      private: 'Privat ',
      images: 'Bilder',
      mediaAssets: 'Medien',
      search: 'Suchen …',
      uploading: 'Wird hochgeladen …',
      upload: 'Hochladen',
      download: 'Herunterladen',
      deleting: 'Wird gelöscht …',
      deleteSelected: 'Auswahl löschen',
      chooseSelected: 'Auswahl übernehmen',
    },
  },
  ui: {
    default: { goBackToSite: 'Zurück zur Website' },
    errorBoundary: {
      title: 'Fehler',
      details: 'Ein Fehler ist aufgetreten. Bitte ',
      reportIt: 'melden Sie ihn auf GitHub.',
      detailsHeading: 'Einzelheiten',
      privacyWarning:
        'Beim Melden werden die Fehlermeldung und Daten zur Fehlersuche eingetragen.\nBitte prüfen Sie die Angaben und entfernen Sie vertrauliche Daten.',
      recoveredEntry: {
        heading: 'Wiederhergestellter Eintrag',
        warning: 'Bitte kopieren Sie ihn an einen sicheren Ort, bevor Sie die Seite verlassen!',
        copyButtonLabel: 'In die Zwischenablage kopieren',
      },
    },
    settingsDropdown: { logOut: 'Abmelden', account: 'Menü Ihres Kontos' },
    toast: DE_TOASTS,
  },
  workflow: {
    workflow: {
      loading: 'Arbeitsablauf wird geladen …',
      workflowHeading: 'Redaktioneller Arbeitsablauf',
      newPost: 'Neuer Eintrag',
      description:
        '%{smart_count} Eintrag wartet auf Prüfung, %{readyCount} bereit zur Veröffentlichung. |||| %{smart_count} Einträge warten auf Prüfung, %{readyCount} bereit zur Veröffentlichung.',
      dateFormat: 'D. MMMM',
    },
    workflowCard: {
      lastChange: '%{date} von %{author}',
      lastChangeNoAuthor: '%{date}',
      lastChangeNoDate: 'von %{author}',
      deleteChanges: 'Änderungen verwerfen',
      deleteNewEntry: 'Neuen Eintrag verwerfen',
      publishChanges: 'Änderungen veröffentlichen',
      publishNewEntry: 'Neuen Eintrag veröffentlichen',
    },
    workflowList: {
      onDeleteEntry: 'Möchten Sie diesen Entwurf verwerfen?',
      onPublishingNotReadyEntry: `Veröffentlicht werden nur Einträge im Status „${DE_WORKFLOW.ready}“: Eine Prüferin oder ein Prüfer gibt sie zuerst frei.`,
      onPublishEntry: 'Möchten Sie diesen Eintrag veröffentlichen?',
      draftHeader: DE_WORKFLOW.draft,
      inReviewHeader: DE_WORKFLOW.inReview,
      readyHeader: DE_WORKFLOW.ready,
      currentEntries: '%{smart_count} Eintrag |||| %{smart_count} Einträge',
    },
  },
}

/** The English phrases that differ from Decap's: comments, and what a failed action did not do. */
export const EN_PHRASES: Phrases = {
  editor: {
    editorInterface: { toggleNotes: 'Comments' },
    editorNotesPane: {
      title: 'Comments',
      emptyState: 'No comments yet. Write the first one below.',
      addNote: 'Add comment',
      addPlaceholder: 'Write a comment …',
      editPlaceholder: 'Edit your comment …',
      confirmDelete: 'Are you sure you want to delete this comment?',
      shortcut: 'Tip: press Ctrl+Enter to add your comment.',
    },
  },
  ui: {
    toast: {
      onFailToLoadEntries: 'Entry not loaded: %{details}',
      onFailToLoadDeployPreview: 'Preview not loaded: %{details}',
      onFailToPersist: 'Not saved: %{details}',
      onFailToDelete: 'Not deleted: %{details}',
      onFailToUpdateStatus: 'Status not changed: %{details}',
      onFailToPublishEntry: 'Not published: %{details}',
      onFailToUnpublishEntry: 'Not unpublished: %{details}',
      noteAdded: 'Comment added',
      onFailToAddNote: 'Comment not added: %{details}',
      noteUpdated: 'Comment changed',
      onFailToUpdateNote: 'Comment not changed: %{details}',
      noteDeleted: 'Comment deleted',
      onFailToDeleteNote: 'Comment not deleted: %{details}',
      noteResolved: 'Comment marked as done',
      noteReopened: 'Comment reopened',
      onFailToToggleNote: 'Comment not changed: %{details}',
    },
  },
}

/** Our phrases of each language the editor speaks. */
export const PHRASES: Record<'en' | 'de', Phrases> = { en: EN_PHRASES, de: DE_PHRASES }

const isPhrases = (value: unknown): value is Phrases =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** `base` with `ours` over it, key by key (neither is changed). */
export function mergePhrases(base: Phrases, ours: Phrases): Phrases {
  const merged: Phrases = { ...base }
  for (const [key, value] of Object.entries(ours)) {
    const under = merged[key]
    merged[key] = isPhrases(value) && isPhrases(under) ? mergePhrases(under, value) : value
  }
  return merged
}

/** The few parts of Decap's registry this needs. */
interface LocaleRegistry {
  getLocale(name: string): Phrases | undefined
  registerLocale(name: string, phrases: Phrases): void
}

/**
 * Registers our words over Decap's in each language, and has the words Decap writes outside
 * its locale put right on the page (./word-fixes.ts) in the editor's language (`config.locale`).
 * Called once, before the CMS starts.
 */
export function speakOurWords(win: Window, config: unknown): MutationObserver {
  // Decap's registry, as its bundle puts it on the window (the CMS's own typing is elsewhere).
  const cms = (win as unknown as { CMS: LocaleRegistry }).CMS
  for (const [language, ours] of Object.entries(PHRASES)) {
    cms.registerLocale(language, mergePhrases(cms.getLocale(language) ?? {}, ours))
  }
  const locale = isPhrases(config) && typeof config.locale === 'string' ? config.locale : 'en'
  return startWordFixes(win.document, config, locale === 'de' ? 'de' : 'en')
}
