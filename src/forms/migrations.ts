/**
 * The forms service's schema, as numbered migrations applied at start (`migrate`), the same
 * for PGlite and PostgreSQL. Never edit a migration that has shipped: add the next one.
 *
 * No table stores an IP address (a client's network only as a salted hash, for an hour or so).
 * Tokens are stored as SHA-256 hashes only.
 */
import type { Migration, MigrationSet } from '../database/migrations'

const MIGRATIONS: Migration[] = [
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
  {
    id: '0002-mail-jobs',
    statements: [
      // The mails to send, queued by the sign-up's own transaction and sent by the sender
      // (sender.ts). No address (it is read from the subscriber when sent) and no token (the
      // links are made when the mail is sent); an erasure deletes the queued mails with the
      // subscriber. A job is open until sent_at or failed_at is set; locked_until is the lease
      // of the process (claimed_by) sending it, so a job of a process that died is taken again.
      `CREATE TABLE mail_jobs (
        id bigserial PRIMARY KEY,
        subscriber_id uuid NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('confirm')),
        list text NOT NULL,
        language text NOT NULL,
        created_at timestamptz NOT NULL,
        run_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        locked_until timestamptz,
        claimed_by text,
        sent_at timestamptz,
        failed_at timestamptz,
        last_error text
      )`,
      // What the sender looks for: open jobs by when they are due.
      `CREATE INDEX mail_jobs_due ON mail_jobs (run_at, id)
       WHERE sent_at IS NULL AND failed_at IS NULL`,
      // A subscriber's jobs, newest last: for the erasure's cascade and the sender's check
      // that no newer job replaced the one it is about to send.
      'CREATE INDEX mail_jobs_subscriber ON mail_jobs (subscriber_id, id)',
    ],
  },
  {
    id: '0003-mailbox-limits',
    statements: [
      // How often each mailbox (mailbox.ts: `victim+1@…` … `victim+10@…` are one) was signed up
      // for in the current hour and day: the sign-up's statement counts and checks it in one
      // upsert, whose row lock makes concurrent sign-ups of one mailbox wait for each other.
      // Rows are deleted a day after their day began (purge), and with an erased address.
      `CREATE TABLE mailbox_quota (
        mailbox text PRIMARY KEY,
        hour_start timestamptz NOT NULL,
        hour_count integer NOT NULL,
        day_start timestamptz NOT NULL,
        day_count integer NOT NULL
      )`,
      // The confirmation mails of the last hour, for the service's cap.
      `CREATE INDEX subscription_events_requested ON subscription_events (at)
       WHERE event = 'requested'`,
    ],
  },
  {
    id: '0004-client-quota',
    statements: [
      // Random values the service keeps to itself: 'client-key' salts the networks' hashes.
      `CREATE TABLE forms_secrets (
        name text PRIMARY KEY,
        value text NOT NULL
      )`,
      `INSERT INTO forms_secrets (name, value)
       VALUES ('client-key', encode(sha256(convert_to(
         gen_random_uuid()::text || gen_random_uuid()::text || clock_timestamp()::text, 'UTF8')),
         'hex'))`,
      // How many sign-ups that could mail each client network (an IPv4 /24, an IPv6 /64) made
      // in its current hour, for its share of the confirmation mails: counted and checked in the
      // sign-up's statement, like mailbox_quota. A network is kept as a salted SHA-256, never as
      // an address; rows are deleted once their hour is over (purge).
      `CREATE TABLE client_quota (
        network text PRIMARY KEY,
        hour_start timestamptz NOT NULL,
        hour_count integer NOT NULL
      )`,
    ],
  },
  {
    id: '0005-token-jobs',
    statements: [
      // The mail whose links a token is (NULL for links made otherwise, such as an export's).
      // A mail sent again after its sender died (its lease ended before it was marked sent)
      // gets new links, and the links of the earlier attempt, which may have been delivered,
      // are kept: every link mailed for one sign-up works. No foreign key: sent mails are
      // purged after 30 days, their unsubscribe links must keep working.
      'ALTER TABLE subscriber_tokens ADD COLUMN job_id bigint',
    ],
  },
]

export const FORMS_MIGRATIONS: MigrationSet = {
  migrations: MIGRATIONS,
  table: 'schema_migrations',
  lock: 727274,
}
