// Replaced by the testing package's real setup (checks Postgres and NATS before any test runs).
export default function setup(): void {}
