/**
 * Passkeys (WebAuthn), the sign-in where the bank has no identity provider configured: a person
 * creates one when they accept their invitation, and signs in with it from then on. Nothing
 * secret is stored: a passkey's public key, its counter and its transports. Every ceremony's
 * challenge is kept in the database for five minutes and used once, so any process of the
 * service may answer the second half of a ceremony another began.
 */
import { randomBytes } from 'node:crypto'
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server'
import type { Queryable } from '../../database/database'

/** How long a ceremony's challenge stands. */
export const CEREMONY_MS = 5 * 60_000

/** A passkey ceremony that failed: the reason, for the person and the trail. */
export class PasskeyError extends Error {}

/** The site the passkeys belong to: its name, its host (the RP ID) and its origin. */
export interface RelyingParty {
  name: string
  id: string
  origin: string
}

export const relyingPartyOf = (url: string): RelyingParty => {
  const parsed = new URL(url)
  return { name: 'Lumora Bank publishing', id: parsed.hostname, origin: parsed.origin }
}

async function storeCeremony(
  database: Queryable,
  challenge: string,
  purpose: 'register' | 'sign-in',
  subject: string | null,
  now: Date,
): Promise<string> {
  const id = randomBytes(18).toString('base64url')
  await database.query('DELETE FROM ceremonies WHERE expires_at < $1', [now.toISOString()])
  await database.query(
    'INSERT INTO ceremonies (id, challenge, purpose, subject, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [id, challenge, purpose, subject, new Date(now.getTime() + CEREMONY_MS).toISOString()],
  )
  return id
}

/** The ceremony's challenge, once: it is gone after this, answered or not. */
async function takeCeremony(
  database: Queryable,
  id: unknown,
  purpose: 'register' | 'sign-in',
  now: Date,
): Promise<{ challenge: string; subject: string | null }> {
  if (typeof id !== 'string' || id.length > 64)
    throw new PasskeyError('no passkey request to answer')
  const [row] = await database.query<{ challenge: string; subject: string | null }>(
    `DELETE FROM ceremonies WHERE id = $1 AND purpose = $2 AND expires_at > $3
     RETURNING challenge, subject`,
    [id, purpose, now.toISOString()],
  )
  if (!row) throw new PasskeyError('the passkey request has expired: try again')
  return row
}

/** Options for creating a passkey for `email` (accepting an invitation). */
export async function registrationOptions(
  database: Queryable,
  party: RelyingParty,
  person: { email: string; name: string },
  now: Date = new Date(),
): Promise<{ ceremony: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const existing = await database.query<{ id: string }>(
    'SELECT id FROM passkeys WHERE email = $1',
    [person.email],
  )
  const options = await generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userName: person.email,
    userDisplayName: person.name,
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.id })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  })
  const ceremony = await storeCeremony(database, options.challenge, 'register', person.email, now)
  return { ceremony, options }
}

/** A new passkey, checked against its ceremony, not yet stored: for the ceremony's person. */
export interface NewPasskey {
  email: string
  id: string
  publicKey: Uint8Array
  counter: number
  transports: string[]
}

/** Checks a new passkey's answer against its ceremony (used up either way). */
export async function verifyRegistration(
  database: Queryable,
  party: RelyingParty,
  ceremonyId: unknown,
  response: RegistrationResponseJSON,
  now: Date = new Date(),
): Promise<NewPasskey> {
  const ceremony = await takeCeremony(database, ceremonyId, 'register', now)
  const verified = await verifyRegistrationResponse({
    response,
    expectedChallenge: ceremony.challenge,
    expectedOrigin: party.origin,
    expectedRPID: party.id,
    requireUserVerification: true,
  }).catch((error: unknown) => {
    throw new PasskeyError(`the passkey was not accepted: ${(error as Error).message}`)
  })
  if (!verified.verified || !ceremony.subject)
    throw new PasskeyError('the passkey was not accepted')
  const { credential } = verified.registrationInfo
  return {
    email: ceremony.subject,
    id: credential.id,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports ?? [],
  }
}

/** Stores a checked passkey for its person (who exists by then), with the name they gave it. */
export async function storePasskey(
  database: Queryable,
  passkey: NewPasskey,
  now: Date = new Date(),
  name: string | null = null,
): Promise<void> {
  await database.query(
    `INSERT INTO passkeys (id, email, public_key, counter, transports, created_at, name)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      passkey.id,
      passkey.email,
      Buffer.from(passkey.publicKey).toString('base64'),
      passkey.counter,
      passkey.transports,
      now.toISOString(),
      name,
    ],
  )
}

/** The ceremony of a sign-in: any of the site's passkeys may answer (the browser offers them). */
export async function signInOptions(
  database: Queryable,
  party: RelyingParty,
  now: Date = new Date(),
): Promise<{ ceremony: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const options = await generateAuthenticationOptions({
    rpID: party.id,
    userVerification: 'required',
  })
  const ceremony = await storeCeremony(database, options.challenge, 'sign-in', null, now)
  return { ceremony, options }
}

/** The person a passkey's answer signs in (the counter moves on), or `PasskeyError`. */
export async function verifySignIn(
  database: Queryable,
  party: RelyingParty,
  ceremonyId: unknown,
  response: AuthenticationResponseJSON,
  now: Date = new Date(),
): Promise<{ email: string }> {
  const ceremony = await takeCeremony(database, ceremonyId, 'sign-in', now)
  const id = typeof response?.id === 'string' ? response.id : ''
  const [passkey] = await database.query<{
    id: string
    email: string
    public_key: string
    counter: string | number
    transports: string[] | string
  }>('SELECT id, email, public_key, counter, transports FROM passkeys WHERE id = $1', [id])
  if (!passkey) throw new PasskeyError('this passkey is not known here')
  const verified = await verifyAuthenticationResponse({
    response,
    expectedChallenge: ceremony.challenge,
    expectedOrigin: party.origin,
    expectedRPID: party.id,
    requireUserVerification: true,
    credential: {
      id: passkey.id,
      publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64')),
      counter: Number(passkey.counter),
      transports: (Array.isArray(passkey.transports)
        ? passkey.transports
        : []) as AuthenticatorTransport[],
    },
  }).catch((error: unknown) => {
    throw new PasskeyError(`the passkey did not sign in: ${(error as Error).message}`)
  })
  if (!verified.verified) throw new PasskeyError('the passkey did not sign in')
  await database.query('UPDATE passkeys SET counter = $2, last_used_at = $3 WHERE id = $1', [
    passkey.id,
    verified.authenticationInfo.newCounter,
    now.toISOString(),
  ])
  return { email: passkey.email }
}
