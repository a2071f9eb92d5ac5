/**
 * The blog's archive and category lists: the topics to move between (the current one marked),
 * the choice of the posts' language, the posts, and the archive's pages. The archive mixes
 * English and German posts: by default the visitor's language comes first, or one language's
 * posts alone when the visitor chooses it; the choice is kept for every list and later visits.
 * Without script the list shows every language, the interface's first, and the choice is
 * left out.
 */
import { type ChangeEvent, useId, useState } from 'react'
import { languageName } from '../../../shared/display-names'
import { LANGUAGES, type Language } from '../../../shared/languages'
import { blogArchivePath } from '../../../shared/paths'
import type { BlogList as BlogListData, Pagination, UiStrings } from '../../../shared/types'
import { fill } from '../../format'
import { Link } from '../link'
import { Listing } from '../listing'
import { storeChoice, usePostLanguageChoice } from './choice'
import { type PostLanguageChoice, shownPosts } from './shown'
import styles from './styles.module.css'

export function BlogList({
  blog,
  pagination,
  path,
  language,
  strings,
}: {
  blog: BlogListData
  pagination?: Pagination
  /** The page's own path: its topic is the current one. */
  path: string
  language: Language
  strings: UiStrings
}) {
  const choice = usePostLanguageChoice()
  const [announcement, setAnnouncement] = useState('')
  const { items, pages } = shownPosts(blog, choice, language, pagination)
  const name = useId()
  const choose = (chosen: PostLanguageChoice) => {
    storeChoice(chosen)
    const count = shownPosts(blog, chosen, language, pagination).total
    setAnnouncement(fill(strings.postsShown, { count }))
  }
  const choices: { value: PostLanguageChoice; label: string }[] = [
    {
      value: 'all',
      label: fill(strings.allLanguagesFirst, { language: languageName(language, language) }),
    },
    ...[language, ...LANGUAGES.filter((other) => other !== language)].map((value) => ({
      value,
      label: fill(strings.onlyLanguage, { language: languageName(value, language) }),
    })),
  ]
  const page = pagination?.page ?? 1
  const onArchive = path === blogArchivePath(page) && pagination !== undefined
  const topics = [...blog.topics].sort((a, b) =>
    a.name[language].localeCompare(b.name[language], language),
  )
  const chosenName = languageName(choice === 'all' ? language : choice, language)
  return (
    <>
      <div className={styles.controls}>
        <nav aria-label={strings.categories}>
          <ul className={styles.topicList}>
            <li>
              <Link
                className={styles.topic}
                href={blogArchivePath(1)}
                aria-current={path === blogArchivePath(1) ? 'page' : onArchive ? 'true' : undefined}
              >
                {strings.allCategories}
              </Link>
            </li>
            {topics.map((topic) => (
              <li key={topic.href}>
                <Link
                  className={styles.topic}
                  href={topic.href}
                  aria-current={topic.href === path ? 'page' : undefined}
                >
                  {topic.name[language]}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <fieldset className={styles.languages} data-needs-script="">
          <legend className={styles.legend}>{strings.postLanguages}</legend>
          {choices.map((option) => (
            <label key={option.value} className={styles.choice}>
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={choice === option.value}
                onChange={(event: ChangeEvent<HTMLInputElement>) =>
                  choose(event.target.value as PostLanguageChoice)
                }
              />
              {option.label}
            </label>
          ))}
        </fieldset>
      </div>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {items.length > 0 ? (
        <Listing
          items={items}
          language={language}
          languageLabel={(lang) =>
            fill(strings.postLanguage, { language: languageName(lang, language) })
          }
        />
      ) : choice === 'all' ? null : (
        // One language's posts end before this page, or this topic has none of them.
        <p className={styles.empty}>
          {fill(page > pages ? strings.noMorePosts : strings.noPostsInLanguage, {
            language: chosenName,
          })}{' '}
          {page > pages ? (
            <Link href={blogArchivePath(pages)}>{strings.previousPage}</Link>
          ) : (
            <button type="button" className={styles.showAll} onClick={() => choose('all')}>
              {strings.showAllLanguages}
            </button>
          )}
        </p>
      )}
      {pagination && pages > 1 && page <= pages && (
        <nav className={styles.pagination} aria-label={fill(strings.pageOf, { page, pages })}>
          {page > 1 && (
            <Link className={styles.pageLink} href={blogArchivePath(page - 1)} rel="prev">
              {strings.previousPage}
            </Link>
          )}
          <span className={styles.pageOf}>{fill(strings.pageOf, { page, pages })}</span>
          {page < pages && (
            <Link className={styles.pageLink} href={blogArchivePath(page + 1)} rel="next">
              {strings.nextPage}
            </Link>
          )}
        </nav>
      )}
    </>
  )
}
