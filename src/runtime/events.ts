/**
 * The runtime's public events (docs/runtime.md, "Runtime contract"): `route-update` after every
 * route change, the first page included, and `route-update-delayed` once when a navigation
 * takes longer than NAVIGATION_DELAYED_MS. Later code (analytics) listens through these helpers.
 */
import { ROUTE_UPDATE_DELAYED_EVENT, ROUTE_UPDATE_EVENT } from '../shared/constants'

export interface RouteUpdateDetail {
  /** The location now shown. */
  location: { pathname: string; search: string; hash: string; href: string }
  /** The location before, or null on the first page. */
  prevLocation: RouteUpdateDetail['location'] | null
}

export interface RouteUpdateDelayedDetail {
  /** The address being loaded. */
  href: string
}

function snapshot(location: Location | URL): RouteUpdateDetail['location'] {
  return {
    pathname: location.pathname,
    search: location.search,
    hash: location.hash,
    href: location.href,
  }
}

export function emitRouteUpdate(
  location: Location | URL,
  prev: RouteUpdateDetail['location'] | null,
) {
  const detail: RouteUpdateDetail = { location: snapshot(location), prevLocation: prev }
  window.dispatchEvent(new CustomEvent(ROUTE_UPDATE_EVENT, { detail }))
  return detail.location
}

export function emitRouteUpdateDelayed(href: string) {
  const detail: RouteUpdateDelayedDetail = { href }
  window.dispatchEvent(new CustomEvent(ROUTE_UPDATE_DELAYED_EVENT, { detail }))
}

/** Calls `listener` after every route change; returns a function that stops listening. */
export function onRouteUpdate(listener: (detail: RouteUpdateDetail) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<RouteUpdateDetail>).detail)
  window.addEventListener(ROUTE_UPDATE_EVENT, handler)
  return () => window.removeEventListener(ROUTE_UPDATE_EVENT, handler)
}

/** Calls `listener` when a navigation is slow; returns a function that stops listening. */
export function onRouteUpdateDelayed(
  listener: (detail: RouteUpdateDelayedDetail) => void,
): () => void {
  const handler = (event: Event) =>
    listener((event as CustomEvent<RouteUpdateDelayedDetail>).detail)
  window.addEventListener(ROUTE_UPDATE_DELAYED_EVENT, handler)
  return () => window.removeEventListener(ROUTE_UPDATE_DELAYED_EVENT, handler)
}
