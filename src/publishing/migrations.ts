/**
 * The publishing service's own tables, beside the forms service's in the same database (PGlite
 * under `data/`, or PostgreSQL via `DATABASE_URL`), recorded in a migrations table of its own.
 * Never edit a migration that has shipped: add the next one.
 */
import type { MigrationSet } from '../database/migrations'
import { AUDIT_KEYS_MIGRATION, AUDIT_MIGRATION } from './audit/trail'
import { NOTICES_MIGRATION } from './notices/notices'
import {
  PASSKEYS_MIGRATION,
  RESET_GRANTS_MIGRATION,
  SIGN_IN_RESETS_MIGRATION,
} from './people/passkeys'
import {
  PEOPLE_MIGRATION,
  PROVIDER_ACCOUNTS_MIGRATION,
  ROLE_GRANTS_MIGRATION,
} from './people/people'
import { DRAFTS_MIGRATION, SUBMISSIONS_MIGRATION } from './workflow/drafts'
import { MAIN_MOVES_MIGRATION, TAKEN_IN_MIGRATION } from './workflow/main-moves'
import {
  FIRST_RELEASE_MIGRATION,
  LEASE_SINCE_MIGRATION,
  RELEASES_MIGRATION,
} from './workflow/publisher'
import { ROLLBACK_REQUESTS_MIGRATION } from './workflow/rollbacks'
import { ONE_SCHEDULE_MIGRATION, SCHEDULES_MIGRATION } from './workflow/schedules'

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
