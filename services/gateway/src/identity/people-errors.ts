const PEOPLE_ERRORS = ['invalid', 'not_found', 'conflict', 'forbidden'] as const;
export type PeopleErrorKind = (typeof PEOPLE_ERRORS)[number];

/** A refusal the routes answer as 400, 404, 409 or 403 with its message. */
export class PeopleError extends Error {
  constructor(
    readonly kind: PeopleErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'PeopleError';
  }
}

export const statusOf = (kind: PeopleErrorKind): number => {
  switch (kind) {
    case 'invalid':
      return 400;
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'forbidden':
      return 403;
    default: {
      const never: never = kind;
      return never;
    }
  }
};
