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
