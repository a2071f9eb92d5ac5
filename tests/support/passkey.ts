/**
 * A passkey as a person's device keeps it, in software: an ES256 key pair made here, which
 * answers the publishing service's ceremonies as a browser's authenticator would (WebAuthn
 * level 2: attestation `none`, user present and verified, a counter of 0 as synced passkeys
 * keep). Saved as JSON, it signs in again later: the upgrade fixture keeps its people's.
 */
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'

/** What a saved passkey holds: its credential's id and its private key (PKCS #8, base64). */
export interface SavedPasskey {
  id: string
  privateKey: string
}

/** The browser's `PublicKeyCredential`, as `@simplewebauthn/browser` sends it to the service. */
export interface CredentialJSON {
  id: string
  rawId: string
  type: 'public-key'
  response: Record<string, unknown>
  clientExtensionResults: Record<string, never>
  authenticatorAttachment: 'platform'
}

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()
/** User present, user verified: what the service requires. */
const PRESENT_AND_VERIFIED = 0x01 | 0x04
/** …with attested credential data following (a registration). */
const ATTESTED = 0x40

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string) {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
}

export class Passkey {
  private constructor(
    readonly id: string,
    private readonly key: ReturnType<typeof createPrivateKey>,
  ) {}

  /** A new passkey, not yet registered anywhere. */
  static create(): Passkey {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    return new Passkey(base64url(randomBytes(32)), privateKey)
  }

  static restore(saved: SavedPasskey): Passkey {
    const key = createPrivateKey({
      key: Buffer.from(saved.privateKey, 'base64'),
      format: 'der',
      type: 'pkcs8',
    })
    return new Passkey(saved.id, key)
  }

  save(): SavedPasskey {
    const der = this.key.export({ format: 'der', type: 'pkcs8' })
    return { id: this.id, privateKey: der.toString('base64') }
  }

  /** The answer to a registration's options (`/invitation/options`) from `origin`. */
  register(options: { challenge: string; rp: { id?: string } }, origin: string): CredentialJSON {
    const rpId = options.rp.id ?? new URL(origin).hostname
    const jwk = this.key.export({ format: 'jwk' })
    const publicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    )
    const credentialId = Buffer.from(this.id, 'base64url')
    const length = Buffer.alloc(2)
    length.writeUInt16BE(credentialId.length)
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([PRESENT_AND_VERIFIED | ATTESTED]),
      Buffer.alloc(4), // the counter: 0
      Buffer.alloc(16), // the AAGUID: none
      length,
      credentialId,
      publicKey,
    ])
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, never>()],
        ['authData', authData],
      ]),
    )
    return this.credential({
      clientDataJSON: base64url(clientData('webauthn.create', options.challenge, origin)),
      attestationObject: base64url(attestationObject),
      transports: ['internal'],
    })
  }

  /** The answer to a sign-in's options (`/sign-in/options`) from `origin`. */
  signIn(options: { challenge: string; rpId?: string }, origin: string): CredentialJSON {
    const rpId = options.rpId ?? new URL(origin).hostname
    const authenticatorData = Buffer.concat([
      sha256(rpId),
      Buffer.from([PRESENT_AND_VERIFIED]),
      Buffer.alloc(4),
    ])
    const data = clientData('webauthn.get', options.challenge, origin)
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(data)]), this.key)
    return this.credential({
      clientDataJSON: base64url(data),
      authenticatorData: base64url(authenticatorData),
      signature: base64url(signature),
    })
  }

  private credential(response: Record<string, unknown>): CredentialJSON {
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    }
  }
}
