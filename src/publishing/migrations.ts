/**
 * The publishing service's schema: its own tables, beside the forms service's in the same
 * database (PGlite under `data/`, or PostgreSQL via `DATABASE_URL`), as numbered migrations
 * applied at start (`migrate`), recorded in a migrations table of its own. Every one of them is
 * here, in the order they are applied; the code that reads and writes each table is named
 * above it. Never edit a migration that has shipped: add the next one.
 */
import type { Migration, MigrationSet } from '../database/migrations'

/** The audit trail (audit/trail.ts): chained entries, append-only in the database itself. */
const AUDIT_MIGRATION: Migration = {
  id: '0001-audit',
  statements: [
    `CREATE TABLE audit_entries (
      id bigint PRIMARY KEY,
      at timestamptz NOT NULL,
      actor text NOT NULL,
      action text NOT NULL,
      subject text NOT NULL,
      before_commit text,
      after_commit text,
      details jsonb NOT NULL DEFAULT '{}',
      previous_hash text NOT NULL,
      hash text NOT NULL UNIQUE
    )`,
    // Append-only, in the database itself: no statement may change or remove an entry.
    `CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       RAISE EXCEPTION 'the audit trail is append-only: % is not allowed', TG_OP;
     END $$`,
    `CREATE TRIGGER audit_entries_append_only
       BEFORE UPDATE OR DELETE ON audit_entries
       FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only()`,
    `CREATE TRIGGER audit_entries_no_truncate
       BEFORE TRUNCATE ON audit_entries
       FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only()`,
  ],
}

/** People, their invitations and sessions (people/people.ts). */
const PEOPLE_MIGRATION: Migration = {
  id: '0002-people',
  statements: [
    `CREATE TABLE people (
      email text PRIMARY KEY,
      name text NOT NULL,
      roles text[] NOT NULL,
      language text NOT NULL DEFAULT 'en',
      created_at timestamptz NOT NULL,
      disabled_at timestamptz
    )`,
    `CREATE TABLE invitations (
      token_hash text PRIMARY KEY,
      email text NOT NULL,
      roles text[] NOT NULL,
      invited_by text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`,
    `CREATE TABLE sessions (
      token_hash text PRIMARY KEY,
      email text NOT NULL REFERENCES people (email),
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`,
    'CREATE INDEX sessions_by_person ON sessions (email)',
  ],
}

/**
 * Drafts (workflow/drafts.ts): a draft's status, its approvals (each bound to a commit) and the
 * reviewers' comments; the content is in git, on the draft's branch.
 */
