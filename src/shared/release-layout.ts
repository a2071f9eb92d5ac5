/**
 * The layout of `RELEASES_DIR`, which the publishing service writes and the public site's
 * server and nginx read: one folder per release, and `current`, a link to the one served.
 * Switching the link is how a release goes live (docs/publishing.md).
 */

/** The link to the served release, inside the releases folder. */
export const CURRENT = 'current'
