// The cross-engine tests' probe, put first in every page by their front (site.ts): records
// the page's errors, failed resources, policy violations and console errors in
// `window.__problems`, the same way in every engine (WebKit's driver reports no console).
;(() => {
  const problems = []
  window.__problems = problems
  const record = (kind, text) => problems.push(`${kind}: ${String(text).slice(0, 300)}`)
  addEventListener(
    'error',
    (event) => {
      const target = event.target
      // Not this page's: Firefox delivers here the error of a preload the last page started and
      // the navigation cut off (a link of that page's document, now gone).
      if (target?.ownerDocument && target.ownerDocument !== document) return
      if (target instanceof Element) {
        record('resource', `<${target.tagName.toLowerCase()}> ${target.src || target.href || ''}`)
      } else {
        record(
          'error',
          event.message === undefined
            ? `${event.constructor.name} on ${Object.prototype.toString.call(target)}`
            : `${event.message} (${event.filename}:${event.lineno})`,
        )
      }
    },
    true,
  )
  addEventListener('unhandledrejection', (event) => {
    const reason = event.reason
    record(
      'rejection',
      reason && (reason.stack || reason.message) ? reason.stack || reason.message : reason,
    )
  })
  document.addEventListener('securitypolicyviolation', (event) =>
    record('csp', `${event.violatedDirective} ${event.blockedURI}`),
  )
  const error = console.error
  console.error = function (...args) {
    record('console', args.map((arg) => (arg?.stack ? arg.stack : String(arg))).join(' '))
    return error.apply(this, args)
  }
})()
