import { describeSdkChecks } from './support/sdk-suite.js';

// sdks/php: its own tests (every signing vector, signing and verifying, retries, callbacks) run by PHP
// itself, and its endpoint table held to docs/openapi.json. Needs the PHP CLI with curl
// (scripts/install-toolchains.sh); without it this fails with that command.
describeSdkChecks('php');
