/**
 * Sign-in with the bank's identity provider over OpenID Connect: the authorization code flow
 * with PKCE (and a client secret where the provider gave one), the ID token's nonce checked,
 * the person's roles read from a group claim at every sign-in through a map in the settings
 * (`OIDC_ROLE_MAP=cms-authors=author,cms-reviewers=reviewer,…`), so the provider stays where
 * roles are given and taken away. Someone whose groups map to no role is not let in.
 *
 * The flow's secrets (state, nonce, PKCE verifier) travel in a short-lived `__Host-` cookie of
 * their own, not in the database: starting a sign-in changes nothing on the server.
 */
import {
  allowInsecureRequests,
  authorizationCodeGrant,
  buildAuthorizationUrl,
  ClientSecretPost,
  type Configuration,
  calculatePKCECodeChallenge,
  discovery,
  None,
  randomNonce,
  randomPKCECodeVerifier,
  randomState,
} from 'openid-client'
import { SettingError } from '../../shared/settings-error'
import { normalEmail } from './people'
import { ROLES, type Role } from './roles'

export interface OidcSettings {
  /** `OIDC_ISSUER`: the provider's issuer URL (https, or http on localhost for tests). */
  issuer: string
  /** `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET` (none: a public client, PKCE only). */
  clientId: string
  clientSecret: string | undefined
  /** `OIDC_GROUPS_CLAIM`: the claim that lists the person's groups (`groups`). */
  groupsClaim: string
  /** `OIDC_ROLE_MAP`: group → role. */
  roleMap: Map<string, Role>
}

export class OidcError extends Error {}

/** The provider settings, or `undefined` when none is configured. */
export function readOidcSettings(env: NodeJS.ProcessEnv): OidcSettings | undefined {
  const issuer = env.OIDC_ISSUER
  if (!issuer) {
    const orphan = ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ROLE_MAP'].find(
      (name) => env[name],
    )
    if (orphan) {
      throw new SettingError(
        'OIDC_ISSUER',
        `is not set, but ${orphan} is: sign-in with the identity provider needs its issuer`,
        `set OIDC_ISSUER to the provider's issuer URL, or unset the OIDC_ settings for passkeys`,
      )
    }
    return undefined
  }
  const example = 'https://login.bank.example/realms/staff'
  let url: URL
  try {
    url = new URL(issuer)
  } catch {
    throw new SettingError(
      'OIDC_ISSUER',
      `must be the provider's issuer URL; got "${issuer}"`,
      `set it to one such as ${example}`,
    )
  }
  if (url.protocol !== 'https:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
    throw new SettingError(
      'OIDC_ISSUER',
      `must use https; got "${issuer}"`,
      `set it to the provider's https issuer URL, such as ${example}`,
    )
  }
  const clientId = env.OIDC_CLIENT_ID
  if (!clientId) {
    throw new SettingError(
      'OIDC_CLIENT_ID',
      'is not set, and OIDC_ISSUER needs it',
      "set it to the service's client ID at the provider (and OIDC_CLIENT_SECRET, if it has one), or unset OIDC_ISSUER for passkeys",
    )
  }
  const roleMap = new Map<string, Role>()
  for (const pair of (env.OIDC_ROLE_MAP ?? '').split(',').filter((part) => part.trim())) {
    const [group, role] = pair.split('=').map((part) => part.trim())
    if (!group || !role || !(ROLES as readonly string[]).includes(role)) {
      throw new SettingError(
        'OIDC_ROLE_MAP',
        `must read group=role,… with roles ${ROLES.join(', ')}; got "${pair}"`,
        `set it to such pairs, e.g. cms-authors=author,cms-admins=administrator`,
      )
    }
    roleMap.set(group, role as Role)
  }
  if (roleMap.size === 0) {
    throw new SettingError(
      'OIDC_ROLE_MAP',
      `is not set, and OIDC_ISSUER needs it: the provider's groups must map to roles (${ROLES.join(', ')})`,
      'set it to group=role pairs, comma-separated, e.g. cms-authors=author,cms-admins=administrator',
    )
  }
  return {
    issuer,
    clientId,
    clientSecret: env.OIDC_CLIENT_SECRET || undefined,
    groupsClaim: env.OIDC_GROUPS_CLAIM || 'groups',
    roleMap,
  }
}

/** What a sign-in carries from its start to its end, in its own cookie. */
interface Pending {
  state: string
  nonce: string
  verifier: string
}

export const OIDC_COOKIE = '__Host-publishing-sign-in'

export function createOidc(settings: OidcSettings, redirectUri: string) {
  let configuration: Promise<Configuration> | undefined
  const configured = () => {
    configuration ??= discovery(
      new URL(settings.issuer),
      settings.clientId,
      { redirect_uris: [redirectUri] },
      settings.clientSecret ? ClientSecretPost(settings.clientSecret) : None(),
      new URL(settings.issuer).protocol === 'http:' ? { execute: [allowInsecureRequests] } : {},
    ).catch((error: unknown) => {
      configuration = undefined
      throw new OidcError(`the identity provider did not answer: ${(error as Error).message}`)
    })
    return configuration
  }

  return {
    /** Where to send the person, and the cookie that carries the flow's secrets. */
    async start(): Promise<{ url: string; cookie: string }> {
      const pending: Pending = {
        state: randomState(),
        nonce: randomNonce(),
        verifier: randomPKCECodeVerifier(),
      }
      const url = buildAuthorizationUrl(await configured(), {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
      })
      return { url: url.href, cookie: Buffer.from(JSON.stringify(pending)).toString('base64url') }
    },

    /**
     * The person the provider vouches for, with their roles, from the callback's address and
     * the flow's cookie; `OidcError` when anything does not hold.
     */
    async finish(
      callback: URL,
      cookie: string | undefined,
    ): Promise<{ email: string; name: string; roles: Role[]; account: string }> {
      let pending: Pending
      try {
        pending = JSON.parse(Buffer.from(cookie ?? '', 'base64url').toString()) as Pending
      } catch {
        throw new OidcError('the sign-in was not started here, or took too long: start again')
      }
      if (!pending?.state) {
        throw new OidcError('the sign-in was not started here, or took too long: start again')
      }
      const tokens = await authorizationCodeGrant(await configured(), callback, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      }).catch((error: unknown) => {
        throw new OidcError(
          `the identity provider's answer was not accepted: ${(error as Error).message}`,
        )
      })
      const claims = tokens.claims()
      if (!claims) throw new OidcError('the identity provider sent no ID token')
      if (typeof claims.email !== 'string') {
        throw new OidcError('the identity provider sent no e-mail address for this account')
      }
      if (claims.email_verified === false) {
        throw new OidcError('the identity provider has not verified this account’s e-mail address')
      }
      const groups = claims[settings.groupsClaim]
      const roles = [
        ...new Set(
          (Array.isArray(groups) ? groups : [])
            .map((group) => settings.roleMap.get(String(group)))
            .filter((role): role is Role => role !== undefined),
        ),
      ]
      if (roles.length === 0) {
        throw new OidcError(
          'your account has no role in the publishing service: ask for one of its groups',
        )
      }
      const email = normalEmail(claims.email)
      const name =
        typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : email
      // The account is the issuer's and its subject's: the e-mail address may change there.
      return { email, name: name.slice(0, 200), roles, account: `${claims.iss} ${claims.sub}` }
    },
  }
}
