/** Error codes of the sandbox's HTTP API, with the HTTP status each answers. */
export const ChannelErrors = {
  invalid_request: 400,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
} as const;

export type ChannelErrorCode = keyof typeof ChannelErrors;

/** A refusal the HTTP layer answers as `{ error, message }` with its status. */
export class ChannelError extends Error {
  override name = 'ChannelError';
  constructor(
    readonly code: ChannelErrorCode,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return ChannelErrors[this.code];
  }
}
