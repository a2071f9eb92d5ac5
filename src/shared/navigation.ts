/**
 * How page components ask for a client navigation (a form sent, then its success page): the
 * runtime registers its router here; without one (no script yet, or another host) the browser
 * loads the address itself.
 */
type Navigate = (href: string) => Promise<void>

let navigator: Navigate | undefined

export function setNavigator(navigate: Navigate | undefined): void {
  navigator = navigate
}

export function navigateTo(href: string): Promise<void> {
  if (navigator) return navigator(href)
  window.location.assign(href)
  return Promise.resolve()
}

let fullLoads = false

/**
 * From now on every navigation loads its page whole: asked by consent when a tracker's script
 * that cannot be stopped in place (LinkedIn's, X's, a tag manager's) lost its consent, so the
 * next page comes without it.
 */
export function requireFullLoads(): void {
  fullLoads = true
}

export const fullLoadsRequired = (): boolean => fullLoads
