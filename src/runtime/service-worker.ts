/**
 * Registers the service worker on secure origins only (docs/runtime.md, "Service worker and its
 * kill switch"), and notes
 * updates: after one, the next navigation is a full load if resources failed to load.
 */
import { SERVICE_WORKER_INSECURE_MESSAGE, SERVICE_WORKER_URL } from '../shared/constants'

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

export function canUseServiceWorker(location: { protocol: string; hostname: string }): boolean {
  return location.protocol === 'https:' || LOCAL_HOSTS.has(location.hostname)
}

let updated = false

/** True once a new service worker has installed over the one that served this page. */
export function serviceWorkerUpdated(): boolean {
  return updated
}

export function registerServiceWorker(enabled: boolean): void {
  if (!canUseServiceWorker(window.location)) {
    console.error(SERVICE_WORKER_INSECURE_MESSAGE)
    return
  }
  if (!('serviceWorker' in navigator)) return
  if (!enabled) {
    // The kill switch: remove any worker an earlier deploy installed.
    navigator.serviceWorker
      .getRegistrations()
      .then((registrations) => Promise.all(registrations.map((r) => r.unregister())))
      .catch(() => {})
    return
  }
  const register = () => {
    navigator.serviceWorker
      .register(SERVICE_WORKER_URL)
      .then((registration: ServiceWorkerRegistration | undefined) => {
        registration?.addEventListener('updatefound', () => {
          const worker = registration.installing
          worker?.addEventListener('statechange', () => {
            // A worker installing while another controls the page is an update, not the first install.
            if (worker.state === 'installed' && navigator.serviceWorker.controller) updated = true
          })
        })
      })
      .catch((error: unknown) => console.warn('Service worker registration failed', error))
  }
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}