const DRAFTS_MIGRATION: Migration = {
  id: '0003-drafts',
  statements: [
    `CREATE TABLE drafts (
      id text PRIMARY KEY,
      status text NOT NULL CHECK (status IN ('draft', 'pending_review', 'pending_publish')),
      base_commit text NOT NULL,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
    `CREATE TABLE approvals (
      draft_id text NOT NULL REFERENCES drafts (id) ON DELETE CASCADE,
      approved_by text NOT NULL,
      commit text NOT NULL,
      at timestamptz NOT NULL,
      PRIMARY KEY (draft_id, commit, approved_by)
    )`,
    `CREATE TABLE draft_comments (
      id bigserial PRIMARY KEY,
      draft_id text NOT NULL REFERENCES drafts (id) ON DELETE CASCADE,
      written_by text NOT NULL,
      body text NOT NULL,
      at timestamptz NOT NULL
    )`,
  ],
}

/**
 * The releases served (publication/release-records.ts, each written by `goLive` in
 * publication/publish.ts) and the publication lease (publication/lease.ts).
 */
const RELEASES_MIGRATION: Migration = {
  id: '0004-releases',
  statements: [
    // Each switch of the served release: a publication, a rollback, a schedule firing, or the
    // service bringing the served site up to main after a crash.
    `CREATE TABLE releases (
      id bigserial PRIMARY KEY,
      folder text NOT NULL,
      commit text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('publish', 'rollback', 'schedule', 'recovery')),
      made_by text NOT NULL,
      subject text NOT NULL,
      live_at timestamptz NOT NULL
    )`,
    `CREATE INDEX releases_folder ON releases (folder)`,
    `CREATE TABLE publish_lease (
      name text PRIMARY KEY,
      holder text NOT NULL,
      until timestamptz NOT NULL
    )`,
  ],
}

/** Passkeys and the challenges of their ceremonies (people/passkeys.ts). */
const PASSKEYS_MIGRATION: Migration = {
  id: '0005-passkeys',
  statements: [
    `CREATE TABLE passkeys (
      id text PRIMARY KEY,
      email text NOT NULL REFERENCES people (email),
      public_key text NOT NULL,
      counter bigint NOT NULL,
      transports text[] NOT NULL,
      created_at timestamptz NOT NULL,
      last_used_at timestamptz
    )`,
    'CREATE INDEX passkeys_by_person ON passkeys (email)',
    `CREATE TABLE ceremonies (
      id text PRIMARY KEY,
      challenge text NOT NULL,
      purpose text NOT NULL CHECK (purpose IN ('register', 'sign-in')),
      subject text,
      expires_at timestamptz NOT NULL
    )`,
  ],
}

/** Scheduled publications (workflow/schedules.ts). */
const SCHEDULES_MIGRATION: Migration = {
  id: '0006-schedules',
  statements: [
    `CREATE TABLE schedules (
      id bigserial PRIMARY KEY,
      draft_id text NOT NULL,
      head text NOT NULL,
      at timestamptz NOT NULL,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL,
      state text NOT NULL CHECK (state IN ('pending', 'firing', 'done', 'failed', 'cancelled')),
      claimed_until timestamptz,
      fired_at timestamptz,
      outcome text
    )`,
    `CREATE INDEX schedules_due ON schedules (at) WHERE state IN ('pending', 'firing')`,
  ],
}

/**
 * Who a person is at the bank's identity provider (its issuer and their subject there): the
 * account a person signs in with stays theirs, whatever e-mail address the provider sends later
 * (people/people.ts).
 */
const PROVIDER_ACCOUNTS_MIGRATION: Migration = {
  id: '0007-provider-accounts',
  statements: [
    'ALTER TABLE people ADD COLUMN provider_account text',
    'CREATE UNIQUE INDEX people_provider_account ON people (provider_account) WHERE provider_account IS NOT NULL',
  ],
}

/**
 * Each move of main by the service, written down before it is made and settled by the next
 * holder of the lease when a process was killed in between (publication/main-moves.ts).
 */
const MAIN_MOVES_MIGRATION: Migration = {
  id: '0008-main-moves',
  statements: [
    `CREATE TABLE main_moves (
      id bigserial PRIMARY KEY,
      action text NOT NULL CHECK (action IN ('publish', 'rollback', 'take-in')),
      actor text NOT NULL,
      subject text NOT NULL,
      before text NOT NULL,
      after text NOT NULL,
      details jsonb NOT NULL,
      draft_id text,
      draft_ref text,
      draft_head text,
      at timestamptz NOT NULL
    )`,
  ],
}

/**
 * Which version of a draft its author moved to review, and who: a reviewer may approve only
 * that version. Drafts in review when this shipped take their submission from the trail's last
 * "submit" of them (checked against the draft's head and writers when used, like any other).
 */
const SUBMISSIONS_MIGRATION: Migration = {
  id: '0009-draft-submissions',
  statements: [
    `ALTER TABLE drafts
       ADD COLUMN submitted_by text,
       ADD COLUMN submitted_commit text,
       ADD COLUMN submitted_at timestamptz`,
    `UPDATE drafts SET submitted_by = s.actor, submitted_commit = s.after_commit, submitted_at = s.at
     FROM (
       SELECT DISTINCT ON (subject) subject, actor, after_commit, at
       FROM audit_entries
       WHERE action = 'submit' AND details ->> 'status' = 'pending_review'
       ORDER BY subject, id DESC
     ) s
     WHERE drafts.id = s.subject AND drafts.status <> 'draft'`,
  ],
}

/**
 * One pending schedule per draft: a second replaces the first (the service does so and says
 * so), and the database holds it whatever two processes do at once. Schedules made twice
 * before this shipped keep the newest.
 */
const ONE_SCHEDULE_MIGRATION: Migration = {
  id: '0010-one-schedule-per-draft',
  statements: [
    `UPDATE schedules SET state = 'cancelled', outcome = 'replaced by a later schedule'
     WHERE state = 'pending' AND id NOT IN (
       SELECT max(id) FROM schedules WHERE state = 'pending' GROUP BY draft_id
     )`,
    `CREATE UNIQUE INDEX schedules_one_pending ON schedules (draft_id) WHERE state = 'pending'`,
  ],
}

/**
 * Content that reached main from outside the service (a developer's push to the bank's
 * repository, taken in before a publication): no reviewer approved it. Each commit with content
 * files is kept until a release first serves it, and that release names it.
 */
const TAKEN_IN_MIGRATION: Migration = {
  id: '0011-taken-in-content',
  statements: [
    `CREATE TABLE taken_in_content (
      id bigserial PRIMARY KEY,
      commit text NOT NULL,
      author text NOT NULL,
      files jsonb NOT NULL,
      taken_at timestamptz NOT NULL,
      release_id bigint
    )`,
    `CREATE INDEX taken_in_content_unreleased ON taken_in_content (id) WHERE release_id IS NULL`,
    // The releases page finds the move of main each release serves by its commit.
    `CREATE INDEX audit_entries_after ON audit_entries (after_commit)`,
  ],
}

/**
 * The audit trail's keys' column (audit/trail.ts): an entry keyed with `AUDIT_KEY` names its
 * key's id (its hash then needs the key); entries written before keep `NULL` and their plain
 * hashes.
 */
const AUDIT_KEYS_MIGRATION: Migration = {
  id: '0012-audit-keys',
  statements: ['ALTER TABLE audit_entries ADD COLUMN key_id text'],
}

/** When the lease's holder took it (renewals extend `until` only): how long it has been held. */
const LEASE_SINCE_MIGRATION: Migration = {
  id: '0013-publish-lease-since',
  statements: [`ALTER TABLE publish_lease ADD COLUMN since timestamptz NOT NULL DEFAULT now()`],
}

/**
 * Notices (notices/notices.ts): each person's choice (e-mails on by default), and the queue of
 * notices. The queue is the publishing service's own table, drained by the forms service's
 * sender engine (`QueueSender`, src/mail/queue-sender.ts) with the same leases,
 * retries, backoff, readiness and counts, rather than a second kind of job in the forms
 * service's `mail_jobs`: under PGlite the two services have databases of their own
 * (`DATA_DIR/db` and `DATA_DIR/publishing/db`, one process each), so the publishing service
 * could neither write to `mail_jobs` nor do so in the transaction of its trail entry; `npm run
 * serve:cms` runs without the forms service and its sender; and `mail_jobs` is the
 * subscribers' (each job bound to one, erased and purged with them, counted against the
 * confirmation mail cap).
 */
const NOTICES_MIGRATION: Migration = {
  id: '0014-notices',
  statements: [
    'ALTER TABLE people ADD COLUMN notices boolean NOT NULL DEFAULT true',
    // A notice as it will be sent: its reader, language, subject and text are stored when the
    // action is (the reader's language and address as they were then). A job is open until
    // sent_at or failed_at is set; locked_until is the lease of the process (claimed_by)
    // sending it, so a job of a process that died is taken again.
    `CREATE TABLE notice_mails (
      id bigserial PRIMARY KEY,
      kind text NOT NULL,
      draft_id text NOT NULL,
      recipient text NOT NULL,
      language text NOT NULL CHECK (language IN ('en', 'de')),
      subject text NOT NULL,
      text text NOT NULL,
      created_at timestamptz NOT NULL,
      run_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      locked_until timestamptz,
      claimed_by text,
      sent_at timestamptz,
      failed_at timestamptz,
      last_error text
    )`,
    `CREATE INDEX notice_mails_due ON notice_mails (run_at, id)
     WHERE sent_at IS NULL AND failed_at IS NULL`,
  ],
}

/**
 * Role grants under four eyes (people/people.ts; `people/grants.ts` has the rules): one open
 * invitation per address (a newer one replaces it), each invitation naming the grant of its
 * approving roles, and the grants themselves, pending until a second administrator confirms
 * them. Two open invitations for one address left from before: the newest stands.
 */
const ROLE_GRANTS_MIGRATION: Migration = {
  id: '0015-role-grants',
  statements: [
    'ALTER TABLE invitations ADD COLUMN replaced_at timestamptz',
    'ALTER TABLE invitations ADD COLUMN grant_id bigint',
    `UPDATE invitations SET replaced_at = now()
     WHERE used_at IS NULL AND EXISTS (
       SELECT 1 FROM invitations newer
       WHERE newer.email = invitations.email AND newer.used_at IS NULL
         AND (newer.created_at, newer.token_hash) > (invitations.created_at, invitations.token_hash)
     )`,
    `CREATE UNIQUE INDEX invitations_one_open ON invitations (email)
     WHERE used_at IS NULL AND replaced_at IS NULL`,
    `CREATE TABLE role_grants (
      id bigserial PRIMARY KEY,
      email text NOT NULL,
      roles text[] NOT NULL,
      via text NOT NULL CHECK (via IN ('invitation', 'role-change')),
      proposed_by text NOT NULL,
      proposed_at timestamptz NOT NULL,
      state text NOT NULL
        CHECK (state IN ('pending', 'granted', 'refused', 'withdrawn', 'replaced')),
      confirmed_by text,
      confirmed_at timestamptz,
      closed_by text,
      closed_at timestamptz
    )`,
    `CREATE UNIQUE INDEX role_grants_one_pending ON role_grants (email) WHERE state = 'pending'`,
    `CREATE INDEX role_grants_open ON role_grants (email)
     WHERE state = 'pending' OR (state = 'granted' AND confirmed_by IS NULL)`,
  ],
}

/**
 * Rollbacks a publisher asked for that a reviewer confirms (workflow/rollbacks.ts; the rules:
 * `mayRollBack`, `mayConfirmRollback` in workflow/four-eyes.ts). A request says what the
 * rollback would bring back and take away as it was asked for; it goes stale when the live
 * site changes before it is confirmed.
 */
const ROLLBACK_REQUESTS_MIGRATION: Migration = {
  id: '0016-rollback-requests',
  statements: [
    `CREATE TABLE rollback_requests (
      id bigserial PRIMARY KEY,
      folder text NOT NULL,
      target_commit text NOT NULL,
      live_folder text,
      main_commit text NOT NULL,
      requested_by text NOT NULL,
      requested_at timestamptz NOT NULL,
      code text NOT NULL,
      reason text NOT NULL,
      changes jsonb NOT NULL,
      state text NOT NULL CHECK (state IN ('pending', 'done', 'stale')),
      decided_by text,
      decided_at timestamptz,
      outcome text
    )`,
    `CREATE UNIQUE INDEX rollback_requests_one_pending ON rollback_requests (folder)
       WHERE state = 'pending'`,
  ],
}

/**
 * The release the publishing service makes at its first start, of main as it is: the site
 * before any publication, listed and served, so the first publication can be undone.
 */
const FIRST_RELEASE_MIGRATION: Migration = {
  id: '0017-first-release',
  statements: [
    `ALTER TABLE releases DROP CONSTRAINT releases_kind_check`,
    `ALTER TABLE releases ADD CONSTRAINT releases_kind_check
       CHECK (kind IN ('publish', 'rollback', 'schedule', 'recovery', 'first'))`,
  ],
}

/**
 * A way back in (`people/sign-in-keys.ts`, `people/resets.ts`): passkeys get a name their
 * person gives them, and an invitation may be a reset of someone's sign-in (a new passkey for
 * the same person, their roles and history kept) rather than an invitation of someone new.
 */
const SIGN_IN_RESETS_MIGRATION: Migration = {
  id: '0018-sign-in-resets',
  statements: [
    'ALTER TABLE passkeys ADD COLUMN name text',
    'ALTER TABLE invitations ADD COLUMN reset boolean NOT NULL DEFAULT false',
  ],
}

/**
 * A reset's approving roles wait for a second administrator, as a grant of its own (`via`
 * `reset`): whoever holds the reset link cannot approve or publish in the person's name on one
 * administrator's word.
 */
const RESET_GRANTS_MIGRATION: Migration = {
  id: '0019-reset-grants',
  statements: [
    'ALTER TABLE role_grants DROP CONSTRAINT role_grants_via_check',
    `ALTER TABLE role_grants ADD CONSTRAINT role_grants_via_check
       CHECK (via IN ('invitation', 'role-change', 'reset'))`,
  ],
}

export const PUBLISHING_MIGRATIONS: MigrationSet = {
  migrations: [
    AUDIT_MIGRATION,
    PEOPLE_MIGRATION,
    DRAFTS_MIGRATION,
    RELEASES_MIGRATION,
    PASSKEYS_MIGRATION,
    SCHEDULES_MIGRATION,
    PROVIDER_ACCOUNTS_MIGRATION,
    MAIN_MOVES_MIGRATION,
    SUBMISSIONS_MIGRATION,
    ONE_SCHEDULE_MIGRATION,
    TAKEN_IN_MIGRATION,
    AUDIT_KEYS_MIGRATION,
    LEASE_SINCE_MIGRATION,
    NOTICES_MIGRATION,
    ROLE_GRANTS_MIGRATION,
    ROLLBACK_REQUESTS_MIGRATION,
    FIRST_RELEASE_MIGRATION,
    SIGN_IN_RESETS_MIGRATION,
    RESET_GRANTS_MIGRATION,
  ],
  table: 'publishing_migrations',
  lock: 727275,
}
