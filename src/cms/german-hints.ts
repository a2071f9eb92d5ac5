/**
 * The German words of the hints under the editor's fields. A schema describes each field in
 * English (`text('the page title', 120)` gives the hint "The page title; at most 120
 * characters."); here each such description has its German one, by the English words, and
 * `germanHint` (./german.ts) puts it in the same sentence in German. A description without a
 * German one keeps its English hint: the unit tests list those, so none goes unnoticed.
 */

/** German descriptions of fields, by the English description as the hint begins with it. */
export const GERMAN_HINTS: Readonly<Record<string, string>> = Object.freeze({
  // Pages and their sections
  'The page title': 'Der Seitentitel',
  // Addresses (their hints are written in both languages; these name them in a refusal)
  "The page's address (its slug)": 'Die Adresse der Seite (ihr Slug)',
  "The post's address (its slug)": 'Die Adresse des Beitrags (ihr Slug)',
  "The category's address (its slug)": 'Die Adresse der Kategorie (ihr Slug)',
  'The meta description': 'Die Beschreibung für Suchmaschinen (Meta-Beschreibung)',
  'The introduction': 'Die Einleitung',
  "The language the page's text is written in, where it is not the site's language (es for a page for customers in Spain)":
    'Die Sprache, in der der Text der Seite geschrieben ist, wenn es nicht die Sprache der Website ist (etwa „es“ für eine Seite für Kundinnen und Kunden in Spanien)',
  'The hero heading': 'Die Überschrift des Kopfbereichs',
  'The hero text': 'Der Text des Kopfbereichs',
  'What the image shows, for people who cannot see it; written in each language. Uploads: svg, png, jpg, webp or avif, at most 5 MB (drawings 1 MB); the build makes the sizes and formats pages need':
    'Was das Bild zeigt, für Menschen, die es nicht sehen können; in jeder Sprache eigens geschrieben. Hochladen: SVG, PNG, JPG, WebP oder AVIF, höchstens 5 MB (Zeichnungen 1 MB); die Größen und Formate, die die Seiten brauchen, erzeugt der Build selbst',
  'A link label': 'Der Text eines Links',
  'The section heading': 'Die Überschrift des Abschnitts',
  'The section text': 'Der Text des Abschnitts',
  'The section introduction': 'Die Einleitung des Abschnitts',
  'A feature title': 'Der Titel eines Merkmals',
  'A feature text': 'Der Text eines Merkmals',
  'A card title': 'Der Titel einer Karte',
  'A card text': 'Der Text einer Karte',
  'The link label': 'Der Text des Links',
  'A question': 'Eine Frage',
  'The answer': 'Die Antwort',
  'The call-to-action heading': 'Die Überschrift des Handlungsaufrufs',
  'The call-to-action text': 'Der Text des Handlungsaufrufs',
  'The quotation': 'Das Zitat',
  'The person quoted': 'Die zitierte Person',
  "The person's role": 'Die Funktion der Person',
  'A partner name': 'Der Name eines Partners',
  'The table caption': 'Die Beschriftung der Tabelle',
  'A column heading': 'Eine Spaltenüberschrift',
  'A table cell': 'Eine Tabellenzelle',
  'The document name': 'Der Name des Dokuments',
  'The document description': 'Die Beschreibung des Dokuments',
  // Services, case studies, support and customer information
  'The one-line summary for the services list':
    'Die Zusammenfassung in einer Zeile für die Liste der Leistungen',
  'What the service is': 'Was die Leistung ist',
  'An audience': 'Eine Zielgruppe',
  'A step title': 'Der Titel eines Schritts',
  'A step text': 'Der Text eines Schritts',
  'The regulatory notes': 'Die regulatorischen Hinweise',
  'The partner name': 'Der Name des Partners',
  'The one-line summary for the list': 'Die Zusammenfassung in einer Zeile für die Liste',
  'The starting point': 'Die Ausgangslage',
  'The solution': 'Die Lösung',
  'The support category (its file name under support-categories/)':
    'Die Support-Kategorie (ihr Dateiname unter support-categories/)',
  'What the bank provides behind the partner': 'Was die Bank hinter dem Partner leistet',
  'Where to get everyday help': 'Wo es Hilfe im Alltag gibt',
  'How to complain': 'Wie man sich beschwert',
  'How to reach the bank': 'Wie man die Bank erreicht',
  'The country of residence': 'Das Wohnsitzland',
  'The IBAN type': 'Die Art der IBAN',
  'The document title': 'Der Titel des Dokuments',
  'The document summary': 'Die Zusammenfassung des Dokuments',
  'The document text': 'Der Text des Dokuments',
  // Studies, jobs, press and blog
  'The publication date': 'Das Veröffentlichungsdatum',
  'A finding': 'Ein Ergebnis',
  'The finding explained': 'Die Erläuterung des Ergebnisses',
  'The methodology': 'Die Methodik',
  'The download label': 'Der Text des Download-Links',
  'The team': 'Das Team',
  'The posting date': 'Das Datum der Ausschreibung',
  'The application deadline': 'Die Bewerbungsfrist',
  'The city': 'Der Ort',
  'The job description': 'Die Stellenbeschreibung',
  'The release date': 'Das Datum der Mitteilung',
  'The press release': 'Der Text der Pressemitteilung',
  'The post title': 'Der Titel des Beitrags',
  'The author': 'Die Autorin oder der Autor',
  'The category (its file name under blog/categories/)':
    'Die Kategorie (ihr Dateiname unter blog/categories/)',
  'The post': 'Der Text des Beitrags',
  'The English name': 'Der englische Name',
  'The German name': 'Der deutsche Name',
  'The English description': 'Die englische Beschreibung',
  'The German description': 'Die deutsche Beschreibung',
  // Forms (each text in English and in German: the sentence says which)
  'The list name (in e-mails and pages)': 'Der Name des Verteilers (in E-Mails und auf Seiten)',
  'The consent text the visitor agrees to':
    'Der Einwilligungstext, dem Besucherinnen und Besucher zustimmen',
  'The question above the topics': 'Die Frage über den Themen',
  'The topic': 'Das Thema',
  'The button label': 'Die Beschriftung der Schaltfläche',
  'The subject of the confirmation e-mail': 'Der Betreff der Bestätigungs-E-Mail',
  'The confirmation e-mail text before its link': 'Der Text der Bestätigungs-E-Mail vor dem Link',
  'The label of the confirmation link': 'Der Text des Bestätigungslinks',
  'The survey name': 'Der Name der Umfrage',
  'The question': 'Die Frage',
  'The hint under the question': 'Der Hinweis unter der Frage',
  'The meaning of the lowest value': 'Die Bedeutung des niedrigsten Werts',
  'The meaning of the highest value': 'Die Bedeutung des höchsten Werts',
  'The date of the last change': 'Das Datum der letzten Änderung',
  'The legal text': 'Der Rechtstext',
  // The cookie banner
  'A group title': 'Der Titel einer Gruppe',
  'The banner title': 'Der Titel des Banners',
  'The banner introduction': 'Die Einleitung des Banners',
  'The "accept all" button': 'Die Schaltfläche „Alle akzeptieren“',
  'The "reject all" button': 'Die Schaltfläche „Alle ablehnen“',
  'The "settings" button': 'Die Schaltfläche „Einstellungen“',
  'The title of the settings': 'Der Titel der Einstellungen',
  'The introduction of the settings': 'Die Einleitung der Einstellungen',
  'The "save settings" button': 'Die Schaltfläche „Einstellungen speichern“',
  'The label of the button that closes the settings':
    'Die Beschriftung der Schaltfläche, die die Einstellungen schließt',
  'The name of the necessary cookies (always on)':
    'Der Name der technisch notwendigen Cookies (immer aktiv)',
  'What the necessary cookies (always on) is for, who provides it and how long its cookies last':
    'Wozu die technisch notwendigen Cookies (immer aktiv) dienen, wer sie bereitstellt und wie lange sie gespeichert bleiben',
  'The name of the analytics category': 'Der Name der Kategorie Analyse',
  'What the analytics category is for, who provides it and how long its cookies last':
    'Wozu die Kategorie Analyse dient, wer sie bereitstellt und wie lange ihre Cookies gespeichert bleiben',
  'The name of the conversion-tracking category': 'Der Name der Kategorie Conversion-Tracking',
  'What the conversion-tracking category is for, who provides it and how long its cookies last':
    'Wozu die Kategorie Conversion-Tracking dient, wer sie bereitstellt und wie lange ihre Cookies gespeichert bleiben',
  'The name of Google Analytics': 'Der Name von Google Analytics',
  'What Google Analytics is for, who provides it and how long its cookies last':
    'Wozu Google Analytics dient, wer es bereitstellt und wie lange seine Cookies gespeichert bleiben',
  'The name of Google Ads conversion tracking': 'Der Name des Conversion-Trackings von Google Ads',
  'What Google Ads conversion tracking is for, who provides it and how long its cookies last':
    'Wozu das Conversion-Tracking von Google Ads dient, wer es bereitstellt und wie lange seine Cookies gespeichert bleiben',
  'The name of the X (Twitter) pixel': 'Der Name des Pixels von X (Twitter)',
  'What the X (Twitter) pixel is for, who provides it and how long its cookies last':
    'Wozu das Pixel von X (Twitter) dient, wer es bereitstellt und wie lange seine Cookies gespeichert bleiben',
  'The name of the LinkedIn Insight Tag': 'Der Name des LinkedIn Insight Tags',
  'What the LinkedIn Insight Tag is for, who provides it and how long its cookies last':
    'Wozu das LinkedIn Insight Tag dient, wer es bereitstellt und wie lange seine Cookies gespeichert bleiben',
  'The state of the necessary cookies ("always on")':
    'Der Zustand der technisch notwendigen Cookies („immer aktiv“)',
  'The note after an opt-out ("{service}" stands for the service\'s name)':
    'Der Hinweis nach einem Widerspruch („{service}“ steht für den Namen des Dienstes)',
  // The search
  "The label of the header's search button": 'Die Beschriftung der Suchschaltfläche im Kopf',
  'The title of the search dialog': 'Der Titel des Suchdialogs',
  'The label of the search field': 'Die Beschriftung des Suchfelds',
  'The example in the empty search field': 'Das Beispiel im leeren Suchfeld',
  'The label of the button that closes the search':
    'Die Beschriftung der Schaltfläche, die die Suche schließt',
  'How the search works by keyboard': 'Wie die Suche mit der Tastatur bedient wird',
  'The note while the search loads': 'Der Hinweis, während die Suche lädt',
  'The number of results, with {count}': 'Die Anzahl der Ergebnisse, mit {count}',
  'The text for one result': 'Der Text für ein einziges Ergebnis',
  'The note when nothing is found, with {query}':
    'Der Hinweis, wenn nichts gefunden wird, mit {query}',
  'The label of the button that shows more results':
    'Die Beschriftung der Schaltfläche, die weitere Ergebnisse zeigt',
  'The button that searches the pages of the other language':
    'Die Schaltfläche, die die Seiten der anderen Sprache durchsucht',
  "The button that searches this language's pages again":
    'Die Schaltfläche, die wieder die Seiten dieser Sprache durchsucht',
  'The note above results in the other language':
    'Der Hinweis über Ergebnissen in der anderen Sprache',
  'The note when the search cannot be loaded':
    'Der Hinweis, wenn die Suche nicht geladen werden kann',
  'The note when the search was never loaded and there is no connection':
    'Der Hinweis, wenn die Suche noch nie geladen wurde und keine Verbindung besteht',
  'The note that offline only the pages on this device are found':
    'Der Hinweis, dass offline nur die Seiten auf diesem Gerät gefunden werden',
  'The label of the button that tries again':
    'Die Beschriftung der Schaltfläche für einen neuen Versuch',
  // Navigation and the texts of pages
  'The skip-link text': 'Der Text des Sprunglinks',
  'The label of the primary navigation': 'Die Bezeichnung der Hauptnavigation',
  'The label of the menu button on small screens':
    'Die Beschriftung der Menü-Schaltfläche auf kleinen Bildschirmen',
  'The label of the language switcher': 'Die Bezeichnung der Sprachauswahl',
  'The language name in itself': 'Der Name der Sprache in ihr selbst',
  'The prefix of the navigation announcement': 'Der Anfang der Ansage beim Seitenwechsel',
  'The label of the footer navigation': 'Die Bezeichnung der Fußzeilennavigation',
  'The label of the home link': 'Die Bezeichnung des Links zur Startseite',
  'The label of the breadcrumb navigation': 'Die Bezeichnung der Brotkrumennavigation',
  'The "read more" link text': 'Der Text des Links „Weiterlesen“',
  'The reading-time text, with {minutes}': 'Der Text zur Lesezeit, mit {minutes}',
  'The publication-date text, with {date}': 'Der Text zum Veröffentlichungsdatum, mit {date}',
  'The last-updated text, with {date}': 'Der Text zur letzten Aktualisierung, mit {date}',
  'The author text, with {author}': 'Die Autorenzeile, mit {author}',
  'The previous-page link text': 'Der Text des Links zur vorherigen Seite',
  'The next-page link text': 'Der Text des Links zur nächsten Seite',
  'The pagination text, with {page} and {pages}': 'Die Seitenangabe, mit {page} und {pages}',
  'The all-categories link text': 'Der Text des Links zu allen Kategorien',
  'The categories heading': 'Die Überschrift der Kategorien',
  'The FAQ heading': 'Die Überschrift der häufigen Fragen',
  'The control that copies the link to an FAQ answer':
    'Das Bedienelement, das den Link zu einer Antwort kopiert',
  'The announcement once the link is copied': 'Die Ansage, sobald der Link kopiert ist',
  'The download text': 'Der Text zum Herunterladen',
  'The apply text': 'Der Text zur Bewerbung',
  'The location label': 'Die Beschriftung des Standorts',
  'The employment-type label': 'Die Beschriftung der Anstellungsart',
  'The application-deadline text, with {date}': 'Der Text zur Bewerbungsfrist, mit {date}',
  'The label of a post in another language, with {language}':
    'Der Hinweis an einem Beitrag in einer anderen Sprache, mit {language}',
  "The label of the choice of the blog posts' language":
    'Die Bezeichnung der Wahl der Sprache der Blogbeiträge',
  'The choice of posts in every language, with {language} first':
    'Die Wahl der Beiträge in jeder Sprache, {language} zuerst',
  'The choice of posts in one language, with {language}':
    'Die Wahl der Beiträge in nur einer Sprache, mit {language}',
  'The announcement of the posts shown, with {count}':
    'Die Ansage der gezeigten Beiträge, mit {count}',
  'The text of an archive page after the last of the chosen {language}':
    'Der Text einer Archivseite nach dem letzten Beitrag in der gewählten Sprache ({language})',
  'The text of a topic without posts in the chosen {language}':
    'Der Text eines Themas ohne Beiträge in der gewählten Sprache ({language})',
  'The button that shows the posts of every language':
    'Die Schaltfläche, die die Beiträge aller Sprachen zeigt',
  'The heading "what it is" of service pages':
    'Die Überschrift „Was es ist“ auf den Seiten der Leistungen',
  'The heading "who it is for" of service pages':
    'Die Überschrift „Für wen“ auf den Seiten der Leistungen',
  'The heading "how integration works" of service pages':
    'Die Überschrift „So funktioniert die Integration“ auf den Seiten der Leistungen',
  'The heading "regulatory notes" of service pages':
    'Die Überschrift „Regulatorische Hinweise“ auf den Seiten der Leistungen',
  'The heading "starting point" of case studies':
    'Die Überschrift „Ausgangslage“ in den Fallstudien',
  'The heading "solution" of case studies': 'Die Überschrift „Lösung“ in den Fallstudien',
  'The heading "services used" of case studies':
    'Die Überschrift „Genutzte Leistungen“ in den Fallstudien',
  'The heading "everyday help" of support pages':
    'Die Überschrift „Hilfe im Alltag“ auf den Support-Seiten',
  'The heading "complaints" of support pages':
    'Die Überschrift „Beschwerden“ auf den Support-Seiten',
  'The heading "contact the bank" of support pages':
    'Die Überschrift „Kontakt zur Bank“ auf den Support-Seiten',
  'The heading "documents" of customer information':
    'Die Überschrift „Dokumente“ in den Kundeninformationen',
  'The heading "findings" of studies': 'Die Überschrift „Ergebnisse“ in den Studien',
  'The heading "methodology" of studies': 'Die Überschrift „Methodik“ in den Studien',
  // The company's facts (imprint)
  'The heading of the company facts in the imprint':
    'Die Überschrift der Unternehmensangaben im Impressum',
  'The label "management board"': 'Die Bezeichnung „Vorstand“',
  'The label "chair of the supervisory board"': 'Die Bezeichnung „Vorsitz des Aufsichtsrats“',
  'The label "commercial register"': 'Die Bezeichnung „Handelsregister“',
  'The label "VAT ID"': 'Die Bezeichnung „USt-IdNr.“',
  'The label "supervisory authorities"': 'Die Bezeichnung „Aufsichtsbehörden“',
  'The label "responsible for editorial content"':
    'Die Bezeichnung „Verantwortlich für den redaktionellen Inhalt“',
  'The label "contact"': 'Die Bezeichnung „Kontakt“',
  'The brand name': 'Der Markenname',
  'The short name (12 characters at most, for home screens)':
    'Der Kurzname (höchstens 12 Zeichen, für Startbildschirme)',
  'The legal entity': 'Die Firmierung',
  'The street and number': 'Straße und Hausnummer',
  'The postal code': 'Die Postleitzahl',
  'The country': 'Das Land',
  'The register court': 'Das Registergericht',
  'The register number': 'Die Registernummer',
  'A board member': 'Ein Vorstandsmitglied',
  'The chair of the supervisory board': 'Der Vorsitz des Aufsichtsrats',
  'The person responsible for editorial content (section 18 MStV)':
    'Die für den redaktionellen Inhalt verantwortliche Person (§ 18 MStV)',
  'The authority': 'Die Behörde',
  "The authority's address": 'Die Anschrift der Behörde',
  // The exchange-rate pages
  "The card network's name": 'Der Name des Kartennetzwerks',
  'The sentence naming the ECB as the source ("Source: …")':
    'Der Satz, der die EZB als Quelle nennt („Quelle: …“)',
  'The label of the link to the ECB page': 'Der Text des Links zur Seite der EZB',
  'The sentence naming the card network as the source of its rates ({network})':
    'Der Satz, der das Kartennetzwerk als Quelle seiner Kurse nennt ({network})',
  'The sentence with the date the rates are for ({date})':
    'Der Satz mit dem Datum, für das die Kurse gelten ({date})',
  'The note that the rates come from the stored copy ({date}: its latest day)':
    'Der Hinweis, dass die Kurse aus der gespeicherten Kopie stammen ({date}: ihr letzter Tag)',
  'The ECB\'s "for information purposes only" note':
    'Der Hinweis der EZB „nur zu Informationszwecken“',
  'The caption of the ECB table ({date})': 'Die Beschriftung der Tabelle der EZB-Kurse ({date})',
  'The column "Currency"': 'Die Spalte „Währung“',
  'The column of the rate per 1 euro': 'Die Spalte des Kurses je 1 Euro',
  'The column of the change since the first day ({date})':
    'Die Spalte der Veränderung seit dem ersten Tag ({date})',
  'The column of the small chart': 'Die Spalte der kleinen Grafik',
  'The description of a small chart ({currency}, {first}, {firstDate}, {last}, {lastDate}, {low}, {high})':
    'Die Beschreibung einer kleinen Grafik ({currency}, {first}, {firstDate}, {last}, {lastDate}, {low}, {high})',
  'The announcement after sorting ({column}, {direction})':
    'Die Ansage nach dem Sortieren ({column}, {direction})',
  '"ascending"': '„aufsteigend“',
  '"descending"': '„absteigend“',
  'The caption of the card-rate table ({network}, {date})':
    'Die Beschriftung der Tabelle der Kartenkurse ({network}, {date})',
  "The column of the card network's rate ({network})":
    'Die Spalte des Kurses des Kartennetzwerks ({network})',
  'The column of the ECB reference rate': 'Die Spalte des EZB-Referenzkurses',
  'The column of the mark-up': 'Die Spalte des Aufschlags',
  'The column of the date': 'Die Spalte des Datums',
  'The note that the ECB rate is of an earlier day ({date})':
    'Der Hinweis, dass der EZB-Kurs von einem früheren Tag ist ({date})',
  "The converter's heading": 'Die Überschrift des Währungsrechners',
  "The converter's introduction ({network})": 'Die Einleitung des Währungsrechners ({network})',
  'The label of the amount': 'Die Beschriftung des Betrags',
  'The hint under the amount ({example})': 'Der Hinweis unter dem Betrag ({example})',
  'The error for an amount that is no number ({example})':
    'Die Fehlermeldung für einen Betrag, der keine Zahl ist ({example})',
  'The converted amount ({amount}, {euros}, {network}, {rate}, {date})':
    'Der umgerechnete Betrag ({amount}, {euros}, {network}, {rate}, {date})',
  'The amount at the ECB rate ({euros}, {rate}, {date})':
    'Der Betrag zum EZB-Kurs ({euros}, {rate}, {date})',
  'The mark-up of the conversion ({markup})': 'Der Aufschlag der Umrechnung ({markup})',
  'The heading of the history': 'Die Überschrift des Kursverlaufs',
  "The caption of a currency's history ({currency}, {network})":
    'Die Beschriftung des Kursverlaufs einer Währung ({currency}, {network})',
  'The button that shows the history of the chosen currency ({currency})':
    'Die Schaltfläche, die den Kursverlauf der gewählten Währung zeigt ({currency})',
  "The note while a currency's rates by day load ({currency})":
    'Der Hinweis, während die Tageskurse einer Währung laden ({currency})',
  "The message when a currency's rates by day could not be loaded, before the retry button ({currency})":
    'Die Meldung, wenn die Tageskurse einer Währung nicht geladen werden konnten, vor der Schaltfläche für einen neuen Versuch ({currency})',
  'The message when the rates were updated since the page was opened, before the reload button':
    'Die Meldung, wenn die Kurse seit dem Öffnen der Seite aktualisiert wurden, vor der Schaltfläche zum Neuladen',
  'The button that tries loading again': 'Die Schaltfläche, die das Laden erneut versucht',
  'The button that reloads the page': 'Die Schaltfläche, die die Seite neu lädt',
})
