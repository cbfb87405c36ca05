import type { PeopleServiceDeps } from './people-common.js';
import { createPeopleInvitations } from './people-invitations.service.js';
import { createPeopleSessions } from './people-sessions.service.js';
import { createPeopleSignIn } from './people-sign-in.service.js';
import { createPeopleTokens } from './people-tokens.service.js';
import { createPeopleUsers } from './people-users.service.js';

export type PeopleService = ReturnType<typeof createPeopleService>;

/** The people of one scope: invitations, sign-in, sessions, personal tokens and the users admin. */
export function createPeopleService(deps: PeopleServiceDeps) {
  return {
    ...createPeopleUsers(deps),
    ...createPeopleInvitations(deps),
    ...createPeopleSignIn(deps),
    ...createPeopleSessions(deps),
    ...createPeopleTokens(deps),
  };
}
