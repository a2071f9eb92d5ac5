/**
 * The forms service's schema, as numbered migrations applied at start (`migrate`), the same
 * for PGlite and PostgreSQL. Never edit a migration that has shipped: add the next one.
 *
 * No table stores an IP address. Tokens are stored as SHA-256 hashes only.
 */
export interface Migration {
  id: string
  statements: string[]
}

export const MIGRATIONS: Migration[] = [
  {
    id: '0001-forms',
    statements: [
      // One row per address and list; its history is in subscription_events.
      `CREATE TABLE subscribers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        list text NOT NULL,
        email text NOT NULL,
        language text NOT NULL,
        topics text[] NOT NULL DEFAULT '{}',
        status text NOT NULL CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
        consent_version text NOT NULL,
        consent_text text NOT NULL,
        created_at timestamptz NOT NULL,
        requested_at timestamptz NOT NULL,
        confirmed_at timestamptz,
        unsubscribed_at timestamptz,
        mailed_at timestamptz,
        UNIQUE (list, email)
      )`,
      // The links of the e-mails: one-time confirmation and unsubscription.
      `CREATE TABLE subscriber_tokens (
        hash text PRIMARY KEY,
        subscriber_id uuid NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('confirm', 'unsubscribe')),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`,
      'CREATE INDEX subscriber_tokens_subscriber ON subscriber_tokens (subscriber_id)',
      // Proof of consent (section 7 UWG): what was asked, confirmed and withdrawn, and when.
      `CREATE TABLE subscription_events (
        id bigserial PRIMARY KEY,
        subscriber_id uuid NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
        event text NOT NULL CHECK (event IN ('requested', 'confirmed', 'unsubscribed')),
        at timestamptz NOT NULL,
        language text NOT NULL,
        topics text[] NOT NULL,
        consent_version text NOT NULL,
        consent_text text NOT NULL
      )`,
      'CREATE INDEX subscription_events_subscriber ON subscription_events (subscriber_id)',
      // Anonymous survey answers with the version of the questions they answer.
      `CREATE TABLE survey_responses (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        survey text NOT NULL,
        version text NOT NULL,
        language text NOT NULL,
        answers jsonb NOT NULL,
        submitted_at timestamptz NOT NULL
      )`,
      'CREATE INDEX survey_responses_survey ON survey_responses (survey, submitted_at)',
      // The cookie banner's choices, by the random id the browser keeps; no IP address.
      `CREATE TABLE consent_records (
        id bigserial PRIMARY KEY,
        consent_id uuid NOT NULL,
        categories jsonb NOT NULL,
        trackers jsonb NOT NULL,
        revision text NOT NULL,
        language text NOT NULL,
        recorded_at timestamptz NOT NULL
      )`,
      'CREATE INDEX consent_records_consent ON consent_records (consent_id)',
    ],
  },
]
