/**
 * A real OpenID Connect provider for the tests (`oidc-provider`, with its development login and
 * consent pages): the bank's identity provider with four people, three of them in groups the
 * service maps to roles. Any password is taken.
 */
import { createServer } from 'node:http'
import Provider from 'oidc-provider'

export const OIDC_CLIENT = { id: 'publishing', secret: 'a-secret-of-the-bank' }
export const OIDC_ROLE_MAP =
  'cms-authors=author,cms-reviewers=reviewer,cms-publishers=publisher,cms-admins=administrator'

export const OIDC_ACCOUNTS: Record<string, { email: string; name: string; groups: string[] }> = {
  ada: { email: 'ada@bank.example', name: 'Ada Author', groups: ['staff', 'cms-authors'] },
  rita: { email: 'rita@bank.example', name: 'Rita Reviewer', groups: ['cms-reviewers'] },
  paul: {
    email: 'paul@bank.example',
    name: 'Paul Publisher',
    groups: ['cms-publishers', 'cms-admins'],
  },
  mallory: { email: 'mallory@bank.example', name: 'Mallory', groups: ['staff'] },
  // Another account of the provider that claims Ada's address.
  impostor: { email: 'ada@bank.example', name: 'Not Ada', groups: ['cms-publishers'] },
}

/** Starts the provider on a free port of localhost for a service at `serviceUrl`. */
export async function startOidcProvider(
  serviceUrl: string,
): Promise<{ issuer: string; close(): Promise<void> }> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const issuer = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [`${serviceUrl}/sign-in/provider/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    async findAccount(_ctx, id) {
      const account = OIDC_ACCOUNTS[id]
      if (!account) return undefined
      return { accountId: id, claims: async () => ({ sub: id, email_verified: true, ...account }) }
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['cookie-key-of-the-test'] },
  })
  server.on('request', provider.callback())
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
